import rule from '../../rules/memory-key-unscoped/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    '/sqlite-memory store --key "agent:${AGENT_ID}:ctx" --level agent --data \'{}\'',
    "/sqlite-memory store --key agent:$AGENT_ID:ctx --level agent --data '{}'",
    '/sqlite-memory store --key "swarm:${SWARM_ID}:state" --level swarm --data \'{}\'',
    'KEY="agent:${AGENT_ID}:ctx"\n/sqlite-memory retrieve --key "$KEY" --level agent',
    '# /sqlite-memory store --key ctx --level agent\necho ok',
  ],
  reject: [
    {
      code: '/sqlite-memory store --key "blocking:context" --level agent --data \'{}\'',
      errors: [{ messageId: 'unscoped', severity: 'warning', line: 1, column: 28, endColumn: 46 }],
    },
    {
      name: 'scoped by another runtime variable only',
      code: '/sqlite-memory retrieve --key "ctx:${SWARM_ID}" --level agent',
      errors: [{ line: 1, column: 31, endColumn: 48 }],
    },
    { name: 'joined form', code: '/sqlite-memory delete --key=ctx --level agent', errors: [{ line: 1, column: 29, endColumn: 32 }] },
  ],
});
