import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'vah-cc-'));
  mkdirSync(join(root, '.claude', 'hooks'), { recursive: true });
  mkdirSync(join(root, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(root, '.claude', 'hooks', 'ok.sh'), '#!/bin/bash\nexit 0\n');
  writeFileSync(
    join(root, '.claude', 'settings.json'),
    JSON.stringify(
      {
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: 'comand', command: '$CLAUDE_PROJECT_DIR/.claude/hooks/ok.sh' },
                { type: 'command', command: 'echo "checking"\necho \'{"continue": true}\'' },
              ],
            },
          ],
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(root, '.claude', 'agents', 'a.md'),
    '---\nname: a\ndescription: An agent.\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: $CLAUDE_PROJECT_DIR/.claude/hooks/ok.sh\n        - type: command\n          command: "cd $CLAUDE_PROJECT_DIR && make"\n---\nBody.\n',
  );
  return root;
}

async function run(root: string, ...args: string[]) {
  const io = memoryIO({ cwd: root, env: { NO_COLOR: '1' } });
  const code = await main(['--all', '--no-shellcheck', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('--fix and --cache on Claude Code sources', () => {
  it('--fix writes safe fixes into JSON strings escaped, and YAML only where the quoting allows', async () => {
    const root = project();
    await run(root, '--fix');
    const settings = readFileSync(join(root, '.claude', 'settings.json'), 'utf8');
    const handlers = JSON.parse(settings).hooks.PreToolUse[0].hooks;
    expect(handlers.map((h: { type: string; command: string }) => [h.type, h.command])).toEqual([
      ['command', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/ok.sh'],
      ['command', 'echo "checking" >&2\necho \'{"continue": true}\''],
    ]);
    const agent = readFileSync(join(root, '.claude', 'agents', 'a.md'), 'utf8');
    // A plain scalar cannot start with a quote (it would become a quoted scalar): left for the user.
    expect(agent).toContain('command: $CLAUDE_PROJECT_DIR/.claude/hooks/ok.sh\n');
    // In a double-quoted scalar the quotes are escaped.
    expect(agent).toContain('command: "cd \\"$CLAUDE_PROJECT_DIR\\" && make"');
    const after = await run(root, '-f', 'json');
    const remaining = JSON.parse(after.out).flatMap((r: { messages: { ruleId: string }[] }) => r.messages.map((m) => m.ruleId));
    expect(remaining).toEqual(['cc-path-unquoted']);
  });

  it('--cache gives the same findings for JSON settings and script files on a second run', async () => {
    const root = project();
    writeFileSync(join(root, '.claude', 'hooks', 'ok.sh'), '#!/bin/bash\nif true; then exit 1; fi\n');
    const first = await run(root, '--cache', '--cache-location', join(root, 'cache'), '-f', 'json');
    const second = await run(root, '--cache', '--cache-location', join(root, 'cache'), '-f', 'json');
    expect(second.out).toBe(first.out);
    expect(first.out).toContain('cc-exit-not-blocking');
    expect(first.out).toContain('cc-handler-type-unknown');
  });

  it('--cache lints a script file again when the events of the hooks that run it change, though its text did not', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vah-cc-'));
    mkdirSync(join(root, '.claude', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.claude', 'hooks', 'guard.sh'), '#!/bin/bash\nif true; then exit 1; fi\n');
    const runBy = (event: string): void =>
      writeFileSync(
        join(root, '.claude', 'settings.json'),
        JSON.stringify({ hooks: { [event]: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }] }] } }),
      );
    const scriptFindings = async (...args: string[]): Promise<string[]> =>
      JSON.parse((await run(root, '-f', 'json', ...args)).out)
        .filter((r: { filePath: string }) => r.filePath.endsWith('guard.sh'))
        .flatMap((r: { messages: { ruleId: string; message: string }[] }) => r.messages.map((m) => `${m.ruleId}: ${m.message}`));
    const cached = ['--cache', '--cache-location', join(root, 'cache')];
    runBy('PreToolUse');
    const before = await scriptFindings(...cached);
    expect(before.join('\n')).toContain('cc-exit-not-blocking: Unexpected `exit 1` in a `PreToolUse` hook');
    // Now a Stop hook runs it: the same text, judged by another event's contract.
    runBy('Stop');
    const uncached = await scriptFindings();
    expect(uncached.join('\n')).toContain('in a `Stop` hook');
    expect(await scriptFindings(...cached)).toEqual(uncached);
  });

  it('--cache lints a script file again when the hooks that run it start feeding it something else on stdin', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vah-cc-'));
    mkdirSync(join(root, '.claude', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.claude', 'hooks', 'guard.sh'), "#!/bin/bash\njq -r '.toolName'\n");
    const runAs = (command: string): void =>
      writeFileSync(
        join(root, '.claude', 'settings.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command }] }] } }),
      );
    const fieldFindings = async (...args: string[]): Promise<number> =>
      JSON.parse((await run(root, '-f', 'json', ...args)).out)
        .filter((r: { filePath: string }) => r.filePath.endsWith('guard.sh'))
        .flatMap((r: { messages: { ruleId: string }[] }) => r.messages.filter((m) => m.ruleId === 'cc-input-field-unknown')).length;
    const cached = ['--cache', '--cache-location', join(root, 'cache')];
    runAs('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh');
    expect(await fieldFindings(...cached)).toBe(1);
    runAs('jq -c .tool_input | "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh');
    expect(await fieldFindings()).toBe(0);
    expect(await fieldFindings(...cached)).toBe(0);
  });
});
