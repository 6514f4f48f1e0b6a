// `read` takes the hook's stdin JSON only when nothing else is its input. The grammar puts a here-string on
// the command itself, not on a redirected statement, so `read -r a b <<< "$x"` was taken to read stdin:
// technicalpickles' actually-lsp session-start.sh splits a tab-separated line of its own that way and was told
// `$probe_args` held text from the hook's stdin.
import rule from '../../rules/cc-stdin-untrusted/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** A Claude Code subagent whose SessionStart handler runs `lines` (the first on line 9, from column 13). */
function agent(lines: string[]): string {
  return [
    '---',
    'name: lsp',
    'description: Starts a language server.',
    'hooks:',
    '  SessionStart:',
    '    - hooks:',
    '        - type: command',
    '          command: |',
    ...lines.map((line) => `            ${line}`),
    '---',
    'Body.',
    '',
  ].join('\n');
}

ruleTester(rule, {
  accept: [
    {
      name: 'read from a here-string of the script’s own text',
      profile: agent(["line=$(printf 'a\\tb\\t--x')", 'IFS=$\'\\t\' read -r lang sample args <<< "$line"', 'node probe.mjs $args']),
    },
    { name: 'read from a file', profile: agent(['read -r args < .probe', 'node probe.mjs $args']) },
  ],
  reject: [
    {
      name: 'read from the hook’s stdin',
      profile: agent(['read -r args', 'node probe.mjs $args']),
      errors: [{ messageId: 'unquoted', line: 10, column: 28, endColumn: 33 }],
    },
  ],
});
