import rule from '../../rules/cc-stdin-regex-parsed/index.js';
import { claudeCodeAgent } from '../helpers/claude-code-agent.js';
import { ruleTester } from '../helpers/rule-tester.js';

const preToolUse = (script: string): string => claudeCodeAgent(script);

ruleTester(rule, {
  accept: [
    { name: 'jq reads the field', profile: preToolUse("CMD=$(jq -r '.tool_input.command')") },
    {
      name: 'sed that reads escapes as pairs (the value whole, still escaped)',
      profile: preToolUse(`INPUT=$(cat)\nCMD=$(printf '%s' "$INPUT" | sed -n 's/.*"command":"\\(\\([^"\\\\]\\|\\\\.\\)*\\)".*/\\1/p')`),
    },
    { name: 'a pattern over a file', profile: preToolUse(`V=$(grep -o '"version":"[^"]*"' package.json)`) },
    { name: 'a pattern over text that is not the input', profile: preToolUse(`V=$(cat package.json | grep -o '"version":"[^"]*"')`) },
    { name: 'a pattern with no key in it', profile: preToolUse(`INPUT=$(cat)\necho "$INPUT" | grep -q '"[^"]*"'`) },
    { name: 'a pattern that does not stop at the quote', profile: preToolUse(`grep -q '"command":"rm -rf'`) },
    {
      name: 'cut on quotes of a value jq read',
      profile: preToolUse(`CMD=$(jq -r '.tool_input.command')\nARG=$(echo "$CMD" | cut -d'"' -f2)`),
    },
    { name: 'cut on quotes after a grep of a file', profile: preToolUse(`grep '"version"' package.json | cut -d'"' -f4`) },
    { name: 'sed -i on a file', profile: preToolUse(`sed -i 's/"command":"[^"]*"/x/' state.json`) },
  ],
  reject: [
    {
      name: 'grep -o over the input kept in a variable',
      profile: preToolUse(`INPUT=$(cat)\nCMD=$(echo "$INPUT" | grep -o '"command":"[^"]*"')`),
      errors: [
        { messageId: 'cutShort', line: 11, column: 43, endColumn: 62, message: /`grep` reading `command` out of the hook's stdin JSON/ },
      ],
    },
    {
      name: 'grep reading stdin itself, spacing tolerated, then cut',
      profile: preToolUse(`FILE=$(grep -o '"file_path" *: *"[^"]*"' | cut -d'"' -f4)`),
      errors: [{ messageId: 'cutShort', line: 10, column: 28, endColumn: 53, message: /`file_path`/ }],
    },
    {
      name: 'sed with a capture, through a here-string',
      profile: preToolUse(`INPUT=$(cat)\nCMD=$(sed -n 's/.*"command": *"\\([^"]*\\)".*/\\1/p' <<< "$INPUT")`),
      errors: [{ messageId: 'cutShort', line: 11, column: 26, endColumn: 62 }],
    },
    {
      name: 'grep -P with \\K and \\s*, after cat',
      profile: preToolUse(`CMD=$(cat | grep -oP '"command"\\s*:\\s*"\\K[^"]+')`),
      errors: [{ messageId: 'cutShort', line: 10, column: 34, endColumn: 60 }],
    },
    {
      name: 'a grep of the key, then cut on quotes',
      profile: preToolUse(`INPUT=$(cat)\nCMD=$(echo "$INPUT" | grep -o '"command":.*' | cut -d '"' -f4)`),
      errors: [
        {
          messageId: 'splitOnQuotes',
          line: 11,
          column: 67,
          endColumn: 70,
          message: /`cut` splitting the hook's stdin JSON on `"` to read `command`/,
        },
      ],
    },
    {
      name: 'awk -F on quotes after grep',
      profile: preToolUse(`TOOL=$(grep '"tool_name"' | awk -F'"' '{print $4}')`),
      errors: [{ messageId: 'splitOnQuotes', line: 10, column: 45, endColumn: 50 }],
    },
  ],
});
