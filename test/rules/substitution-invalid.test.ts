import rule from '../../rules/substitution-invalid/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: ['echo "${#X} ${#A[@]} ${#} ${##} ${$} $$ ${!N} ${X:-${#Y}}"', "echo '${#X:-0}' # ${#Y:-0}", 'A=(1 2)\necho "${#A[@]}"'],
  reject: [
    {
      name: 'a length with a default',
      code: 'L=${#OUTPUT:-0}',
      errors: [{ messageId: 'lengthWithOperator', line: 1, column: 3, endColumn: 16 }],
    },
    { name: 'inside double quotes', code: 'echo "n=${#X:-0} done"', errors: [{ line: 1, column: 9, endColumn: 17 }] },
    { name: 'an array length with an operator', code: 'echo ${#arr[@]:-}', errors: [{ line: 1, column: 6, endColumn: 18 }] },
    {
      name: 'a dollar before the name',
      code: 'echo "${$NAME}"',
      errors: [{ messageId: 'nestedDollar', line: 1, column: 7, endColumn: 15 }],
    },
  ],
});
