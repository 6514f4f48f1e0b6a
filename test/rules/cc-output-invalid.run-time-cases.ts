// cc-output-invalid's cases for JSON with values known only at run time: built by `jq -n`, or with a
// member's value filled in raw by the shell (cc-output-invalid.cases.ts runs them with the others).
import type { Expected, Handler } from './cc-output-invalid.cases.js';

export const runTimeValueRejects: { name: string; handlers: Handler[]; expected: Expected[] }[] = [
  // `jq -n` builds the JSON from its filter: bare keys, jq strings, and values known only at run time.
  {
    name: 'jq -n with a value PreToolUse does not know',
    handlers: [
      {
        event: 'PreToolUse',
        command: `jq -n --arg r "$R" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "block", permissionDecisionReason: $r}}'`,
      },
    ],
    expected: [{ at: '\\"block\\"', message: /Invalid `permissionDecision` "block"/ }],
  },
  {
    name: 'jq -nc with a bare key at the wrong level',
    handlers: [{ event: 'PreToolUse', command: `jq -nc '{permissionDecision: "deny", reason: .r}'` }],
    expected: [{ at: 'permissionDecision', message: /Unexpected `permissionDecision` at the top level/ }],
  },
  {
    name: 'jq -n naming another event, its options after the filter',
    handlers: [
      {
        event: 'PreToolUse',
        command: `jq -n '{hookSpecificOutput: {hookEventName: "PostToolUse", additionalContext: "\\($c)"}}' --arg c x`,
      },
    ],
    expected: [{ at: '\\"PostToolUse\\"', message: /Unexpected `hookEventName: "PostToolUse"` in the output of a PreToolUse hook/ }],
  },
  // A raw value the shell fills in is a value of any type: the rest of the object is still judged.
  {
    name: 'a raw value beside a wrong field',
    handlers: [
      {
        event: 'PreToolUse',
        command: `echo "{\\"continue\\": $GO, \\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"permissionDecision\\": \\"block\\", \\"updatedInput\\": $NEW}}"`,
      },
    ],
    expected: [{ at: '\\\\\\"block\\\\\\"', message: /Invalid `permissionDecision` "block"/ }],
  },
];

export const runTimeValueAccepts: { name: string; handlers: Handler[] }[] = [
  {
    name: 'jq -n values of any type: --argjson, an expression, an unknown variable',
    handlers: [
      { event: 'Stop', command: `jq -n --argjson c "$C" '{continue: $c, decision: $d, reason: ("x: " + $r), systemMessage: .q}'` },
    ],
  },
  {
    name: 'jq -n with an interpolated reason and the documented denial',
    handlers: [
      {
        event: 'PreToolUse',
        command: `jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no \\(.x)"}}'`,
      },
    ],
  },
  {
    name: 'jq whose output is not the object (piped on, no -n, a filter file)',
    handlers: [
      { event: 'PreToolUse', command: `jq -n '{permissionDecision: 1} | tojson'` },
      { event: 'PreToolUse', command: `jq '{permissionDecision: 1}'` },
      { event: 'PreToolUse', command: `jq -n -f filter.jq` },
      { event: 'PreToolUse', command: `jq -n '{(.k): 1}'` },
    ],
  },
];
