import rule from '../../rules/grep-count-fallback/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: ['N=$(grep -c x f || true)', 'grep -l x f || echo none', 'N=$(grep -c x f)', 'grep -c x f && echo found'],
  reject: [
    {
      name: 'the two-line fallback in $(…)',
      code: 'CPU=$(grep -c ^processor cpuinfo 2>/dev/null || echo "0")',
      errors: [{ messageId: 'twoLines', line: 1, column: 46, endColumn: 57, message: /two lines \(`0` and `0`\)/ }],
    },
    { name: 'after a pipeline, with --count', code: 'cat f | grep --count y || echo 0', errors: [{ line: 1, column: 24, endColumn: 33 }] },
    { name: 'combined flags', code: 'grep -rc TODO src || printf 0', errors: [{ line: 1, column: 19, endColumn: 30 }] },
  ],
});
