import rule from '../../rules/hook-timeout-risk/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** Agent frontmatter with one Claude Code PreToolUse handler: the script starts on line 9 (10 with a `timeout`), column 21. */
function claudeCode(command: string, timeout?: number): string {
  const lines = ['---', 'name: gate', 'description: Waits for approval.', 'hooks:', '  PreToolUse:', '    - matcher: Bash', '      hooks:'];
  lines.push(
    '        - type: command',
    ...(timeout === undefined ? [] : [`          timeout: ${timeout}`]),
    `          command: '${command}'`,
  );
  return [...lines, '---', 'Body.', ''].join('\n');
}

ruleTester(rule, {
  accept: [
    'sleep 1',
    'sleep 4.5',
    'sleep 0.5s',
    'sleep 1e-3',
    'sleep "$DELAY"',
    '# sleep 30 would be killed\necho ok',
    'echo "sleep 30"',
    'while true; do\n  redis-cli ping && break\n  echo waiting\ndone',
    'while read -r line; do echo "$line"; done < file',
    'tail -n 50 ./log',
    'ping -c 1 -W 1 localhost',
    'yes | head -n 3',
    'watch -g ls ./out &',
    'tail -f ./log &',
    'tail -f --pid=$$ ./log',
    'inotifywait -e close_write ./out.json',
    'inotifywait -m -t 3 ./out',
    'inotifywait -m ./out &',
    'fswatch -1 ./src',
    'journalctl -n 20 --no-pager',
    'dmesg | tail -n 5',
    "python3 -c 'import time; time.sleep(0.5); print(1)'",
    "node -e 'setTimeout(() => process.exit(0), 200)'",
    "perl -e 'print qq(sleep 30)' > /dev/null",
    'while [ "$x" ]; do x=; done',
    'for ((i = 0; ; i++)); do [ $i -gt 3 ] && break; done',
    { name: 'a variable the script computes', code: 'D=$(cat delay)\nsleep $D' },
    // Polling loops that end in time, or that the hook does not wait for.
    { name: '3 tries × sleep 1', code: 'for attempt in 1 2 3; do\n  redis-cli get gate | grep -q true && break\n  sleep 1\ndone' },
    { name: '{1..4} × sleep 1', code: 'for i in {1..4}; do x; sleep 1; done' },
    { name: 'seq 1 9 × sleep 0.5', code: 'for i in $(seq 1 9); do x; sleep 0.5; done' },
    { name: 'c-style, 10 × sleep 0.2', code: 'for ((i = 0; i < 10; i++)); do x && break; sleep 0.2; done' },
    { name: 'counter in the condition, 3 × sleep 1', code: 'n=0\nwhile [ $n -lt 3 ]; do\n  n=$((n + 1))\n  sleep 1\ndone' },
    { name: '(( n < 4 )) with ((n++))', code: 'n=0; until x || (( n >= 4 )); do ((n++)); sleep 1; done' },
    {
      name: 'tries counted in the body, exit after 4',
      code: 'tries=0\nuntil redis-cli ping; do\n  tries=$((tries + 1))\n  [ "$tries" -ge 4 ] && exit 1\n  sleep 1\ndone',
    },
    { name: 'limit in a variable', code: 'max=4; n=0\nwhile [ "$n" -lt "$max" ]; do let n++; x && break; sleep 1; done' },
    { name: 'elapsed check on SECONDS below the budget', code: 'until [ -f ready ]; do\n  [ $SECONDS -ge 4 ] && break\n  sleep 1\ndone' },
    {
      name: 'elapsed check on date below the budget',
      code: 'start=$(date +%s)\nuntil [ -f ready ]; do\n  if [ $(( $(date +%s) - start )) -ge 4 ]; then exit 1; fi\n  sleep 1\ndone',
    },
    {
      name: 'a deadline below the budget',
      code: 'end=$(( $(date +%s) + 3 ))\nwhile [ "$(date +%s)" -lt "$end" ]; do x && break; sleep 1; done',
    },
    { name: 'an unknown limit', code: 'n=0; until x; do n=$((n+1)); [ $n -ge "$MAX_TRIES" ] && break; sleep 1; done' },
    { name: 'a computed sleep in a bounded loop', code: 'for i in 1 2 3 4 5 6; do x && break; sleep "$DELAY"; done' },
    { name: 'in the background', code: 'until [ -f ready ]; do sleep 1; done &\necho started' },
    { name: 'in a background subshell', code: '( while ! redis-cli ping; do sleep 2; done ) &' },
    { name: 'run by `timeout` below the budget', code: 'timeout 3 bash -c "until redis-cli ping; do sleep 1; done"' },
    { name: 'reading lines', code: 'while IFS= read -r line; do echo "$line"; sleep 1; done < queue.txt' },
    { name: 'piped into a read loop', code: 'redis-cli lrange q 0 -1 | while read -r item; do sleep 0.1; done' },
    { name: 'no sleep: not polling', code: 'until [ $# -eq 0 ]; do shift; done' },
    {
      name: 'the only sleep runs in a background job',
      code: 'until redis-cli ping; do\n  (sleep 2; echo late) &\n  redis-cli incr tries\ndone',
    },
    {
      name: 'a counter checked by `test` (bounded, limit not read)',
      code: 'n=0; until x; do n=$((n+1)); test $n -ge 30 && break; sleep 1; done',
    },
    { name: 'waiting for a job, as `wait` does', code: 'x & pid=$!\nwhile kill -0 "$pid" 2>/dev/null; do sleep 1; done' },
    { name: 'the sleep is in an inner loop (judged on its own)', code: 'for a in 1 2 3; do\n  for b in 1 2; do sleep 0.5; done\ndone' },
    // Claude Code: the handler's timeout, else 600 s for PreToolUse.
    { name: 'Claude Code: sleep 30 of 600 s', profile: claudeCode('sleep 30') },
    { name: 'Claude Code: blpop 30 of 600 s', profile: claudeCode('redis-cli blpop q 30') },
    {
      name: 'Claude Code: 20 × sleep 1 of a 30 s timeout',
      profile: claudeCode('for i in $(seq 1 20); do [ -f ok ] && exit 0; sleep 1; done; exit 2', 30),
    },
    'redis-cli blpop queue 2',
    'timeout 3 redis-cli blpop queue 0',
    'redis-cli lpop queue',
    'redis-cli xread COUNT 1 STREAMS s 0',
  ],
  reject: [
    // The same waits, spelt otherwise.
    { name: 'a sleep through a variable', code: 'D=10\nsleep $D', errors: [{ messageId: 'sleep', line: 2, column: 1, endColumn: 9 }] },
    {
      name: 'a sleep inside bash -c, at its place',
      code: "bash -c 'sleep 30'",
      errors: [{ messageId: 'sleep', line: 1, column: 10, endColumn: 18 }],
    },
    {
      name: 'ping without a count',
      code: 'ping localhost',
      errors: [{ messageId: 'endlessCommand', severity: 'error', line: 1, column: 1, endColumn: 15 }],
    },
    { name: 'yes on its own', code: 'yes > /dev/null', errors: [{ messageId: 'endlessCommand', line: 1, column: 1, endColumn: 4 }] },
    { name: 'watch', code: 'watch -n 1 ls', errors: [{ messageId: 'endlessCommand', line: 1, column: 1, endColumn: 14 }] },
    // An inline program's sleep holds the hook as `sleep` does.
    {
      name: 'python3 -c time.sleep',
      code: "python3 -c 'import time; time.sleep(30)'",
      errors: [{ messageId: 'sleep', severity: 'error', line: 1, column: 1, endColumn: 41 }],
    },
    {
      name: 'from time import sleep',
      code: 'python -c "from time import sleep\nsleep(10)"',
      errors: [{ messageId: 'sleep', line: 1, column: 1 }],
    },
    { name: 'perl sleep', code: "perl -e 'sleep 60'", errors: [{ messageId: 'sleep', line: 1, column: 1 }] },
    {
      name: 'node setTimeout of 10 s',
      code: "node -e 'setTimeout(() => {}, 10000)'",
      errors: [{ messageId: 'sleep', line: 1, column: 1 }],
    },
    {
      name: 'node -p setTimeout of 20 s',
      code: "node -p 'setTimeout(() => 1, 20000)'",
      errors: [{ messageId: 'sleep', line: 1, column: 1 }],
    },
    // Watchers and log followers do not end on their own.
    {
      name: 'inotifywait -m',
      code: 'inotifywait -mq -e create ./inbox | while read -r f; do echo "$f"; done',
      errors: [{ messageId: 'endlessCommand', line: 1, column: 1, endColumn: 34 }],
    },
    { name: 'fswatch', code: 'fswatch ./src', errors: [{ messageId: 'endlessCommand', line: 1, column: 1, endColumn: 14 }] },
    { name: 'journalctl -f', code: 'journalctl -u redis -f', errors: [{ messageId: 'endlessCommand', line: 1, column: 1 }] },
    { name: 'dmesg -w', code: 'dmesg -w', errors: [{ messageId: 'endlessCommand', line: 1, column: 1 }] },
    { name: 'tail -f', code: 'tail -f ./log', errors: [{ messageId: 'follow', severity: 'error', line: 1, column: 1, endColumn: 14 }] },
    { name: 'tail -F -n 0', code: 'tail -n 0 -F ./log | grep ERROR', errors: [{ messageId: 'follow', line: 1, column: 1, endColumn: 19 }] },
    { name: 'for ((;;))', code: 'for ((;;)); do echo x; done', errors: [{ messageId: 'endlessLoop', line: 1, column: 1, endColumn: 11 }] },
    {
      name: 'while [ 1 ]',
      code: 'while [ 1 ]; do echo x; done',
      errors: [{ messageId: 'endlessLoop', line: 1, column: 1, endColumn: 12 }],
    },
    {
      name: 'while /bin/true',
      code: 'while /bin/true; do echo x; done',
      errors: [{ messageId: 'endlessLoop', line: 1, column: 1, endColumn: 16 }],
    },
    { name: 'sleep 30', code: 'sleep 30', errors: [{ messageId: 'sleep', severity: 'error', line: 1, column: 1, endColumn: 9 }] },
    { name: 'sleep 5', code: 'echo wait; sleep 5 && echo done', errors: [{ messageId: 'sleep', line: 1, column: 12, endColumn: 19 }] },
    { name: 'sleep 1m', code: 'sleep 1m', errors: [{ messageId: 'sleep', line: 1, column: 1, endColumn: 9 }] },
    {
      name: 'sleep 1e3 (GNU sleep reads a floating-point number)',
      code: 'sleep 1e3',
      errors: [{ messageId: 'sleep', line: 1, column: 1, endColumn: 10 }],
    },
    { name: 'sleep INF', code: 'sleep INF', errors: [{ messageId: 'sleep', line: 1, column: 1, endColumn: 10 }] },
    {
      name: "sleep in a container: its time is the hook's",
      code: 'docker run --rm alpine sleep 30',
      errors: [{ line: 1, column: 24, endColumn: 32 }],
    },
    {
      name: 'sleep 10s in a function',
      code: 'pause() {\n  sleep 10s\n}',
      errors: [{ messageId: 'sleep', line: 2, column: 3, endColumn: 12 }],
    },
    { name: 'sleep infinity', code: 'sleep infinity', errors: [{ messageId: 'sleep', line: 1, column: 1 }] },
    {
      name: 'an endless loop in a background job outlives the hook (a warning, not a timeout)',
      code: 'while true; do redis-cli ping; sleep 1; done &\necho started',
      errors: [
        {
          messageId: 'endlessBackground',
          severity: 'warning',
          line: 1,
          column: 1,
          endColumn: 11,
          message: /keeps running after the hook ends/,
        },
      ],
    },
    {
      name: 'while true without break',
      code: 'while true; do\n  echo tick\n  sleep 1\ndone',
      errors: [{ messageId: 'endlessLoop', severity: 'error', line: 1, column: 1, endColumn: 11 }],
    },
    {
      name: 'while :',
      code: 'while :\ndo\n  redis-cli ping\ndone',
      errors: [{ messageId: 'endlessLoop', line: 1, column: 1, endColumn: 8 }],
    },
    {
      name: 'until false',
      code: 'until false; do echo x; done',
      errors: [{ messageId: 'endlessLoop', line: 1, column: 1, endColumn: 12 }],
    },
    {
      name: 'until a command succeeds, no bound',
      code: 'until redis-cli get "swarm:${SWARM_ID}:gate"; do\n  sleep 1\ndone',
      errors: [
        {
          messageId: 'pollingLoop',
          severity: 'warning',
          line: 1,
          column: 1,
          endColumn: 6,
          message:
            'Unexpected polling `until` loop with no bound (no counter, elapsed-time check or `timeout` ends it; it sleeps with `sleep 1`): if what it waits for never comes, it runs until the runtime kills the hook after 5 s, and the rest of the script never runs. Give up after tries that fit in 5 s.',
        },
      ],
    },
    {
      name: 'while ! test, no bound',
      code: 'echo wait\nwhile ! [ -f "$FLAG" ]; do sleep 2; done',
      errors: [{ messageId: 'pollingLoop', line: 2, column: 1, endColumn: 6, message: /`sleep 2`/ }],
    },
    {
      name: 'while true with a break on the awaited thing only',
      code: 'while true; do\n  redis-cli ping && break\n  sleep 1\ndone',
      errors: [{ messageId: 'pollingLoop', severity: 'warning', line: 1, column: 1, endColumn: 6 }],
    },
    {
      name: 'while : with an exit on the awaited thing only',
      code: 'while :; do [ -f done ] && exit 0; sleep 1; done',
      errors: [{ messageId: 'pollingLoop', line: 1, column: 1, endColumn: 6 }],
    },
    {
      name: 'a status read each time, no counter',
      code: 'status=pending\nwhile [ "$status" != done ]; do\n  status=$(redis-cli get s)\n  sleep 1\ndone',
      errors: [{ messageId: 'pollingLoop', line: 2, column: 1, endColumn: 6 }],
    },
    {
      name: 'sleep as the condition',
      code: 'while sleep 1; do x && break; done',
      errors: [{ messageId: 'pollingLoop', line: 1, column: 1, endColumn: 6 }],
    },
    {
      name: 'a computed sleep does not bound the loop',
      code: 'until x; do sleep "$DELAY"; done',
      errors: [{ messageId: 'pollingLoop', line: 1, column: 1, endColumn: 6, message: /`sleep "\$DELAY"`/ }],
    },
    {
      name: 'c-style for without a condition',
      code: 'for ((i = 0; ; i++)); do x && break; sleep 1; done',
      errors: [{ messageId: 'pollingLoop', line: 1, column: 1, endColumn: 4 }],
    },
    {
      name: 'in a function',
      code: 'wait_gate() {\n  until [ -f gate ]; do sleep 1; done\n}\nwait_gate',
      errors: [{ messageId: 'pollingLoop', line: 2, column: 3, endColumn: 8 }],
    },
    {
      name: 'seq 1 30 × sleep 1, no way out: always 30 s',
      code: 'for i in $(seq 1 30); do\n  redis-cli get k\n  sleep 1\ndone',
      errors: [
        {
          messageId: 'longPollingLoop',
          severity: 'error',
          line: 1,
          column: 1,
          endColumn: 4,
          message:
            'Unexpected polling `for` loop that can wait 30 s (30 × `sleep 1`): the runtime kills the hook after 5 s, so the rest of the script never runs. Keep its waiting below 5 s.',
        },
      ],
    },
    {
      name: 'for … in with a break: up to 6 s',
      code: 'for i in 1 2 3 4 5 6; do\n  if x; then break; fi\n  sleep 1\ndone',
      errors: [
        { messageId: 'longPollingLoop', severity: 'warning', line: 1, column: 1, endColumn: 4, message: /can wait 6 s \(6 × `sleep 1`\)/ },
      ],
    },
    {
      name: '{1..10} × sleep 0.5 reaches the 5 s',
      code: 'for i in {1..10}; do x; sleep 0.5; done',
      errors: [{ messageId: 'longPollingLoop', severity: 'error', line: 1, column: 1, message: /can wait 5 s/ }],
    },
    {
      name: 'c-style for, 20 × sleep 1',
      code: 'for ((i=0;i<20;i++)); do\n  x && break\n  sleep 1\ndone',
      errors: [{ messageId: 'longPollingLoop', severity: 'warning', line: 1, column: 1, endColumn: 4, message: /20 × `sleep 1`/ }],
    },
    {
      name: 'while [ $n -lt 10 ] with n=$((n+1))',
      code: 'n=0\nwhile [ $n -lt 10 ]; do\n  n=$((n+1))\n  sleep 1\ndone',
      errors: [
        { messageId: 'longPollingLoop', severity: 'error', line: 2, column: 1, endColumn: 6, message: /can wait 10 s \(10 × `sleep 1`\)/ },
      ],
    },
    {
      name: 'two sleeps a try',
      code: 'n=0\nuntil (( n >= 3 )); do ((n++)); sleep 1; x; sleep 1; done',
      errors: [{ messageId: 'longPollingLoop', line: 2, column: 1, endColumn: 6, message: /can wait 6 s \(3 × 2 s of sleep\)/ }],
    },
    {
      name: 'tries counted in the body, exit after 10 (the 10th try exits before its sleep)',
      code: 'tries=0\nuntil redis-cli ping; do\n  tries=$((tries + 1))\n  [ "$tries" -ge 10 ] && exit 1\n  sleep 1\ndone',
      errors: [
        { messageId: 'longPollingLoop', severity: 'warning', line: 2, column: 1, endColumn: 6, message: /can wait 9 s \(9 × `sleep 1`\)/ },
      ],
    },
    {
      name: 'an elif gives up after 30 tries',
      code: 'n=0\nuntil false; do\n  if redis-cli get y; then break\n  elif [ $n -ge 30 ]; then exit 1; fi\n  let n+=1\n  sleep 1\ndone',
      errors: [{ messageId: 'longPollingLoop', line: 2, column: 1, endColumn: 6, message: /can wait 30 s/ }],
    },
    {
      name: 'an elapsed limit of 30 s on SECONDS',
      code: 'until [ -f ready ] || [ $SECONDS -ge 30 ]; do sleep 1; done',
      errors: [
        {
          messageId: 'longPollingLoop',
          severity: 'warning',
          line: 1,
          column: 1,
          message: /can wait 30 s \(it gives up once 30 s have passed\)/,
        },
      ],
    },
    {
      name: 'a deadline 40 s away',
      code: 'deadline=$(( $(date +%s) + 40 ))\nwhile [ $(date +%s) -lt $deadline ]; do\n  x && break\n  sleep 1\ndone',
      errors: [{ messageId: 'longPollingLoop', line: 2, column: 1, endColumn: 6, message: /40 s have passed/ }],
    },
    {
      name: 'a poll with a long sleep is reported once, at the sleep',
      code: 'until [ -f ready ]; do sleep 10; done',
      errors: [{ messageId: 'sleep', line: 1, column: 24, endColumn: 32 }],
    },
    {
      name: 'endless while true is reported once, as endless',
      code: 'while true; do x; sleep 1; done',
      errors: [{ messageId: 'endlessLoop', line: 1, column: 1, endColumn: 11 }],
    },
    {
      name: 'Claude Code: an approval poll with no bound runs into the 600 s default (and PreToolUse then fails open)',
      profile: claudeCode('until [ -f /tmp/approved ]; do sleep 2; done'),
      errors: [
        { messageId: 'pollingLoop', severity: 'warning', line: 9, column: 21, endColumn: 26, message: /kills the hook after 600 s/ },
      ],
    },
    {
      name: "Claude Code: 20 × sleep 1 against the handler's 10 s timeout",
      profile: claudeCode('for i in $(seq 1 20); do [ -f ok ] && exit 0; sleep 1; done; exit 2', 10),
      errors: [
        {
          messageId: 'longPollingLoop',
          line: 10,
          column: 21,
          endColumn: 24,
          message: /can wait 20 s \(20 × `sleep 1`\): the runtime kills the hook after 10 s/,
        },
      ],
    },
    {
      name: "Claude Code: a sleep as long as the handler's timeout",
      profile: claudeCode('sleep 10', 10),
      errors: [{ messageId: 'sleep', line: 10, column: 21, endColumn: 29, message: /after 10 s/ }],
    },
    {
      name: 'Claude Code: an endless loop runs into the 600 s default',
      profile: claudeCode('while true; do date; sleep 1; done'),
      errors: [{ messageId: 'endlessLoop', line: 9, column: 21, endColumn: 31, message: /after 600 s/ }],
    },
    {
      name: 'after the tree-sitter misparse of a 3-stage pipeline',
      code: 'a | b | c\nsleep 30 && y',
      errors: [{ messageId: 'sleep', line: 2, column: 1, endColumn: 9 }],
    },
    {
      name: 'blpop 0',
      code: 'redis-cli blpop "swarm:${SWARM_ID}:signal" 0',
      errors: [{ messageId: 'blockingWait', severity: 'warning', line: 1, column: 1, endColumn: 45, message: /block forever/ }],
    },
    {
      name: 'BRPOP 30',
      code: 'redis-cli -h localhost BRPOP q 30',
      errors: [{ messageId: 'blockingWait', line: 1, column: 1, message: /for 30 s/ }],
    },
    { name: 'subscribe', code: 'redis-cli subscribe events', errors: [{ messageId: 'blockingWait', line: 1, column: 1 }] },
    { name: 'xread block 0', code: 'redis-cli XREAD BLOCK 0 STREAMS s $', errors: [{ messageId: 'blockingWait', line: 1, column: 1 }] },
    {
      name: 'timeout longer than the hook',
      code: 'timeout 30 redis-cli blpop q 0',
      errors: [{ messageId: 'blockingWait', line: 1, column: 12 }],
    },
  ],
});
