// A plugin's manifest may name its hooks file anywhere (`"hooks": "./hooks.json"`): laurigates/claude-plugins
// keeps it at each plugin's root. Read as a project's settings, its `${CLAUDE_PLUGIN_ROOT}` was "set only for
// plugin hooks, so it is empty here" (33 warnings there) and the scripts it runs were never resolved or linted.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';

const root = mkdtempSync(join(tmpdir(), 'plugin-hooks-path-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a hooks file the plugin manifest names outside hooks/', () => {
  it("is the plugin's: ${CLAUDE_PLUGIN_ROOT} is set, and the scripts it runs are found and linted", async () => {
    mkdirSync(join(root, '.claude-plugin'));
    mkdirSync(join(root, 'scripts'));
    writeFileSync(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'p', hooks: './hooks.json' }));
    const command = (script: string) => ({ type: 'command', command: `bash "\${CLAUDE_PLUGIN_ROOT}/scripts/${script}"` });
    writeFileSync(
      join(root, 'hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [command('guard.sh'), command('missing.sh')] }] } }, null, 2),
    );
    writeFileSync(join(root, 'scripts', 'guard.sh'), '#!/bin/bash\ngrep -q rm && exit 1\nexit 0\n');
    const io = memoryIO({ cwd: root, env: { NO_COLOR: '1' } });
    await main(['--all', '--no-shellcheck', '-f', 'json'], io);
    const results = JSON.parse(io.out()) as { filePath: string; messages: { ruleId: string }[] }[];
    const byFile = Object.fromEntries(results.map((r) => [r.filePath.slice(root.length + 1), r.messages.map((m) => m.ruleId).sort()]));
    expect(byFile).toEqual({
      '.claude-plugin/plugin.json': [],
      'hooks.json': ['cc-script-missing'],
      'scripts/guard.sh': ['cc-exit-not-blocking'],
    });
  });
});
