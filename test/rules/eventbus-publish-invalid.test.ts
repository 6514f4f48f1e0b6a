import rule from '../../rules/eventbus-publish-invalid/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    '/eventbus publish --type agent.timeout --data \'{"a":1}\' --priority 9',
    '/eventbus publish --type coordination.reset --data "{\\"swarm_id\\":\\"${SWARM_ID}\\"}" --priority 10',
    '/eventbus publish --type "$EVENT_TYPE" --data "$PAYLOAD" --priority "$P"',
    '/eventbus subscribe --type "agent.*"',
    '/eventbus init --throughput-target 10000',
    '# /eventbus publish --type bad --priority 99\necho ok',
  ],
  reject: [
    {
      name: 'a type without dots',
      code: '/eventbus publish --type timeout --priority 8',
      errors: [{ messageId: 'typeInvalid', severity: 'error', line: 1, column: 26, endColumn: 33 }],
    },
    {
      name: 'a type with spaces',
      code: '/eventbus publish --type "agent timeout" --priority 8',
      errors: [{ messageId: 'typeInvalid', line: 1, column: 26, endColumn: 41 }],
    },
    {
      name: 'no type',
      code: "/eventbus publish --data '{}' --priority 8",
      errors: [{ messageId: 'typeMissing', line: 1, column: 1, endColumn: 43 }],
    },
    {
      name: 'a priority out of range',
      code: '/eventbus publish --type a.b --priority 11',
      errors: [{ messageId: 'priorityInvalid', line: 1, column: 41, endColumn: 43 }],
    },
    {
      name: 'a priority that is not an integer',
      code: '/eventbus publish --type a.b --priority=high',
      errors: [{ messageId: 'priorityInvalid', line: 1, column: 41, endColumn: 45 }],
    },
    {
      name: 'literal data that is not JSON',
      code: "/eventbus publish --type a.b --data '{agent: 1}' --priority 8",
      errors: [{ messageId: 'dataInvalid', line: 1, column: 37, endColumn: 49 }],
    },
    {
      name: 'a misspelt subcommand',
      code: '/eventbus publsh --type a.b',
      errors: [{ messageId: 'subcommandUnknown', line: 1, column: 11, endColumn: 17, message: /did you mean `publish`/ }],
    },
  ],
});
