// Whether a Claude Code handler runs in the background is its hook's `claudeCode.async` (set for
// `async: true` and `asyncRewake: true`), not whether it has an `asyncRewake` key: `asyncRewake: false`
// runs in the foreground, and its `exit 1` lets the tool call go ahead like any other.
import rule from '../../rules/cc-exit-not-blocking/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** An agent profile with one PreToolUse guard refusing with `exit 1` (line 11, plus a line per field in `flag`). */
function guard(flag: string): string {
  return [
    '---',
    'name: guard',
    'description: Refuses force pushes.',
    'hooks:',
    '  PreToolUse:',
    '    - matcher: Bash',
    '      hooks:',
    '        - type: command',
    ...(flag ? [`          ${flag}`] : []),
    '          command: |',
    '            if jq -r .tool_input.command | grep -q "push --force"; then',
    '              exit 1',
    '            fi',
    '---',
    'Body.',
    '',
  ].join('\n');
}

const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"No rm"}}';

/** An agent profile whose PreToolUse handler runs `lines` (the first on line 10). */
function command(lines: string[]): string {
  return [
    '---',
    'name: guard',
    'description: Refuses rm.',
    'hooks:',
    '  PreToolUse:',
    '    - matcher: Bash',
    '      hooks:',
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
      name: "a last exit 1 after no allowing exit: the script could not run (sg-python.sh's shape)",
      profile: command([
        'for p in python3 python; do',
        '  if command -v "$p" >/dev/null; then exec "$p" "$@"; fi',
        'done',
        'echo "no python" >&2',
        'exit 1',
      ]),
    },
    { name: 'asyncRewake: true (runs in the background)', profile: guard('asyncRewake: true') },
    { name: 'async: true', profile: guard('async: true') },
    { name: 'async: true beside asyncRewake: false', profile: guard('async: true\n          asyncRewake: false') },
    { name: 'exit $CODE set to 2', profile: command(['CODE=2', 'if jq -r .tool_input.command | grep -q rm; then exit $CODE; fi']) },
    { name: 'a flag set to 0 or 2', profile: command(['RC=0', 'if grep -q rm; then RC=2; fi', 'exit $RC']) },
    { name: 'a flag set from a computation', profile: command(['RC=0', 'RC=$(check)', 'exit $RC']) },
    { name: 'exit $CODE set to either', profile: command(['CODE=1', '[ -n "$X" ] && CODE=2', 'if grep -q rm; then exit $CODE; fi']) },
    // A schema-valid JSON decision decides alone, whatever the exit code (§5.1: a deny with exit 1 still blocks).
    {
      name: 'exit 1 after its branch prints a deny decision',
      profile: command(['if jq -r .tool_input.command | grep -q rm; then', `  echo '${DENY}'`, '  exit 1', 'fi']),
    },
    {
      name: 'exit 1 after a captured jq -n deny decision is echoed',
      profile: command([
        'if jq -r .tool_input.command | grep -q rm; then',
        `  out=$(jq -cn --arg r "$R" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: $r}}')`,
        '  echo "$out"',
        '  exit 1',
        'fi',
      ]),
    },
    {
      name: 'exit 1 after a deny decision in the same && list',
      profile: command([`jq -r .tool_input.command | grep -q rm && echo '${DENY}' && exit 1`]),
    },
    {
      name: 'exit 1 after a here-document with the decision, in a function',
      profile: command(['deny() {', '  cat <<EOF', DENY, 'EOF', '  exit 1', '}', 'jq -r .tool_input.command | grep -q rm && deny']),
    },
    {
      name: "exit 1 after an if whose every arm prints a decision (corca-ai's cwf json_block: jq or a fixed text)",
      profile: command([
        'json_block() {',
        '  if command -v jq >/dev/null 2>&1; then',
        '    cat <<EOF',
        '{"decision":"block","reason":${REASON_JSON}}',
        'EOF',
        '  else',
        `    echo '{"decision":"block","reason":"jq is missing"}'`,
        '  fi',
        '  exit 1',
        '}',
        'jq -r .tool_input.command | grep -q rm && json_block',
      ]),
    },
    {
      name: 'exit 1 after a decision the shell fills in (it may be deny)',
      profile: command([
        'if jq -r .tool_input.command | grep -q rm; then',
        `  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"%s"}}' "$DECISION"`,
        '  exit 1',
        'fi',
      ]),
    },
  ],
  reject: [
    // A status the script fixes in an expansion is as fixed as a written one.
    {
      name: 'exit $((1))',
      profile: command(['if jq -r .tool_input.command | grep -q rm; then exit $((1)); fi']),
      errors: [{ messageId: 'notBlocking', line: 10, column: 61, endColumn: 72 }],
    },
    {
      name: 'exit "$CODE" with CODE set to 1',
      profile: command(['CODE=1', 'if jq -r .tool_input.command | grep -q rm; then exit "$CODE"; fi']),
      errors: [{ messageId: 'notBlocking', line: 11, column: 61, endColumn: 73 }],
    },
    {
      name: 'a flag set to 0 or 1, then exit $FLAG at the end: the flag is the decision',
      profile: command(['BLOCK=0', 'if jq -r .tool_input.command | grep -q rm; then BLOCK=1; fi', 'exit $BLOCK']),
      errors: [{ messageId: 'notBlocking', line: 12, column: 13, endColumn: 24, message: /`exit 1`/ }],
    },
    {
      name: 'a last exit 1 after an allowing exit 0: refusal is the default',
      profile: command([
        'cmd=$(jq -r .tool_input.command)',
        'if ! printf "%s" "$cmd" | grep -q "rm -rf"; then exit 0; fi',
        'echo "Blocked: rm -rf" >&2',
        'exit 1',
      ]),
      errors: [{ messageId: 'notBlocking', line: 13, column: 13, endColumn: 19 }],
    },
    {
      name: 'a last exit 1 after a case that allows',
      profile: command(['case "$(jq -r .tool_input.command)" in', '  *"rm -rf"*) ;;', '  *) exit 0 ;;', 'esac', 'exit 1']),
      errors: [{ messageId: 'notBlocking', line: 14, column: 13, endColumn: 19 }],
    },
    {
      name: 'asyncRewake: false (runs in the foreground)',
      profile: guard('asyncRewake: false'),
      errors: [{ messageId: 'notBlocking', severity: 'warning', line: 12, column: 15, endColumn: 21 }],
    },
    {
      name: 'async: false beside asyncRewake: false',
      profile: guard('async: false\n          asyncRewake: false'),
      errors: [{ messageId: 'notBlocking', line: 13, column: 15, endColumn: 21 }],
    },
    {
      name: 'neither key',
      profile: guard(''),
      errors: [{ messageId: 'notBlocking', line: 11, column: 15, endColumn: 21 }],
    },
    // Printed JSON that decides nothing leaves the exit code to decide: exit 1 lets the call through.
    {
      name: 'exit 1 after JSON with no decision (a system message)',
      profile: command(['if jq -r .tool_input.command | grep -q rm; then', `  echo '{"systemMessage":"rm seen"}'`, '  exit 1', 'fi']),
      errors: [{ messageId: 'notBlocking', line: 12, column: 15, endColumn: 21 }],
    },
    {
      name: 'exit 1 after JSON that is no decision shape ({"result": "block"})',
      profile: command(['if jq -r .tool_input.command | grep -q rm; then', `  echo '{"result":"block"}'`, '  exit 1', 'fi']),
      errors: [{ messageId: 'notBlocking', line: 12, column: 15, endColumn: 21 }],
    },
    {
      name: 'exit 1 after an if that prints a decision on one arm only',
      profile: command([
        'check() {',
        '  if command -v jq >/dev/null 2>&1; then',
        `    echo '${DENY}'`,
        '  fi',
        '  exit 1',
        '}',
        'jq -r .tool_input.command | grep -q rm && check',
      ]),
      errors: [{ messageId: 'notBlocking', line: 14, column: 15, endColumn: 21 }],
    },
    {
      name: 'exit 1 in a branch, the decision printed in another branch',
      profile: command([
        'if jq -r .tool_input.command | grep -q "rm -rf /"; then',
        `  echo '${DENY}'`,
        'elif jq -r .tool_input.command | grep -q rm; then',
        '  exit 1',
        'fi',
      ]),
      errors: [{ messageId: 'notBlocking', line: 13, column: 15, endColumn: 21 }],
    },
  ],
});
