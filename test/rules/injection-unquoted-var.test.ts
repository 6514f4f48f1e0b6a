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
    { name: 'a [[ ]] comparison, which does not split', code: '[[ $TASK == x && ( $PHASE = r ) ]] && echo yes' },
    { name: 'quoted in a [ ] test and an array', code: '[ "$TASK" = x ] && args=("$TASK")' },
    { name: 'a quoted redirect target, and a here-string', code: 'echo hi > "./out/$AGENT_ID.log"\ncat <<< $TASK' },
    { name: 'an arithmetic operand', code: 'echo $(( ITERATION + 1 )) && (( $ITERATION > 2 ))' },
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
    { name: 'in an array assignment', code: 'args=($TASK)\n"${args[@]}"', errors: [{ line: 1, column: 7, endColumn: 12 }] },
    { name: 'in a local array', code: 'f() { local a=(x $TASK); }', errors: [{ line: 1, column: 18, endColumn: 23 }] },
    { name: 'as a redirect target', code: 'echo hi > $TASK', errors: [{ line: 1, column: 11, endColumn: 16 }] },
    { name: 'in a [ ] comparison', code: '[ $TASK = x ] && echo y', errors: [{ line: 1, column: 3, endColumn: 8 }] },
    {
      name: 'in nested [ ] tests',
      code: '[ ! -z $TASK ] && [ x = y -o $PHASE = r ]',
      errors: [
        { line: 1, column: 8, endColumn: 13 },
        { line: 1, column: 30, endColumn: 36 },
      ],
    },
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
