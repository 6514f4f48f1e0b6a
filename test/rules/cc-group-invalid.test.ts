import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';

const root = mkdtempSync(join(tmpdir(), 'cc-group-invalid-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The cc-group-invalid findings of a project whose settings are `settings`, as `line:column message`. */
async function findings(settings: string): Promise<string[]> {
  const dir = mkdtempSync(join(root, 'p-'));
  mkdirSync(join(dir, '.claude'));
  writeFileSync(join(dir, '.claude', 'settings.json'), settings);
  const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1' } });
  await main(['--all', '--no-shellcheck', '-f', 'json'], io);
  const [result] = JSON.parse(io.out()) as { messages: { ruleId: string; line: number; column: number; message: string }[] }[];
  return result!.messages.filter((m) => m.ruleId === 'cc-group-invalid').map((m) => `${m.line}:${m.column} ${m.message}`);
}

describe('cc-group-invalid: a matcher written under another key', () => {
  // dukocuk/budget's PostToolUse formatter: `"tools": ["Edit", "Write"]` beside `hooks`.
  it('is reported at the key, with the matcher it would be', async () => {
    const hooks = '"hooks": [{"type": "command", "command": "echo hi"}]';
    expect(await findings(`{"hooks": {"PostToolUse": [{"tools": ["Edit", "Write"], ${hooks}}]}}`)).toEqual([
      expect.stringMatching(
        /^1:29 Unexpected `tools` on matcher group 0 of `PostToolUse`: .*\(`"matcher": "Edit\|Write"`\), so this group has no matcher/,
      ),
    ]);
    expect(await findings(`{"hooks": {"PreToolUse": [{"tool_name": "Bash", ${hooks}}]}}`)).toEqual([
      expect.stringContaining('(`"matcher": "Bash"`)'),
    ]);
    // Beside a matcher, or where the matcher does not pick tools, it is a key of the project's own.
    expect(await findings(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "tools": ["Bash"], ${hooks}}]}}`)).toEqual([]);
    expect(await findings(`{"hooks": {"SessionStart": [{"pattern": "startup", ${hooks}}]}}`)).toEqual([]);
  });
});
