import { describe, expect, it } from 'vitest';
import { profileFromText } from '../../src/profile/profile.js';
import { configScripts } from '../../src/runtimes/claude-code/config.js';
import { claudeCodeConfig } from '../../src/runtimes/claude-code/read.js';
import { scriptReferences } from '../../src/runtimes/claude-code/scripts.js';

function references(command: string, extra: Record<string, unknown> = {}, path = '/p/.claude/settings.json') {
  const json = JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command, ...extra }] }] } });
  const [hook] = configScripts(claudeCodeConfig(profileFromText(path, json), { exists: () => false }));
  return scriptReferences(hook!).map((r) => [r.written, r.path, r.interpreter ?? '']);
}

describe('the scripts a hook command runs', () => {
  it('resolves project-relative paths, $CLAUDE_PROJECT_DIR in its spellings, and interpreters', () => {
    expect(references('./.claude/hooks/a.sh')).toEqual([['./.claude/hooks/a.sh', '/p/.claude/hooks/a.sh', '']]);
    expect(references('"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh --flag')[0]![1]).toBe('/p/.claude/hooks/a.sh');
    expect(references('${CLAUDE_PROJECT_DIR}/h/b.sh && echo done')[0]![1]).toBe('/p/h/b.sh');
    expect(references('python3 -u .claude/hooks/c.py')).toEqual([['.claude/hooks/c.py', '/p/.claude/hooks/c.py', 'python3']]);
    expect(references('uv run --with rich .claude/hooks/d.py --log')).toEqual([['.claude/hooks/d.py', '/p/.claude/hooks/d.py', 'uv']]);
    expect(references('FOO=1 bash scripts/e.sh | tee x')[0]![1]).toBe('/p/scripts/e.sh');
    expect(references('bash "./.claude/hooks/\\"q\\".sh"')).toEqual([['"./.claude/hooks/\\"q\\".sh"', '/p/.claude/hooks/"q".sh', 'bash']]);
  });

  it('leaves alone what depends on the machine or runs no file', () => {
    expect(references('npx prettier --write x')).toEqual([]);
    expect(references('/usr/local/bin/guard.sh')).toEqual([]);
    expect(references('~/.claude/hooks/a.sh')).toEqual([]);
    expect(references('$HOME/.claude/hooks/a.sh')).toEqual([]);
    expect(references('bash -c "./x.sh"')).toEqual([]);
    expect(references('python3 -m mypkg.hook')).toEqual([]);
    expect(references('./../outside.sh')).toEqual([]);
    // A backslashed quote does not close a double-quoted word: the jq filter is one argument.
    expect(references('jq -e ".tool_input.command | test(\\"rm\\") | not" >/dev/null')).toEqual([]);
    // ${CLAUDE_PLUGIN_ROOT} outside a plugin has no root to resolve against.
    expect(references('${CLAUDE_PLUGIN_ROOT}/x.sh')).toEqual([]);
  });

  it("plugin hooks resolve ${CLAUDE_PLUGIN_ROOT}; exec form checks the executable or the interpreter's script", () => {
    expect(references('"${CLAUDE_PLUGIN_ROOT}"/s/g.sh', {}, '/plug/hooks/hooks.json')[0]![1]).toBe('/plug/s/g.sh');
    expect(references('node', { args: ['${CLAUDE_PLUGIN_ROOT}/s/a.js', '--x'] }, '/plug/hooks/hooks.json')[0]![1]).toBe('/plug/s/a.js');
    expect(references('./bin/tool', { args: ['./not-a-script'] })).toEqual([['./bin/tool', '/p/bin/tool', '']]);
  });

  it('reads a carriage return, a no-break space or a line separator as part of a word, as bash does', () => {
    // A CRLF command runs `guard.sh\r`, which does not exist: the classic failure, reported as a missing script.
    expect(references('./.claude/hooks/guard.sh\r\n')).toEqual([['./.claude/hooks/guard.sh\r', '/p/.claude/hooks/guard.sh\r', '']]);
    for (const space of ['\u00a0', '\u2028', '\v', '\f', '\ufeff']) {
      expect(references(`echo a${space}b && ./x.sh`)).toEqual([['./x.sh', '/p/x.sh', '']]);
    }
  });
});
