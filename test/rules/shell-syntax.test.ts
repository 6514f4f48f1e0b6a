import rule from '../../rules/shell-syntax/index.js';
import { bashSyntax } from '../../src/shell/bash-check.js';
import { ruleTester } from '../helpers/rule-tester.js';

// What the syntax tree cannot read but bash runs: the rules do not see its commands, and the rule says so.
const bash = bashSyntax('true') !== undefined;
if (!bash) console.warn('shell-syntax.test.ts: bash is not on PATH; the cases that need `bash -n` are skipped.');

ruleTester(rule, {
  accept: ['echo ok', 'echo {a,b}', '{ echo a; echo b; }', 'x=${y:-1}'],
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
