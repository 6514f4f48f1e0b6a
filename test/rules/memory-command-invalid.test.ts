import rule from '../../rules/memory-command-invalid/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    '/sqlite-memory store --key "agent:${AGENT_ID}:ctx" --level agent --data \'{"status":"blocked"}\'',
    'CTX=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:ctx" --level agent || echo \'{}\')',
    '/sqlite-memory store --key=swarm:state --level=swarm --data "$(jq -nc --arg t "$TASK" \'{task:$t}\')"',
    '/sqlite-memory list --level project',
    '# /sqlite-memory stroe is a typo\necho "/sqlite-memory --level global"',
    '/sqlite-memory store --key k --level "$LEVEL" --data "$DATA"',
  ],
  reject: [
    {
      name: 'an invalid level',
      code: "/sqlite-memory store --key k --level global --data '{}'",
      errors: [{ messageId: 'levelInvalid', severity: 'error', line: 1, column: 38, endColumn: 44 }],
    },
    {
      name: 'a level typo, joined form',
      code: '/sqlite-memory retrieve --key k --level=agnet',
      errors: [{ messageId: 'levelInvalid', line: 1, column: 41, endColumn: 46, message: /did you mean `agent`/ }],
    },
    {
      name: 'an unknown subcommand',
      code: '/sqlite-memory stroe --key k --level swarm',
      errors: [{ messageId: 'subcommandUnknown', line: 1, column: 16, endColumn: 21, message: /did you mean `store`/ }],
    },
    {
      name: 'no subcommand',
      code: '/sqlite-memory --key k --level swarm',
      errors: [{ messageId: 'subcommandMissing', line: 1, column: 1, endColumn: 15 }],
    },
    {
      name: 'no key',
      code: "/sqlite-memory store --level swarm --data '{}'",
      errors: [{ messageId: 'keyMissing', line: 1, column: 1, endColumn: 47 }],
    },
    {
      name: 'no level (warning)',
      code: '/sqlite-memory retrieve --key k',
      errors: [{ messageId: 'levelMissing', severity: 'warning', line: 1, column: 1, endColumn: 32 }],
    },
    {
      name: 'literal data that is not JSON, on a continuation line',
      code: '/sqlite-memory store --key "agent:${AGENT_ID}:x" \\\n  --level agent \\\n  --data \'{"status": blocked}\'',
      errors: [{ messageId: 'dataInvalid', line: 3, column: 10, endColumn: 31, message: /^Invalid JSON in `--data`: / }],
    },
  ],
});
