import rule from '../../rules/injection-unquoted-var/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    'echo "Task: $TASK"',
    '# echo $TASK unquoted would split\necho ok',
    "echo 'literal $TASK'",
    'T=$TASK\necho "$T"',
    'local_copy="${SIGNAL_DATA}"',
    '[[ -n $TASK ]] && echo yes',
    'case $PHASE in\n  review) echo r ;;\nesac',
    'echo ${#TASK}',
    'echo $ITERATION $HOME',
    'cat <<EOF\n$TASK\nEOF',
    { name: 'an option adds a variable', code: 'echo "$REQUEST"', options: { variables: ['REQUEST'] } },
    { name: 'a copy quoted', code: 'T="$TASK"\ngrep -- "$T" log' },
    { name: 'a length', code: 'N=${#TASK}\necho $N' },
    { name: 'a value edited by an expansion', code: 'SAFE=${TASK//[^a-z]/}\necho $SAFE' },
    { name: 'a value passed through a command', code: 'T=$(echo "$TASK" | tr -cd a-z)\necho $T' },
  ],
  reject: [
    { code: 'echo Task: $TASK', errors: [{ messageId: 'unquoted', severity: 'warning', line: 1, column: 12, endColumn: 17 }] },
    {
      name: 'braced and in a concatenation',
      code: 'redis-cli get swarm:${SWARM_ID}:state',
      errors: [{ line: 1, column: 21, endColumn: 32 }],
    },
    { name: 'inside a double-quoted $(...)', code: 'echo "$(printf %s $SIGNAL_DATA)"', errors: [{ line: 1, column: 19, endColumn: 31 }] },
    { name: 'as a for list', code: 'for c in $MISSING_COORDINATORS; do echo "$c"; done', errors: [{ line: 1, column: 10, endColumn: 31 }] },
    { name: 'with a default', code: 'mkdir -p work/${AGENT_ID:-anon}', errors: [{ line: 1, column: 15, endColumn: 32 }] },
    // A copy of the text is as agent-controlled as the variable it came from.
    {
      name: 'a copy expanded unquoted',
      code: 'T=$TASK\ngrep $T ./log',
      errors: [
        { messageId: 'unquotedCopy', line: 2, column: 6, endColumn: 8, message: /`T` holds agent-controlled text \(from `\$TASK`\)/ },
      ],
    },
    {
      name: 'a copy of a copy, with a default',
      code: 'A="id-${AGENT_ID:-x}"\nB=$A\nmkdir $B',
      errors: [{ messageId: 'unquotedCopy', line: 3, column: 7 }],
    },
    {
      name: 'words read from a here-string',
      code: 'read -r first rest <<< "$TASK"\nrm $first',
      errors: [{ messageId: 'unquotedCopy', line: 2, column: 4, endColumn: 10 }],
    },
    { name: 'printf -v', code: 'printf -v t \'%s\' "$TASK"\nls $t', errors: [{ messageId: 'unquotedCopy', line: 2, column: 4 }] },
    { name: 'option adds a variable', code: 'echo $REQUEST', options: { variables: ['REQUEST'] }, errors: [{ line: 1, column: 6 }] },
    {
      name: 'two on a line',
      code: 'echo $AGENT_ID $PHASE',
      errors: [
        { line: 1, column: 6, endColumn: 15 },
        { line: 1, column: 16, endColumn: 22 },
      ],
    },
  ],
});
