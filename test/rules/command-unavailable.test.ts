import rule from '../../rules/command-unavailable/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

const twoHooks =
  '---\nname: t\ndescription: d\nhooks:\n  pre: |\n    helper_fn() { echo hi; }\n    helper_fn\n  post: |\n    helper_fn\n---\n';

ruleTester(rule, {
  accept: [
    'memory_store() { echo "$1"; }\nmemory_store key',
    'lsb_release -a',
    'command -v mcp__claude-flow__swarm_init >/dev/null || echo "not a program"',
    'source ./helpers.sh\nmemory_store key value',
    'echo "mcp__claude-flow__swarm_init is a tool"',
    'npx claude-flow@alpha hooks pre-task',
    { name: 'allowedCommands silences a name', code: 'memory_store key', options: { allowedCommands: ['memory_store'] } },
  ],
  reject: [
    {
      name: 'an MCP tool name run as a command (error)',
      code: 'echo start\nmcp__claude-flow__swarm_init mesh --maxAgents=12',
      errors: [{ messageId: 'mcpTool', severity: 'error', line: 2, column: 1, endColumn: 29 }],
    },
    {
      name: 'an MCP tool inside $(…) and a pipeline',
      code: 'X=$(mcp__claude-flow__swarm_status | jq -r .topology)',
      errors: [{ messageId: 'mcpTool', line: 1, column: 5, endColumn: 35 }],
    },
    {
      name: 'undefined snake_case functions (warning)',
      code: 'memory_store "k" "v"\nmemory_search "swarm_" | tail -1',
      errors: [
        { messageId: 'undefinedFunction', severity: 'warning', line: 1, column: 1, endColumn: 13 },
        { messageId: 'undefinedFunction', line: 2, column: 1, endColumn: 14 },
      ],
    },
    {
      name: 'a function defined in another hook: another process, related location',
      profile: twoHooks,
      errors: [{ messageId: 'undefinedFunction', line: 9, column: 5, endColumn: 14, message: /defined in `pre`/ }],
    },
  ],
});
