import rule from '../../rules/shell-syntax/index.js';
import { bashSyntax } from '../../src/shell/bash-check.js';
import { ruleTester } from '../helpers/rule-tester.js';

// What the syntax tree cannot read but bash runs: the rules do not see its commands, and the rule says so.
const bash = bashSyntax('true') !== undefined;
if (!bash) console.warn('shell-syntax.test.ts: bash is not on PATH; the cases that need `bash -n` are skipped.');

ruleTester(rule, {
  accept: [
    'echo ok',
    'echo {a,b}',
    '{ echo a; echo b; }',
    'x=${y:-1}',
    // Gaps of the grammar that the parser bridges (src/shell/parser.ts): an assignment whose redirections go to
    // /dev/null or a descriptor, and a substring expansion whose offset or length is a variable.
    'V=$(cat .version) 2>/dev/null || V=""\necho "$V"',
    'W=x 2>&1 >/dev/null && echo "$W"',
    'cmd=abc; i=1\nc="${cmd:$i}" d=${cmd:$i:$n} e="${arr[@]:$i:1}" f="${1:$n}"\necho "$c$d$e$f"',
  ],
  reject: [
    {
      name: 'an if never closed',
      code: 'echo start\nif [ -n "$TASK" ]; then\n  echo "$TASK"',
      errors: [{ messageId: 'syntax', severity: 'error', line: 2, column: 1 }],
    },
    ...(bash
      ? [
          {
            name: 'a brace list as the command, alone on its line (bash runs `rm -rf x`)',
            code: 'echo a\n{rm,-rf,x}\necho b',
            errors: [
              { messageId: 'unread', severity: 'warning' as const, line: 2, column: 1, endColumn: 11, message: /from `\{rm,-rf,x\}`/ },
            ],
          },
          {
            // claude-code-templates' vercel-environment-sync: a `\'` inside '…' closes the quote early, and the grammar
            // marked the script's last character, 1,700 characters on; bash stops at the `then` after it.
            name: 'an unexpected token on a long line is found where bash meets it',
            code: "bash -c 'if [[ \"$v\" =~ ^[\\'].*$ ]]; then echo quoted; fi; echo done'",
            errors: [{ messageId: 'syntax', line: 1, column: 37, endColumn: 41, message: /near unexpected token `then'/ }],
          },
          {
            // Its write would be lost from the tree if the redirection were dropped: not bridged.
            name: 'an assignment redirected to a file, then a list',
            code: 'V=x >/tmp/f || echo no',
            errors: [{ messageId: 'unread', line: 1, column: 13 }],
          },
          {
            name: 'each gap, after a list operator too',
            code: 'n=${#OUT:-0}\ntrue && {rm,-rf} /tmp/x',
            errors: [
              { messageId: 'unread', line: 1, column: 3 },
              { messageId: 'unread', line: 2, column: 9, endColumn: 24 },
            ],
          },
        ]
      : []),
  ],
});
