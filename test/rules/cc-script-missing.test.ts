// What a missing script's hook exits with depends on what runs it: `sh` 127, node 1 (neither blocks),
// Python, Perl and `uv run` 2, which blocks where the event honours exit 2. disler's
// claude-code-hooks-multi-agent-observability runs two missing validators with `uv run` from a
// PostToolUse hook (its builder agent): the message said exit 127 (no block), where exit 2 is a blocking
// error that feeds uv's error back to Claude after every edit, and on PreToolUse refuses every call.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';

const root = mkdtempSync(join(tmpdir(), 'cc-script-missing-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The cc-script-missing messages for a project whose settings run each command on `event`. */
async function messages(event: string, commands: string[]): Promise<string[]> {
  const dir = mkdtempSync(join(root, 'p-'));
  mkdirSync(join(dir, '.claude'));
  const hooks = commands.map((command) => ({ type: 'command', command }));
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { [event]: [{ matcher: 'Bash', hooks }] } }, null, 2));
  const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1' } });
  await main(['--all', '--no-shellcheck', '-f', 'json'], io);
  const [result] = JSON.parse(io.out()) as { messages: { ruleId: string; message: string }[] }[];
  return result!.messages.filter((m) => m.ruleId === 'cc-script-missing').map((m) => m.message);
}

describe('cc-script-missing says what the missing script makes the hook exit with', () => {
  it('uv run and perl exit 2, which blocks every PreToolUse call, as python does', async () => {
    const found = await messages('PreToolUse', ['uv run .claude/hooks/a.py', 'perl .claude/hooks/b.pl', 'python3 .claude/hooks/c.py']);
    expect(await messages('PostToolUse', ['uv run .claude/hooks/a.py'])).toEqual([
      expect.stringContaining('`uv` exits 2 for a missing file'),
    ]);
    expect(found).toEqual([
      expect.stringContaining('`uv` exits 2 for a missing file, which Claude Code takes as a block on every call'),
      expect.stringContaining('`perl` exits 2 for a missing file'),
      expect.stringContaining('`python3` exits 2 for a missing file'),
    ]);
  });

  it('node exits 1 and sh 127: neither blocks', async () => {
    const found = await messages('PreToolUse', ['node .claude/hooks/a.js', '.claude/hooks/b.sh']);
    expect(found).toEqual([
      expect.stringContaining('fails every time (exit 1 from `node`, which does not block'),
      expect.stringContaining('fails every time (exit 127, which does not block'),
    ]);
  });

  it('exit 2 on SessionStart, which has no blocking error, is no block', async () => {
    const found = await messages('SessionStart', ['uv run .claude/hooks/a.py']);
    expect(found).toEqual([expect.stringContaining('fails every time (exit 2 from `uv`, which does not block')]);
  });

  // kadufarah1979/kanbania commits `python3 /home/<user>/…/pre_tool_use.py` with matcher "": on any other
  // machine python3 exits 2 and every tool call is refused.
  it('a path into a home directory in a shared configuration, with what it does elsewhere', async () => {
    expect(
      await messages('PreToolUse', [
        'python3 /home/alice/proj/.claude/hooks/pre_tool_use.py',
        'node "/Users/bob/tools/notify.js"',
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/ok.sh || true',
        'bash ~/bin/guard.sh; echo "$HOME/x"',
      ]),
    ).toEqual([
      expect.stringMatching(
        /^Unexpected path into a home directory, `\/home\/alice\/proj\/\.claude\/hooks\/pre_tool_use\.py`.*`python3` exits 2 for a missing file.*`"\$CLAUDE_PROJECT_DIR"\/\.claude\/hooks\/pre_tool_use\.py`\.$/,
      ),
      expect.stringMatching(/^Unexpected path into a home directory, `\/Users\/bob\/tools\/notify\.js`.*\(exit 1, which does not block/),
      expect.stringContaining('.claude/hooks/ok.sh does not exist'),
    ]);
  });

  it("leaves a path into a home directory alone in settings.local.json, which is the user's own", async () => {
    const dir = mkdtempSync(join(root, 'local-'));
    mkdirSync(join(dir, '.claude'));
    const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 /home/alice/g.py' }] }] } };
    writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify(settings));
    const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1' } });
    await main(['--all', '--no-shellcheck', '-f', 'json'], io);
    const [result] = JSON.parse(io.out()) as { messages: { ruleId: string }[] }[];
    expect(result!.messages.filter((m) => m.ruleId === 'cc-script-missing')).toEqual([]);
  });
});
