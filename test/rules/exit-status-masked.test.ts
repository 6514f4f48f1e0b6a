import rule from '../../rules/exit-status-masked/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    'npm test || STATUS=$?',
    'npm test\nSTATUS=$?',
    'rm -f x || true\necho done',
    'a || true\nX=$(b; echo $?)',
    'a || echo failed\nX=$?',
  ],
  reject: [
    {
      name: 'an assignment of $? after || true',
      code: 'npm test > /tmp/out 2>&1 || true\nTEST_EXIT_CODE=$?',
      errors: [{ messageId: 'masked', line: 2, column: 16, endColumn: 18 }],
    },
    {
      name: 'a test of $? after || : and a comment',
      code: 'grep -q x f || :\n# c\nif [ $? -ne 0 ]; then echo; fi',
      errors: [{ line: 3, column: 6, endColumn: 8 }],
    },
    { name: 'a pipeline masked on the same line', code: 'a | b || true; echo "$?"', errors: [{ line: 1, column: 22, endColumn: 24 }] },
  ],
});
