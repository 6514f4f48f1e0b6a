import { describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';

async function lint(filePath: string, text: string, extra: { calledBy?: string[] } = {}) {
  const [result] = await lintInputs([{ filePath, text, ...extra }], { rules, config: defaultConfig() });
  return result!.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId}`);
}

describe('suppressions in Claude Code sources', () => {
  it('a shell comment in a JSON command string disables the next line of that command only', async () => {
    const json = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: '# validate-agent-hooks-disable-next-line command-rm-rf -- own build dir\nrm -rf ./build; sudo ls',
              },
              { type: 'command', command: 'rm -rf ./x' },
            ],
          },
        ],
      },
    });
    const found = await lint('/p/.claude/settings.json', json);
    expect(found.map((f) => f.split(' ')[1])).toEqual(['command-sudo', 'command-rm-rf']);
    expect(found[1]).toBe(`1:${json.indexOf('rm -rf ./x') + 1} command-rm-rf`);
  });

  it('an unused directive in a JSON string is reported', async () => {
    const json = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: '# validate-agent-hooks-disable command-sudo\necho ok' }] }] },
    });
    expect(await lint('/p/.claude/settings.json', json)).toEqual([`1:${json.indexOf('# validate') + 1} suppression-unused`]);
  });

  it('a directive in a script file that hooks run works as in any script', async () => {
    const script =
      '#!/bin/bash\n# validate-agent-hooks-disable-next-line cc-exit-not-blocking\n[ -n "$1" ] && exit 1\n[ -n "$2" ] && exit 3\nexit 0\n';
    expect(await lint('/p/.claude/hooks/g.sh', script, { calledBy: ['PreToolUse'] })).toEqual(['4:16 cc-exit-not-blocking']);
  });
});
