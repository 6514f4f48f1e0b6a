import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import rule from '../../rules/cc-shell-bashism/index.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** A subagent's Claude Code hook whose command is `code` as a literal block: script line 1 is file line 9, column 1 is column 13. */
function agent(code: string, event = 'PreToolUse', fields = ''): string {
  const body = code
    .split('\n')
    .map((line) => `            ${line}`)
    .join('\n');
  return `---\nname: t\ndescription: d\nhooks:\n  ${event}:\n    - hooks:\n        - type: command\n${fields}          command: |\n${body}\n---\n`;
}
const at = (line: number, column: number, endColumn: number) => ({ line: line + 8, column: column + 12, endColumn: endColumn + 12 });

ruleTester(rule, {
  accept: [
    {
      name: 'POSIX tests, expansions and reads',
      profile: agent('x=$(cat)\n[ "${x#git }" = "$x" ] || exit 0\n. ./env.sh\necho "${x:-none}" "${#x}" "$((1 + 2))"\nprintf \'%s\\n\' ok'),
    },
    { name: 'bash run explicitly', profile: agent("bash -c '[[ -n $HOME ]] && echo ok'") },
    { name: 'exec form (no shell)', profile: agent('[[', 'PreToolUse', '          args: ["x"]\n') },
    { name: 'PowerShell', profile: agent('Get-Item . | Out-Null', 'PreToolUse', '          shell: powershell\n') },
    { name: 'a claude-flow hook (bash)', code: '[[ -n "$X" ]] && echo ok' },
    { name: 'echo -n, which dash has', profile: agent('echo -n ok') },
    {
      name: 'braces that are not expansions',
      profile: agent("find . -name x -exec rm {} +\njq '{a,b}' f\necho \"{a,b}\" {a}\nread -r line\nread -p -a x\nprintf '%s' -verbose"),
    },
  ],
  reject: [
    {
      name: '[[ ]] fails with 127, so the guard never blocks',
      profile: agent('cmd=$(jq -r .tool_input.command)\n[[ "$cmd" == *rm* ]] && exit 2'),
      errors: [{ ...at(2, 1, 21), severity: 'warning', message: /`\[\[ … \]\]`.*it fails with exit 127 whatever it tests/ }],
    },
    {
      name: 'a here-string on a blocking event: nothing runs, exit 2 blocks with dash’s error',
      profile: agent('grep -q sudo <<< "$cmd" && exit 2'),
      errors: [
        {
          ...at(1, 14, 17),
          message:
            /^Unexpected here-string `<<<`.*it is a syntax error, so none of the command runs and it exits 2; exit 2 on PreToolUse is a blocking error, with dash's error message as the reason\. Pipe instead/,
        },
      ],
    },
    {
      name: 'a syntax error on an event exit 2 does not block: no blocking clause',
      profile: agent('a=(1 2)', 'SessionStart'),
      errors: [{ ...at(1, 3, 8), message: /syntax error, so none of the command runs and it exits 2\. Use `set -- / }],
    },
    {
      name: 'bash-only expansions stop the command',
      profile: agent('echo "${x//a/b}" "${x:1:2}" "${x^^}" "${!x}" "${x,,}"'),
      errors: [
        { ...at(1, 7, 16), message: /`\$\{x\/\/a\/b\}`.*Bad substitution/ },
        { ...at(1, 19, 27) },
        { ...at(1, 30, 36) },
        { ...at(1, 39, 44) },
        { ...at(1, 47, 53) },
      ],
    },
    {
      // claude-code-showcase: `npm test … | tail -30` then `exit_code=${PIPESTATUS[0]}` in a PostToolUse command.
      name: 'array elements (PIPESTATUS) are a bad substitution',
      profile: agent('npm test | tail -30\ncode=${PIPESTATUS[0]}\necho "${#a[@]}" "$PIPESTATUS"', 'PostToolUse'),
      errors: [
        {
          ...at(2, 6, 22),
          message: /`\$\{PIPESTATUS\[0\]\}`.*Bad substitution", which stops the script with exit 2; exit 2 on PostToolUse/,
        },
        { ...at(3, 7, 15) },
      ],
    },
    {
      name: '== in [ ], set -o pipefail, echo -e, source',
      profile: agent('set -euo pipefail\n[ "$a" == b ] && exit 0\necho -e \'{"ok": true}\'\nsource x.sh'),
      errors: [
        { ...at(1, 10, 18), message: /`pipefail` is an illegal option/ },
        { ...at(2, 8, 10), message: /`==` in `\[ … \]`.*rejects `==`.*Use `=`\./ },
        { ...at(3, 6, 8), message: /prints `-e`/ },
        { ...at(4, 1, 7), message: /`source` is not a command.*Use `\.`/ },
      ],
    },
    {
      name: 'brace expansion, read -a, printf -v',
      profile: agent('mkdir -p out/{logs,tmp}\nfor i in {1..3}; do :; done\nread -ra parts\nprintf -v now %s x'),
      errors: [
        { ...at(1, 10, 24), message: /`out\/\{logs,tmp\}`.*no brace expansion/ },
        { ...at(2, 10, 16), message: /`\{1\.\.3\}`.*no brace expansion/ },
        { ...at(3, 6, 9), message: /`read -a`.*has no `-a`/ },
        { ...at(4, 8, 10), message: /`printf -v`.*has no `-v`/ },
      ],
    },
    {
      name: 'echo -e after -n, as a word of its own',
      profile: agent("echo -n -e 'a\\tb'"),
      errors: [{ ...at(1, 9, 11), message: /takes only `-n`: it prints `-e`/ }],
    },
    {
      name: "(( )), for (( )), +=, function, |&, &>, <( ), $'…'",
      profile: agent(
        "(( n > 1 )) && exit 2\nfor ((i=0; i<3; i++)); do :; done\nx+=1\nfunction f { :; }\necho a |& cat\necho b &> /dev/null\ndiff <(echo a) b\nprintf $'a\\tb'",
      ),
      errors: [
        { ...at(1, 1, 12), message: /`\(\( … \)\)`/ },
        { ...at(2, 1, 22), message: /`for \(\( … \)\)`/ },
        { ...at(3, 1, 5), message: /`\+=`/ },
        { ...at(4, 1, 9), message: /`function` keyword/ },
        { ...at(5, 8, 10), message: /`\|&`/ },
        { ...at(6, 8, 10), message: /`&>`.*runs in the background/ },
        { ...at(7, 6, 15), message: /process substitution/ },
        { ...at(8, 8, 15), message: /`\$'…'`/ },
      ],
    },
  ],
});

describe('cc-shell-bashism in a settings file: the position crosses the JSON string', () => {
  it('places [[ inside the command string', async () => {
    const text = JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x=\\"$(cat)\\"; [[ $x ]] && exit 2' }] }] },
    });
    const [result] = await lintInputs([{ filePath: '/v/p/.claude/settings.json', text }], { rules: [rule], config: defaultConfig() });
    const found = result!.diagnostics.filter((d) => d.ruleId === rule.id);
    expect(found).toHaveLength(1);
    expect(text.slice(found[0]!.column - 1, found[0]!.endColumn - 1)).toBe('[[ $x ]]');
  });
});

// What the messages say dash does, measured against the dash installed here (CI installs it with Debian).
const dash = spawnSync('dash', ['-c', 'exit 0']).status === 0;
describe.skipIf(!dash)(`dash does what the messages say${dash ? '' : ' [skipped: no dash]'}`, () => {
  const run = (script: string) => spawnSync('dash', ['-c', script], { encoding: 'utf8', cwd: tmpdir() });
  it.each([
    ['[[ a = a ]] && echo yes', 127, ''],
    ['grep -q x <<< x; echo after', 2, ''],
    ['a=(1 2); echo after', 2, ''],
    ['x=abc; echo before; echo ${x:0:1}; echo after', 2, 'before\n'],
    ['true | true; echo before; echo ${PIPESTATUS[0]}; echo after', 2, 'before\n'],
    ['set -o pipefail; echo after', 2, ''],
    ['source /dev/null', 127, ''],
    ['x+=1', 127, ''],
    ['(( 1 ))', 127, ''],
    ['read -ra x </dev/null; echo "rc=$?"', 0, 'rc=2\n'],
    ['printf -v x %s 1; echo "rc=$?"', 0, 'rc=2\n'],
    ['echo {1..3} x{a,b}y', 0, '{1..3} x{a,b}y\n'],
  ])('%s', (script, status, stdout) => {
    const result = run(script);
    expect(result.status).toBe(status);
    expect(result.stdout).toBe(stdout);
  });
  it("[ a == a ] is false, echo -e prints -e, $'\\t' keeps the $", () => {
    expect(run('[ a == a ] && echo yes || echo no').stdout).toBe('no\n');
    expect(run('echo -e x').stdout).toBe('-e x\n');
    expect(run('echo -n -e x').stdout).toBe('-e x');
    expect(run("printf '%s' $'a'").stdout).toBe('$a');
  });
});
