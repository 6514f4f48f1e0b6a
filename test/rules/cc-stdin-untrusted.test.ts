// `read` takes the hook's stdin JSON only when nothing else is its input. The grammar puts a here-string on
// the command itself, not on a redirected statement, so `read -r a b <<< "$x"` was taken to read stdin:
// technicalpickles' actually-lsp session-start.sh splits a tab-separated line of its own that way and was told
// `$probe_args` held text from the hook's stdin.
import rule from '../../rules/cc-stdin-untrusted/index.js';
import { claudeCodeAgent } from '../helpers/claude-code-agent.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** A Claude Code subagent whose SessionStart handler runs `lines` (the first on line 9, from column 13). */
function agent(lines: string[]): string {
  return [
    '---',
    'name: lsp',
    'description: Starts a language server.',
    'hooks:',
    '  SessionStart:',
    '    - hooks:',
    '        - type: command',
    '          command: |',
    ...lines.map((line) => `            ${line}`),
    '---',
    'Body.',
    '',
  ].join('\n');
}

ruleTester(rule, {
  accept: [
    {
      name: 'read from a here-string of the script’s own text',
      profile: agent(["line=$(printf 'a\\tb\\t--x')", 'IFS=$\'\\t\' read -r lang sample args <<< "$line"', 'node probe.mjs $args']),
    },
    { name: 'read from a file', profile: agent(['read -r args < .probe', 'node probe.mjs $args']) },
    {
      name: 'read in a loop fed by a process substitution, a file or a pipe',
      profile: agent([
        'while read -r f; do ls $f; done < <(find . -name "*.log")',
        'while read -r g; do ls $g; done < ./list',
        'find . -name "*.tmp" | while read -r h; do ls $h; done',
      ]),
    },
  ],
  reject: [
    {
      name: 'read in a loop that reads the hook’s stdin, its process substitution reading the shell’s stdin',
      profile: agent([
        'while read -r f; do ls $f; done',
        'while read -r g; do ls $g; done < <(jq -r .x)',
        'jq -r .y 2>/dev/null | while read -r h; do ls $h; done',
      ]),
      errors: [
        { messageId: 'unquoted', line: 9, column: 36, endColumn: 38 },
        { messageId: 'unquoted', line: 10, column: 36, endColumn: 38 },
        { messageId: 'unquoted', line: 11, column: 59, endColumn: 61 },
      ],
    },
    {
      name: 'read from the hook’s stdin',
      profile: agent(['read -r args', 'node probe.mjs $args']),
      errors: [{ messageId: 'unquoted', line: 10, column: 28, endColumn: 33 }],
    },
  ],
});

// What reads the input besides a plain `read`: process substitutions, here-strings of it, xargs.
const preToolUse = (script: string): string => claudeCodeAgent(script);

ruleTester(rule, {
  accept: [
    { name: 'xargs -0 keeps each path whole', profile: preToolUse("jq -j '.tool_input.file_path' | xargs -0 ls -l") },
    { name: "xargs -d '\\n' keeps each line whole", profile: preToolUse("jq -r '.tool_input.file_path' | xargs -d '\\n' ls -l") },
    { name: 'read from a file of its own', profile: preToolUse('read -r f < ./config\nls $f') },
    { name: 'xargs fed by something else', profile: preToolUse('ls ./src | xargs wc -l') },
    { name: 'a function that reads a file of its own', profile: preToolUse('conf() { jq -r .x ./c.json; }\nls $(conf)') },
    { name: 'a function reading stdin, its output piped into it', profile: preToolUse('f() { cat; }\nls $(echo ./src | f)') },
    {
      name: 'ssh given the text as data on its stdin',
      profile: preToolUse("C=$(jq -r .tool_input.command)\nprintf '%s' \"$C\" | ssh host 'cat >> audit.log'"),
    },
    {
      name: 'a container given the text as an argument',
      profile: preToolUse('C=$(jq -r .tool_input.command)\ndocker exec app sh -c \'printf "%s" "$1"\' _ "$C"'),
    },
  ],
  reject: [
    {
      name: 'the tool command piped into source /dev/stdin and into sudo sh -s',
      profile: preToolUse("jq -r '.tool_input.command' | source /dev/stdin\njq -r '.tool_input.command' | sudo sh -s"),
      errors: [
        { messageId: 'pipeShell', line: 10, column: 13, endColumn: 40, message: /into `source`/ },
        { messageId: 'pipeShell', line: 11, column: 13, endColumn: 40, message: /into `sh`/ },
      ],
    },
    {
      name: 'the command ssh sends, parsed again on the other host',
      profile: preToolUse('C=$(jq -r .tool_input.command)\nssh -p 2222 build@ci "$C"'),
      errors: [{ messageId: 'ssh', line: 11, column: 34, endColumn: 38 }],
    },
    {
      name: 'sh -c in a container, past docker exec options and a kubectl --',
      profile: preToolUse(
        'C=$(jq -r .tool_input.command)\ndocker exec -it -u root app sh -c "$C"\nkubectl -n prod exec web -- bash -c "$C"',
      ),
      errors: [
        { messageId: 'shellC', line: 11, column: 47, endColumn: 51, message: /`sh -c`/ },
        { messageId: 'shellC', line: 12, column: 49, endColumn: 53, message: /`bash -c`/ },
      ],
    },
    {
      name: 'the input read by $(</dev/stdin)',
      profile: preToolUse('IN=$(</dev/stdin)\nF=$(echo "$IN" | jq -r .tool_input.file_path)\nls $F'),
      errors: [{ messageId: 'unquoted', line: 12, column: 16, endColumn: 18 }],
    },
    {
      name: 'the input read through its paths: cat /dev/fd/0, jq … /dev/stdin, read < /dev/stdin',
      profile: preToolUse('IN=$(cat /dev/fd/0)\nls $IN\nF=$(jq -r .tool_input.file_path /dev/stdin)\nls $F\nread -r G < /dev/stdin\nls $G'),
      errors: [
        { messageId: 'unquoted', line: 11, column: 16, endColumn: 19 },
        { messageId: 'unquoted', line: 13, column: 16, endColumn: 18 },
        { messageId: 'unquoted', line: 15, column: 16, endColumn: 18 },
      ],
    },
    {
      name: 'a function that reads the input, called in a substitution',
      profile: preToolUse("input() { jq -r '.tool_input.file_path'; }\nF=$(input)\nls $F"),
      errors: [{ messageId: 'unquoted', line: 12, column: 16, endColumn: 18 }],
    },
    {
      name: 'read from a process substitution that reads stdin',
      profile: preToolUse('read -r f < <(jq -r .tool_input.file_path)\nls $f'),
      errors: [{ messageId: 'unquoted', line: 11, column: 16, endColumn: 18 }],
    },
    {
      name: 'mapfile from a process substitution that reads stdin',
      profile: preToolUse("mapfile -t L < <(jq -r '.tool_input.command')\nls ${L[0]}"),
      errors: [{ messageId: 'unquoted', line: 11, column: 16, endColumn: 23 }],
    },
    {
      name: 'read from a here-string of the input',
      profile: preToolUse('IN=$(cat)\nread -r a <<< "$IN"\nls $a'),
      errors: [{ messageId: 'unquoted', line: 12, column: 16, endColumn: 18 }],
    },
    {
      name: 'xargs splitting the input into arguments',
      profile: preToolUse('jq -r .tool_input.file_path | xargs rm'),
      errors: [{ messageId: 'xargs', severity: 'warning', line: 10, column: 43, endColumn: 51 }],
    },
    {
      name: 'xargs running each line of the input as a script',
      profile: preToolUse('jq -r .tool_input.command | xargs -I{} sh -c {}'),
      errors: [{ messageId: 'shellC', severity: 'error', line: 10, column: 41, endColumn: 60 }],
    },
  ],
});

// Text of the input spliced into an inline program of another language: a quote or delimiter in it ends the
// string, and the rest runs as that language's code (yurukusa's activity-logger.sh builds a Python dict so).
ruleTester(rule, {
  accept: [
    {
      name: 'python given the value as an argument',
      profile: preToolUse('F=$(jq -r .tool_input.file_path)\npython3 -c \'import sys; open(sys.argv[1])\' "$F"'),
    },
    { name: 'awk given the value with -v', profile: preToolUse('F=$(jq -r .tool_input.file_path)\nawk -v f="$F" \'$0 == f\' list.txt') },
    { name: 'node given a value of the script’s own', profile: preToolUse("D=./dist\nnode -e \"require('fs').readdirSync('$D')\"") },
    {
      name: 'sed given a script of its own, the value as its file',
      profile: preToolUse('F=$(jq -r .tool_input.file_path)\nsed -n \'1p\' "$F"'),
    },
    { name: 'awk reading its program from a file', profile: preToolUse('F=$(jq -r .tool_input.file_path)\nawk -f prog.awk "$F"') },
  ],
  reject: [
    {
      name: 'a python program with the value spliced in',
      profile: preToolUse('F=$(jq -r .tool_input.file_path)\npython3 -c "open(\'$F\')"'),
      errors: [{ messageId: 'program', line: 11, column: 31, endColumn: 33 }],
    },
    {
      name: 'a node program with a substitution that reads the input',
      profile: preToolUse('node -e "console.log(\'$(jq -r .tool_input.command)\')"'),
      errors: [{ messageId: 'program', line: 10, column: 35, endColumn: 63 }],
    },
    {
      name: 'an awk program with the value spliced in',
      profile: preToolUse('F=$(jq -r .tool_input.file_path)\nawk "/$F/" list.txt'),
      errors: [{ messageId: 'program', line: 11, column: 19, endColumn: 21 }],
    },
    {
      name: 'a sed script with the value spliced in, after -e',
      profile: preToolUse('F=$(jq -r .tool_input.file_path)\nsed -i -e "s|x|$F|" notes.md'),
      errors: [{ messageId: 'program', line: 11, column: 28, endColumn: 30 }],
    },
    {
      name: 'perl -e',
      profile: preToolUse('IN=$(cat)\nperl -e "print q($IN)"'),
      errors: [{ messageId: 'program', line: 11, column: 30, endColumn: 33 }],
    },
  ],
});
