import rule from '../../rules/process-control/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    'sleep 1 &\nkill $!',
    'kill -TERM "$PID"',
    'kill -9 "$WORKER_PID"',
    'pkill -P $$',
    "bash -c 'pkill -P $$'",
    'kill -l',
    '# pkill -f node would hit other agents\necho ok',
    'echo "killall is not used"',
  ],
  reject: [
    {
      name: 'pkill -f',
      code: 'pkill -f "claude-flow"',
      errors: [{ messageId: 'byName', severity: 'warning', line: 1, column: 1, endColumn: 23, message: /`pkill -f`/ }],
    },
    { name: 'killall', code: 'killall node || true', errors: [{ messageId: 'byName', line: 1, column: 1, endColumn: 13 }] },
    {
      name: 'pkill inside bash -c',
      code: "bash -c 'pkill -f node'",
      errors: [{ messageId: 'byName', line: 1, column: 10, endColumn: 23 }],
    },
    { name: 'kill -1 inside eval', code: "eval 'kill -9 -1'", errors: [{ messageId: 'everyProcess', line: 1, column: 7, endColumn: 17 }] },
    {
      name: 'kill of pgrep output inside sh -c, read in the hook and once',
      code: 'sh -c "kill $(pgrep -f worker)"',
      errors: [{ messageId: 'foundPids', line: 1, column: 8, endColumn: 31 }],
    },
    {
      name: 'kill -1',
      code: 'kill -1',
      errors: [{ messageId: 'everyProcess', line: 1, column: 1, endColumn: 8, message: /every process/ }],
    },
    { name: 'kill -9 -1', code: 'kill -9 -1', errors: [{ messageId: 'everyProcess', line: 1, column: 1, endColumn: 11 }] },
    { name: 'kill 0', code: 'kill 0', errors: [{ messageId: 'everyProcess', line: 1, column: 1, message: /process group/ }] },
    { name: 'kill a process group', code: 'kill -- -4242', errors: [{ messageId: 'everyProcess', line: 1, column: 1 }] },
    {
      name: 'kill of pgrep output',
      code: 'kill $(pgrep -f worker)',
      errors: [{ messageId: 'foundPids', line: 1, column: 1, endColumn: 24 }],
    },
    {
      name: 'after the tree-sitter misparse of a 3-stage pipeline',
      code: 'a | b | c\nkillall node && y',
      errors: [{ line: 2, column: 1, endColumn: 13 }],
    },
    {
      name: 'pgrep | xargs kill',
      code: 'pgrep node | xargs kill -9',
      errors: [{ messageId: 'foundPids', line: 1, column: 14, endColumn: 27 }],
    },
  ],
});
