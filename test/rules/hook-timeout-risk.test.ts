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
    'sleep "$DELAY"',
    '# sleep 30 would be killed\necho ok',
    'echo "sleep 30"',
    'while true; do\n  redis-cli ping && break\n  sleep 1\ndone',
    'while :; do [ -f done ] && exit 0; sleep 1; done',
    'while read -r line; do echo "$line"; done < file',
    // Claude Code: the handler's timeout, else 600 s for PreToolUse.
    { name: 'Claude Code: sleep 30 of 600 s', profile: claudeCode('sleep 30') },
    { name: 'Claude Code: blpop 30 of 600 s', profile: claudeCode('redis-cli blpop q 30') },
    'redis-cli blpop queue 2',
    'timeout 3 redis-cli blpop queue 0',
    'redis-cli lpop queue',
    'redis-cli xread COUNT 1 STREAMS s 0',
  ],
  reject: [
    { name: 'sleep 30', code: 'sleep 30', errors: [{ messageId: 'sleep', severity: 'error', line: 1, column: 1, endColumn: 9 }] },
    { name: 'sleep 5', code: 'echo wait; sleep 5 && echo done', errors: [{ messageId: 'sleep', line: 1, column: 12, endColumn: 19 }] },
    { name: 'sleep 1m', code: 'sleep 1m', errors: [{ messageId: 'sleep', line: 1, column: 1, endColumn: 9 }] },
    {
      name: 'sleep 10s in a function',
      code: 'pause() {\n  sleep 10s\n}',
      errors: [{ messageId: 'sleep', line: 2, column: 3, endColumn: 12 }],
    },
    { name: 'sleep infinity', code: 'sleep infinity', errors: [{ messageId: 'sleep', line: 1, column: 1 }] },
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
