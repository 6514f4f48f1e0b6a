import rule from '../../rules/hook-slow-command/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    'timeout 4 npm test',
    'npm test &',
    "timeout 4 bash -c 'npm test'",
    "bash -c 'npm test' &",
    'timeout 4 sh -c "bash -c \'npm test\'"',
    'nohup cargo test > /tmp/t.log 2>&1 &',
    'python -m pytest --version',
    'find . -maxdepth 2 -name "*.md"',
    'find ./src -name "*.ts"',
    'npx claude-flow@alpha a\nnpx claude-flow@alpha b',
    // Two starts, though the commands are read once for each value of the variables they are given.
    'if [ -n "$X" ]; then S=a; R=1; else S=b; R=2; fi\nnpx claude-flow@alpha x --s "$S" --r "$R"\nnpx claude-flow@alpha y --s "$S"',
    'curl --max-time 3 https://x',
    'curl -sm 3 https://x',
    'wget --timeout=3 https://x',
    'npm run lint',
    'mcp__claude-flow__neural_train --epochs=30',
    { name: 'the built-in table can be turned off', code: 'npm test', options: { builtinTable: false } },
  ],
  reject: [
    { name: 'inside bash -c', code: "bash -c 'cd app && npm test'", errors: [{ messageId: 'slow', line: 1, column: 20, endColumn: 28 }] },
    {
      name: 'npm test',
      code: 'npm test --if-present',
      errors: [{ messageId: 'slow', line: 1, column: 1, endColumn: 22, message: /a test suite .* stops the hook after 5 s/ }],
    },
    {
      name: 'npm run test:*',
      code: 'npm run test:api 2>/dev/null || echo none',
      errors: [{ messageId: 'slow', line: 1, column: 1, endColumn: 17 }],
    },
    {
      name: 'pytest and go test',
      code: 'python3 -m pytest -q\ngo test ./...',
      errors: [
        { line: 1, column: 1 },
        { line: 2, column: 1 },
      ],
    },
    {
      name: 'training',
      code: 'npx claude-flow@alpha neural train --epochs 50',
      errors: [{ messageId: 'slow', line: 1, column: 1, message: /model training/ }],
    },
    { name: 'a timeout above the budget does not bound it', code: 'timeout 60 cargo test', errors: [{ line: 1, column: 12 }] },
    {
      name: 'find over the workspace',
      code: 'find . -name "*.js" | head',
      errors: [{ messageId: 'find', line: 1, column: 1, endColumn: 20 }],
    },
    {
      name: 'three cold npx starts, reported once at the first',
      code: 'npx claude-flow@alpha a\nnpx claude-flow@alpha b\nnpx -y agentdb@1.2.3 c',
      errors: [{ messageId: 'npx', line: 1, column: 1, endColumn: 24, message: /3 cold .* about 6 s/ }],
    },
    {
      name: 'unbounded curl and wget',
      code: 'curl -s https://x\nwget -qO- https://y',
      errors: [
        { messageId: 'unbounded', line: 1, column: 1, message: /stops the hook after 5 s\. Add `--max-time 3` below the budget/ },
        { messageId: 'unbounded', line: 2, column: 1, message: /Add `--timeout=3`/ },
      ],
    },
    {
      // claude-code-templates' Slack and Discord notifications: a Stop hook with Claude Code's 600 s budget was told `--max-time 598`.
      name: 'unbounded curl in a Claude Code hook: a request-sized limit, not one just under 600 s',
      profile: [
        '---',
        'name: notify',
        'description: Notifies.',
        'hooks:',
        '  Stop:',
        '    - hooks:',
        '        - type: command',
        '          command: curl -s -X POST "$SLACK_WEBHOOK_URL" -d @msg.json',
        '---',
        '',
      ].join('\n'),
      errors: [
        { messageId: 'unbounded', line: 8, column: 20, message: /stops the hook after 600 s\. Add `--max-time 10` below the budget/ },
      ],
    },
    {
      name: 'a configured slow command',
      code: 'make e2e',
      options: { slowCommands: [{ command: 'make', args: ['e2e'], seconds: 120, what: 'end-to-end tests' }] },
      errors: [{ line: 1, column: 1, message: /end-to-end tests/ }],
    },
  ],
});
