// claude-code-templates (davila7/claude-code-templates, cli-tool/components/hooks) ships dozens of
// hooks that read `$CLAUDE_TOOL_FILE_PATH`, and ChrisWiles/claude-code-showcase reads
// `$CLAUDE_TOOL_INPUT_FILE_PATH`: Claude Code sets neither, so `[[ "$X" == *.py ]]` is never true and
// the formatter never runs. Only the exact names of NEVER_SET_ENV were reported before.
import rule from '../../rules/cc-env-var-unset/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** An agent profile whose PostToolUse handler runs `line` (on line 10, from column 13). */
function postToolUse(line: string): string {
  return [
    '---',
    'name: formatter',
    'description: Formats what Claude edits.',
    'hooks:',
    '  PostToolUse:',
    '    - matcher: Edit',
    '      hooks:',
    '        - type: command',
    '          command: |',
    `            ${line}`,
    '---',
    'Body.',
    '',
  ].join('\n');
}

ruleTester(rule, {
  accept: [
    { name: 'the documented project directory', profile: postToolUse('cd "$CLAUDE_PROJECT_DIR" && make fmt') },
    {
      name: 'a CLAUDE_TOOL_ name the script sets itself',
      profile: postToolUse('CLAUDE_TOOL_FILE=$(jq -r .tool_input.file_path); black "$CLAUDE_TOOL_FILE"'),
    },
    {
      // corca-ai's cwf log-turn.sh: the grammar cannot read a `"` inside `$(…)` inside `${x:+…}`, and an assignment
      // after it (TOOL_NAME=$(… | jq -r .name)) was not seen, so a name the script sets was called never set.
      name: 'a name assigned where the grammar could not read the script',
      profile: postToolUse(
        [
          'OUT=$(jq -r .transcript_path)',
          '{',
          '  echo "### A${N:+ (${N} lines$([ "$N" -gt 3 ] && echo " cut"))}"',
          '} >> "$OUT"',
          'TOOL_NAME=$(jq -r .tool_name "$OUT")',
          'printf "%s\\n" "$TOOL_NAME" >> "$OUT"',
        ].join('\n            '),
      ),
    },
    {
      name: 'a CLAUDE_TOOL_ name with a default',
      profile: postToolUse('black "${CLAUDE_TOOL_FILE_PATH:-$(jq -r .tool_input.file_path)}"'),
    },
    {
      // claude-toolkit: the library reads stdin into HOOK_INPUT and sets TOOL_NAME.
      name: 'names a sourced library may set',
      profile: postToolUse('source "$(dirname "$0")/lib/utils.sh"\nif [[ "$TOOL_NAME" == Bash ]]; then echo "$HOOK_INPUT"; fi'),
    },
  ],
  reject: [
    {
      name: 'CLAUDE_TOOL_FILE_PATH (claude-code-templates format-python-files)',
      profile: postToolUse('if [[ "$CLAUDE_TOOL_FILE_PATH" == *.py ]]; then black "$CLAUDE_TOOL_FILE_PATH"; fi'),
      errors: [
        { messageId: 'neverSet', line: 10, column: 20, endColumn: 42, message: /`CLAUDE_TOOL_FILE_PATH`: Claude Code never sets it/ },
      ],
    },
    {
      name: 'CLAUDE_TOOL_INPUT_FILE_PATH (claude-code-showcase)',
      profile: postToolUse('npx prettier --write "${CLAUDE_TOOL_INPUT_FILE_PATH}"'),
      errors: [{ messageId: 'neverSet', line: 10, column: 35, endColumn: 65 }],
    },
    {
      name: 'TOOL_INPUT_path (forest6511/claude-code-recipes lint-check)',
      profile: postToolUse('npx eslint --quiet "$TOOL_INPUT_path"'),
      errors: [{ messageId: 'neverSet', line: 10, column: 33, endColumn: 49, message: /`TOOL_INPUT_path`/ }],
    },
    {
      // Every hook of claude-code-templates' python, ruby and javascript-typescript settings reads it: all are inert.
      name: 'STDIN_JSON (claude-code-templates language templates)',
      profile: postToolUse('FILE=$(echo $STDIN_JSON | jq -r \'.tool_input.file_path // ""\'); black "$FILE"'),
      errors: [{ messageId: 'neverSet', line: 10, column: 25, endColumn: 36, message: /`STDIN_JSON`: Claude Code never sets it/ }],
    },
    {
      name: 'CLAUDE_TOOL_COMMAND',
      profile: postToolUse('echo "$CLAUDE_TOOL_COMMAND" >> log.txt'),
      errors: [{ messageId: 'neverSet', line: 10, column: 19, endColumn: 39 }],
    },
  ],
});
