import rule from '../../rules/cc-stdin-reread/index.js';
import { claudeCodeAgent } from '../helpers/claude-code-agent.js';
import { ruleTester } from '../helpers/rule-tester.js';

const preToolUse = (script: string): string => claudeCodeAgent(script);

ruleTester(rule, {
  accept: [
    {
      name: 'the input read once, then given to each reader',
      profile: preToolUse('INPUT=$(cat)\nC=$(printf \'%s\' "$INPUT" | jq -r .tool_input.command)\nT=$(echo "$INPUT" | jq -r .tool_name)'),
    },
    { name: 'one jq reading stdin', profile: preToolUse("C=$(jq -r '.tool_input.command')") },
    { name: 'jq -n and jq on a file', profile: preToolUse('INPUT=$(cat)\njq -nc --arg c "$INPUT" \'{c: $c}\'\njq -r .x ./state.json') },
    { name: 'a here-string', profile: preToolUse('read -r J\njq -r .tool_name <<< "$J"') },
    { name: 'read from another descriptor or a file', profile: preToolUse('read -r -u 3 A\nread -r B < ./state\nC=$(jq -r .tool_name)') },
    { name: 'read in a pipeline stage', profile: preToolUse('jq -r .tool_name | read -r T\necho ok') },
    { name: 'readers in two branches', profile: preToolUse('if [ "$1" = a ]; then A=$(cat); else B=$(jq -r .x); fi') },
    { name: 'a fallback reader after ||', profile: preToolUse("CMD=$(jq -r '.tool_input.command') || CMD=$(cat)") },
    { name: 'a reader in an elif condition', profile: preToolUse('if [ "$1" = a ]; then A=$(cat); elif jq -e .x >/dev/null; then :; fi') },
    { name: 'a reader in a function', profile: preToolUse('input() { cat; }\nX=$(jq -r .a)') },
    { name: 'a later pipeline stage', profile: preToolUse('C=$(jq -r .tool_input.command | tr a-z A-Z)') },
    { name: 'stdin replaced in between', profile: preToolUse('A=$(cat)\nexec < /dev/tty\nB=$(cat)') },
    { name: 'jq and cat on files of their own', profile: preToolUse('A=$(cat ./a.json)\nB=$(jq -r .x ./b.json < ./c)\nC=$(cat)') },
  ],
  reject: [
    {
      name: 'the input kept by cat, then asked of jq',
      profile: preToolUse('INPUT=$(cat)\necho "$INPUT" >> log.jsonl\nCMD=$(jq -r \'.tool_input.command\')'),
      errors: [{ messageId: 'reread', line: 12, column: 19, endColumn: 46 }],
    },
    {
      name: 'jq reading twice',
      profile: preToolUse('jq . > /tmp/in.json\nT=$(jq -r .tool_name)'),
      errors: [{ messageId: 'reread', line: 11, column: 17, endColumn: 33 }],
    },
    {
      name: 'after $(</dev/stdin)',
      profile: preToolUse('IN=$(</dev/stdin)\npython3 -c "import json,sys; print(json.load(sys.stdin))"'),
      errors: [{ messageId: 'reread', line: 11, column: 13, endColumn: 70 }],
    },
    {
      name: 'read takes the first line, then jq reads at most the rest',
      profile: preToolUse('IFS= read -r JSON\nCMD=$(jq -r .tool_input.command)'),
      errors: [
        { messageId: 'afterRead', line: 11, column: 19, endColumn: 44, message: /`IFS= read -r JSON` \(line 10\) took its first line/ },
      ],
    },
    {
      name: 'both sides of &&',
      profile: preToolUse("INPUT=$(cat) && CMD=$(jq -r '.tool_input.command')"),
      errors: [{ messageId: 'reread', line: 10, column: 35, endColumn: 62 }],
    },
    {
      name: "in a case statement's subject, which always runs",
      profile: preToolUse('INPUT=$(cat)\ncase "$(jq -r .tool_input.command)" in *rm*) exit 2 ;; esac'),
      errors: [{ messageId: 'reread', line: 11, column: 21, endColumn: 46 }],
    },
    {
      name: "in an if's first condition, which always runs",
      profile: preToolUse('INPUT=$(cat)\nif jq -e \'.tool_input.command | test("rm")\' >/dev/null; then exit 2; fi'),
      errors: [{ messageId: 'reread', line: 11, column: 16, endColumn: 56 }],
    },
    {
      name: 'stdin by its paths: cat /dev/fd/0, then jq given /dev/stdin as its file',
      profile: preToolUse('IN=$(cat /dev/fd/0)\nC=$(jq -r .tool_input.command /dev/stdin)'),
      errors: [{ messageId: 'reread', line: 11, column: 17, endColumn: 53 }],
    },
    {
      name: 'jq reading < /dev/stdin after read with its errors redirected',
      profile: preToolUse('read -r J 2>/dev/null\nC=$(jq -r .tool_name < /dev/stdin)'),
      errors: [{ messageId: 'afterRead', line: 11, column: 17, endColumn: 33 }],
    },
    {
      name: 'read < /proc/self/fd/0 after cat -',
      profile: preToolUse("IN=$(cat -)\nread -r X < '/proc/self/fd/0'"),
      errors: [{ messageId: 'reread', line: 11, column: 13, endColumn: 22 }],
    },
  ],
});
