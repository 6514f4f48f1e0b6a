import rule from '../../rules/process-control/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    // Recursion with a base case, one self-call at a time, or a bomb never called.
    'walk() { for d in "$1"/*/; do [ -d "$d" ] && walk "$d" & done; wait; }\nwalk .',
    'retry() { try_once || { sleep 1; retry; }; }\nretry',
    'chain() { chain & }',
    'b() { b | b & }',
    'sleep 1 &\nkill $!',
    'kill -TERM "$PID"',
    'kill -9 "$WORKER_PID"',
    'pkill -P $$',
    "bash -c 'pkill -P $$'",
    'kill -l',
    '# pkill -f node would hit other agents\necho ok',
    'echo "killall is not used"',
    { name: 'a PID the hook kept', code: 'sleep 1 &\npid=$!\nkill "$pid"' },
    { name: 'a PID read from its own file', code: 'PID=$(cat /tmp/w.pid)\nkill "$PID"' },
    { name: 'fuser that only lists', code: 'fuser -v 3000/tcp' },
    { name: 'a finder that only checks', code: 'pgrep node >/dev/null && echo running' },
    { name: 'systemctl that only asks', code: 'systemctl is-active redis && systemctl status --no-pager redis' },
    { name: 'service status', code: 'service redis-server status' },
    { name: 'shutdown -c cancels', code: 'shutdown -c' },
    { name: 'a function of its own called shutdown', code: 'shutdown() { redis-cli publish bye 1; }\nshutdown' },
    { name: 'init of another runlevel', code: 'init 3' },
  ],
  reject: [
    {
      name: 'the classic fork bomb',
      code: ':(){ :|:& };:',
      errors: [{ messageId: 'forkBomb', severity: 'error', line: 1, column: 1, endColumn: 12, message: /`:` calls itself twice at once/ }],
    },
    {
      name: 'a named bomb over two lines',
      code: 'bomb() {\n  bomb &\n  bomb\n}\nbomb',
      errors: [{ messageId: 'forkBomb', line: 1, column: 1, endLine: 4, endColumn: 2 }],
    },
    // Stopping a service or the machine reaches every agent and user, as killing by name does.
    {
      name: 'systemctl stop',
      code: 'systemctl stop redis-server',
      errors: [{ messageId: 'service', line: 1, column: 1, endColumn: 28, message: /`systemctl stop`/ }],
    },
    { name: 'systemctl --user restart', code: 'systemctl --user restart x', errors: [{ messageId: 'service', line: 1, column: 1 }] },
    {
      name: 'service restart',
      code: 'service redis-server restart',
      errors: [{ messageId: 'service', line: 1, column: 1, message: /`service restart`/ }],
    },
    { name: 'reboot', code: 'reboot', errors: [{ messageId: 'machine', line: 1, column: 1, endColumn: 7 }] },
    {
      name: 'shutdown now inside bash -c',
      code: "bash -c 'shutdown -h now'",
      errors: [{ messageId: 'machine', line: 1, column: 10, endColumn: 25 }],
    },
    { name: 'systemctl poweroff', code: 'systemctl poweroff', errors: [{ messageId: 'machine', line: 1, column: 1 }] },
    { name: 'init 0', code: 'init 0', errors: [{ messageId: 'machine', line: 1, column: 1, message: /`init 0`/ }] },
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
    // PIDs a finder printed are as foreign in a variable as in the substitution itself.
    {
      name: 'kill of a variable pgrep filled',
      code: 'pids=$(pgrep node)\nkill $pids',
      errors: [{ messageId: 'foundPids', line: 2, column: 1, endColumn: 11 }],
    },
    {
      name: 'kill in a for loop over pgrep',
      code: 'for p in $(pgrep -f server); do kill -9 "$p"; done',
      errors: [{ messageId: 'foundPids', line: 1, column: 33, endColumn: 45 }],
    },
    {
      name: 'kill of what read takes from pgrep',
      code: 'pgrep node | while read -r p; do kill "$p"; done',
      errors: [{ messageId: 'foundPids', line: 1, column: 34, endColumn: 43 }],
    },
    {
      name: 'xargs running kill by its path',
      code: 'pgrep node | xargs -r /bin/kill -9',
      errors: [{ messageId: 'foundPids', line: 1, column: 14 }],
    },
    { name: 'fuser -k', code: 'fuser -k 3000/tcp', errors: [{ messageId: 'fuserKill', line: 1, column: 1, endColumn: 18 }] },
    {
      name: 'pkill inside bash -c, at its place',
      code: "bash -c 'pkill node'",
      errors: [{ messageId: 'byName', line: 1, column: 10, endColumn: 20 }],
    },
    {
      name: 'pgrep | xargs kill',
      code: 'pgrep node | xargs kill -9',
      errors: [{ messageId: 'foundPids', line: 1, column: 14, endColumn: 27 }],
    },
  ],
});
