// The cases cc-output-invalid.test.ts runs: each handler's command and, for a rejected one, each
// finding's place (the text of the one-line settings file it starts at and spans) and message.

import { runTimeValueAccepts, runTimeValueRejects } from './cc-output-invalid.run-time-cases.js';

export interface Handler {
  event: string;
  command: string;
  async?: boolean;
  asyncRewake?: boolean;
}

export interface Expected {
  /** The finding starts at this text of the file and spans it. */
  at: string;
  after?: string;
  severity?: 'error' | 'warning' | 'info';
  message: RegExp;
}

export const reject: { name: string; handlers: Handler[]; expected: Expected[] }[] = [
  ...runTimeValueRejects,
  // The JSON reaches stdout through a here-string, or a variable the script sets once.
  {
    name: 'a here-string fed to cat',
    handlers: [
      { event: 'PreToolUse', command: `cat <<< '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "block"}}'` },
    ],
    expected: [{ at: '\\"block\\"', message: /Invalid `permissionDecision` "block"/ }],
  },
  {
    name: 'a variable set once, then echoed',
    handlers: [
      {
        event: 'PreToolUse',
        command: `OUT='{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "block"}}'; echo "$OUT"`,
      },
    ],
    expected: [{ at: '\\"block\\"', message: /Invalid `permissionDecision` "block"/ }],
  },
  // A captured print stands for what it prints: `echo "$(jq -n …)"`, a variable assigned once to one, printf's %s.
  {
    name: 'jq -n captured and echoed',
    handlers: [
      {
        event: 'PreToolUse',
        command: `echo "$(jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "denied"}}')"`,
      },
    ],
    expected: [{ at: '\\"denied\\"', message: /Invalid `permissionDecision` "denied"/ }],
  },
  {
    name: 'jq -n assigned once to a variable (with --arg), then echoed',
    handlers: [{ event: 'PreToolUse', command: `out=$(jq -cn --arg r "$R" '{decision: "deny", reason: $r}' 2>/dev/null); echo "$out"` }],
    expected: [{ at: '\\"deny\\"', message: /Invalid `decision` "deny": PreToolUse decides with `hookSpecificOutput.permissionDecision`/ }],
  },
  {
    name: 'printf %s of a captured echo inside a captured echo',
    handlers: [{ event: 'Stop', command: `printf '%s\\n' "$(echo "$(echo '{"decision": "stop"}')")"` }],
    expected: [{ at: '\\"stop\\"', message: /Invalid `decision` "stop"/ }],
  },
  {
    name: 'a variable set once, then printed by printf %s',
    handlers: [{ event: 'PreToolUse', command: `OUT='{"decision": "deny"}'; printf '%s\\n' "$OUT"` }],
    expected: [{ at: '\\"deny\\"', message: /Invalid `decision` "deny"/ }],
  },
  {
    name: 'a top-level decision PreToolUse does not read',
    handlers: [{ event: 'PreToolUse', command: `echo '{"decision": "deny", "reason": "no"}'` }],
    expected: [{ at: '\\"deny\\"', message: /Invalid `decision` "deny": PreToolUse decides with `hookSpecificOutput.permissionDecision`/ }],
  },
  {
    name: 'permissionDecision outside hookSpecificOutput, in a double-quoted echo with an expansion',
    handlers: [
      { event: 'PreToolUse', command: `echo "{\\"permissionDecision\\": \\"deny\\", \\"permissionDecisionReason\\": \\"$cmd\\"}"` },
    ],
    expected: [
      { at: '\\\\\\"permissionDecision\\\\\\"', message: /Unexpected `permissionDecision` at the top level/ },
      { at: '\\\\\\"permissionDecisionReason\\\\\\"', message: /Unexpected `permissionDecisionReason` at the top level/ },
    ],
  },
  {
    name: 'another event’s name',
    handlers: [
      {
        event: 'PreToolUse',
        command: `printf '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}\\n'`,
      },
    ],
    expected: [{ at: '\\"PostToolUse\\"', message: /Unexpected `hookEventName: "PostToolUse"` in the output of a PreToolUse hook/ }],
  },
  {
    name: 'a branch naming an event Claude Code does not have',
    handlers: [
      {
        event: 'PreToolUse',
        command: `if [ "$e" = x ]; then\n  echo '{"hookSpecificOutput": {"hookEventName": "PreToolCall", "permissionDecision": "deny"}}'\nfi`,
      },
    ],
    expected: [{ at: '\\"PreToolCall\\"', message: /Unexpected `hookEventName: "PreToolCall"` in the output of a PreToolUse hook/ }],
  },
  {
    name: 'a branch of an inline command naming another event (it runs on its own event only)',
    handlers: [
      {
        event: 'PreToolUse',
        command: `if [ "$e" = PermissionRequest ]; then\n  echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}'\nfi`,
      },
    ],
    expected: [
      {
        at: '\\"PermissionRequest\\"',
        after: 'echo',
        message: /Unexpected `hookEventName: "PermissionRequest"` in the output of a PreToolUse hook/,
      },
      { at: '\\"decision\\"', severity: 'warning', message: /Unexpected `hookSpecificOutput.decision`: PreToolUse does not read it/ },
    ],
  },
  {
    name: 'printf printing a literal argument through %s',
    handlers: [{ event: 'PreToolUse', command: `printf '%s\\n' '{"decision": "deny"}'` }],
    expected: [{ at: '\\"deny\\"', message: /Invalid `decision` "deny": PreToolUse decides/ }],
  },
  {
    name: 'text after the object',
    handlers: [{ event: 'Stop', command: `echo '{"decision": "block", "reason": "a"}}'` }],
    expected: [{ at: '}', after: "}'", message: /Invalid JSON in the hook's output \(end of file expected\)/ }],
  },
  {
    name: 'a key written twice: the last value is the one read, and the one shown',
    handlers: [{ event: 'Stop', command: `echo '{"decision": "block", "reason": "a", "decision": "deny"}'` }],
    expected: [{ at: '\\"deny\\"', message: /Invalid `decision` "deny": the only value is "block"/ }],
  },
  {
    name: 'a dynamic decision does not hide a wrong permissionDecision',
    handlers: [
      {
        event: 'PreToolUse',
        command: `echo "{\\"decision\\": \\"$LEGACY\\", \\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"permissionDecision\\": \\"block\\"}}"`,
      },
    ],
    expected: [{ at: '\\\\\\"block\\\\\\"', message: /Invalid `permissionDecision` "block"/ }],
  },
  {
    name: 'a quoted value can never be the boolean continue needs, whatever fills it in',
    handlers: [{ event: 'Stop', command: `echo "{\\"continue\\": \\"$GO\\"}"` }],
    expected: [{ at: '\\\\\\"$GO\\\\\\"', message: /Invalid `continue`: expected true or false, got "…"/ }],
  },
  {
    name: 'fields inside hookSpecificOutput of the wrong type: context as a list, a quoted boolean, a path as one string',
    handlers: [
      {
        event: 'SessionStart',
        command: `echo "{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"SessionStart\\", \\"additionalContext\\": [\\"a\\"], \\"reloadSkills\\": \\"$R\\", \\"watchPaths\\": \\"/x\\"}}"`,
      },
    ],
    expected: [
      { at: '[\\\\\\"a\\\\\\"]', message: /Invalid `additionalContext`: expected a string, got \["a"\]/ },
      { at: '\\\\\\"$R\\\\\\"', message: /Invalid `reloadSkills`: expected true or false, got "…"/ },
      { at: '\\\\\\"/x\\\\\\"', message: /Invalid `watchPaths`: expected an array of strings, got "\/x"/ },
    ],
  },
  {
    name: 'updatedInput that is not an object, and a top-level reason the event does not read but whose type is still wrong',
    handlers: [
      {
        event: 'PreToolUse',
        command: `echo '{"reason": 1, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": "ls"}}'`,
      },
    ],
    expected: [
      { at: '1', after: 'reason', message: /Invalid `reason`: expected a string, got 1/ },
      { at: '\\"ls\\"', message: /Invalid `updatedInput`: expected an object, got "ls"/ },
    ],
  },
  {
    name: 'a field the event reads nowhere, with advice that does not send it elsewhere',
    handlers: [{ event: 'PermissionRequest', command: `echo '{"permissionDecision": "deny"}'` }],
    expected: [{ at: '\\"permissionDecision\\"', message: /PermissionRequest does not read it, here or inside `hookSpecificOutput`/ }],
  },
  {
    name: 'an unknown permissionDecision beside a printf conversion',
    handlers: [
      {
        event: 'PreToolUse',
        command: `printf '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "block", "permissionDecisionReason": "%s"}}' "$cmd"`,
      },
    ],
    expected: [{ at: '\\"block\\"', message: /Invalid `permissionDecision` "block": expected deny, defer, ask, allow/ }],
  },
  {
    name: 'no hookEventName in an unquoted here-document',
    handlers: [
      {
        event: 'PreToolUse',
        command: `cat <<EOF\n{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "$cmd"}}\nEOF`,
      },
    ],
    expected: [{ at: '\\"hookSpecificOutput\\"', message: /Expected `hookSpecificOutput.hookEventName: "PreToolUse"`; it is missing/ }],
  },
  {
    name: 'a trailing comma in a whole object',
    handlers: [
      { event: 'PreToolUse', command: `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",}}'` },
    ],
    expected: [{ at: '}', after: '\\"deny\\",', message: /Invalid JSON in the hook's output \(property name expected\)/ }],
  },
  {
    name: 'Stop blocking without a reason',
    handlers: [{ event: 'Stop', command: `jq -e .stop_hook_active >/dev/null && exit 0\necho '{"decision": "block"}'` }],
    expected: [{ at: '\\"decision\\"', message: /Expected `reason` with `decision: "block"`: Stop needs it/ }],
  },
  {
    name: 'PreModelSwitch has no defer',
    handlers: [
      {
        event: 'PreModelSwitch',
        command: `echo '{"hookSpecificOutput": {"hookEventName": "PreModelSwitch", "permissionDecision": "defer"}}'`,
      },
    ],
    expected: [{ at: '\\"defer\\"', message: /Invalid `permissionDecision` "defer": expected deny, ask, allow/ }],
  },
  {
    name: 'the deprecated approve, as a warning',
    handlers: [{ event: 'PreToolUse', command: `echo '{"decision": "approve"}'` }],
    expected: [{ at: '\\"decision\\"', severity: 'warning', message: /Unexpected deprecated `decision: "approve"` on PreToolUse/ }],
  },
  {
    name: 'continue: false where the event discards it, as a warning that says how to block instead',
    handlers: [{ event: 'ConfigChange', command: `echo '{"continue": false, "stopReason": "no"}'` }],
    expected: [
      {
        at: '\\"continue\\"',
        severity: 'warning',
        message: /Unexpected `continue: false` on ConfigChange: Claude Code discards it, so nothing stops; block with `decision: "block"`/,
      },
    ],
  },
  {
    name: 'JSON where WorktreeCreate wants a path',
    handlers: [
      { event: 'WorktreeCreate', command: `echo '{"hookSpecificOutput": {"hookEventName": "WorktreeCreate", "worktreePath": "/tmp/wt"}}'` },
    ],
    expected: [
      {
        at: '{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"WorktreeCreate\\", \\"worktreePath\\": \\"/tmp/wt\\"}}',
        severity: 'warning',
        message: /^Unexpected JSON on WorktreeCreate's stdout: a command hook answers with the new worktree's path/,
      },
    ],
  },
  {
    name: 'a systemMessage no one sees, as info',
    handlers: [{ event: 'Notification', command: `echo '{"systemMessage": "done"}'` }],
    expected: [
      { at: '\\"systemMessage\\"', severity: 'info', message: /Unexpected `systemMessage` on Notification: Claude Code discards it/ },
    ],
  },
  {
    name: 'a field with no effect, as info',
    handlers: [{ event: 'PostToolUse', command: `echo '{"suppressOutput": true}'` }],
    expected: [{ at: '\\"suppressOutput\\"', severity: 'info', message: /it is accepted but has no effect/ }],
  },
  {
    name: 'fields the event does not read, as warnings',
    handlers: [
      {
        event: 'PreToolUse',
        command: `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "updatedToolOutput": "x"}, "verdict": 1}'`,
      },
    ],
    expected: [
      {
        at: '\\"updatedToolOutput\\"',
        severity: 'warning',
        message: /Unexpected `hookSpecificOutput.updatedToolOutput`: PreToolUse does not read it/,
      },
      { at: '\\"verdict\\"', severity: 'warning', message: /Unexpected field `verdict` in the output/ },
    ],
  },
  {
    name: 'a concatenation of quoted parts',
    handlers: [{ event: 'UserPromptSubmit', command: `echo '{"decision": "deny", "reason": "'"$why"'"}'` }],
    expected: [{ at: '\\"deny\\"', message: /Invalid `decision` "deny": the only value is "block"/ }],
  },
];

export const accept: { name: string; handlers: Handler[] }[] = [
  ...runTimeValueAccepts,
  {
    name: 'a variable set twice is not read as either value',
    handlers: [{ event: 'PreToolUse', command: `OUT='{"decision": "deny"}'; [ -n "$X" ] && OUT='{}'; echo "$OUT"` }],
  },
  {
    name: 'the documented PreToolUse denial',
    handlers: [
      {
        event: 'PreToolUse',
        command: `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}'`,
      },
    ],
  },
  {
    name: 'a decision the shell fills in',
    handlers: [
      {
        event: 'PreToolUse',
        command: `echo "{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"permissionDecision\\": \\"$D\\"}}"`,
      },
    ],
  },
  {
    name: 'an event name the shell fills in, with the rest right for the event',
    handlers: [
      {
        event: 'PreToolUse',
        command: `printf '{"hookSpecificOutput": {"hookEventName": "%s", "permissionDecision": "ask"}}' "$EVENT"`,
      },
    ],
  },
  {
    name: 'a raw value the shell fills in, of a type not known',
    handlers: [{ event: 'Stop', command: `echo "{\\"continue\\": $GO, \\"stopReason\\": \\"done\\", \\"systemMessage\\": $Q}"` }],
  },
  { name: 'members the shell splices in', handlers: [{ event: 'PreToolUse', command: `echo "{\\"decison\\": 1, $REST}"` }] },
  { name: 'a key the shell fills in', handlers: [{ event: 'PreToolUse', command: `echo "{\\"$KEY\\": \\"deny\\"}"` }] },
  {
    name: 'an object printed line by line',
    handlers: [{ event: 'PreToolUse', command: `echo '{'\necho '"decision": "deny",'\necho '}'` }],
  },
  { name: 'output to stderr', handlers: [{ event: 'PreToolUse', command: `echo '{"decision": "deny"}' >&2` }] },
  { name: 'output captured', handlers: [{ event: 'PreToolUse', command: `x=$(echo '{"decision": "deny"}')` }] },
  { name: 'output piped on', handlers: [{ event: 'PreToolUse', command: `echo '{"decision": "deny"}' | jq .` }] },
  // Captured output that is not the print alone, or that goes elsewhere, is not read.
  { name: 'a captured pipeline', handlers: [{ event: 'PreToolUse', command: `echo "$(echo '{"decision": "deny"}' | jq -c .)"` }] },
  { name: 'a captured print sent to stderr', handlers: [{ event: 'PreToolUse', command: `echo "$(jq -n '{decision: "deny"}' >&2)"` }] },
  { name: 'a captured print in a longer word', handlers: [{ event: 'PreToolUse', command: `echo "x$(jq -n '{decision: "deny"}')"` }] },
  {
    name: 'a variable assigned a captured print twice',
    handlers: [{ event: 'PreToolUse', command: `o=$(jq -n '{decision: "deny"}'); [ -n "$X" ] && o=$(jq -n '{}'); echo "$o"` }],
  },
  { name: 'echo -e with escapes', handlers: [{ event: 'PreToolUse', command: `echo -e '{"decision":\\t"deny"}'` }] },
  { name: 'a printf format used again for extra values', handlers: [{ event: 'PreToolUse', command: `printf '{"decision": "%s"}' a b` }] },
  { name: 'an async hook', handlers: [{ event: 'PreToolUse', command: `echo '{"decision": "deny"}'`, async: true }] },
  {
    name: 'UserPromptSubmit blocking with a reason',
    handlers: [{ event: 'UserPromptSubmit', command: `echo '{"decision": "block", "reason": "no"}'` }],
  },
  {
    name: 'a quoted here-document',
    handlers: [
      {
        event: 'PreToolUse',
        command: `cat <<'EOF'\n{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "$y"}}\nEOF`,
      },
    ],
  },
  { name: 'an asyncRewake hook', handlers: [{ event: 'PreToolUse', command: `echo '{"decision": "deny"}'`, asyncRewake: true }] },
  {
    name: 'a here-document written to a file, to stderr, or piped on',
    handlers: [
      {
        event: 'PreToolUse',
        command: `cat <<EOF > "$STATE"\n{"failures": 3}\nEOF\ncat <<EOF >&2\n{"decision": "deny"}\nEOF\ncat <<EOF | curl -d @- "$HOOK_URL"\n{"text": "done"}\nEOF`,
      },
    ],
  },
  {
    name: 'JSON nested thousands of levels deep (not read, no crash)',
    handlers: [{ event: 'Stop', command: `echo '{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}'` }],
  },
  {
    name: 'a dynamic decision beside a right permissionDecision',
    handlers: [
      {
        event: 'PreToolUse',
        command: `echo "{\\"decision\\": \\"$LEGACY\\", \\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"permissionDecision\\": \\"ask\\"}}"`,
      },
    ],
  },
  { name: 'text that is not JSON', handlers: [{ event: 'PreToolUse', command: `echo '{not json'` }] },
];
