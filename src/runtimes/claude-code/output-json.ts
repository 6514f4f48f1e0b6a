import { own } from '../../records.js';
import {
  DISCARDED_OUTPUT_FIELDS,
  HOOK_SPECIFIC_FIELDS,
  OUTPUT_FIELD_TYPES,
  PERMISSION_DECISIONS_OF,
  TOP_LEVEL_BLOCK_EVENTS,
  TOP_LEVEL_EXTRA_FIELDS,
  UNIVERSAL_OUTPUT_FIELDS,
} from './contract.js';
import type { Decision } from './verdict.js';
import { stringifyJson } from '../../text/control-chars.js';

/**
 * A handler's JSON output checked against Claude Code's output schema
 * (../shared/runtimes/claude-code-hooks.md §5.4): what it decides, and what
 * is wrong with it. "Invalid" is what Claude Code rejects whole (a
 * non-blocking hook error); fields at the wrong level or unknown are only
 * ignored, which for a guard is just as silent.
 */

export interface OutputProblem {
  /** Short kebab id: `wrong-level`, `event-name-mismatch`, `deprecated-decision`, ... */
  id: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** For a problem inside the JSON object: the keys down to the field it is about (empty: the object itself). */
  path?: string[];
}

export interface CheckedOutput {
  /** Claude Code would accept the object (its decision is acted on). */
  valid: boolean;
  decision?: Decision;
  /** The reason that goes with the decision. */
  reason?: string;
  /** The reason exit 2 would use instead of stderr (§5.1: the JSON's blocking reason if there is one). */
  blockingReason?: string;
  stop?: { reason?: string };
}

/** Fields that mean something only inside `hookSpecificOutput`, whichever event. */
const NESTED_ONLY = new Set([
  'hookEventName',
  'permissionDecision',
  'permissionDecisionReason',
  'updatedInput',
  'additionalContext',
  'updatedToolOutput',
  'updatedMCPToolOutput',
  'sessionTitle',
  'watchPaths',
  'displayContent',
  'initialUserMessage',
]);

const TOP_ONLY = new Set([...UNIVERSAL_OUTPUT_FIELDS, 'reason', 'suppressOriginalPrompt']);

export function checkOutputJson(event: string, json: Record<string, unknown>, problems: OutputProblem[]): CheckedOutput {
  // A property, not a local: `invalid` flips it from inside a closure.
  const state: { valid: boolean } = { valid: true };
  const invalid = (id: string, path: string[], message: string): void => {
    state.valid = false;
    problems.push({ id, severity: 'error', message: `${message} Claude Code rejects the output (a non-blocking hook error).`, path });
  };
  const result: CheckedOutput = { valid: true };

  const topLevel = new Set([...UNIVERSAL_OUTPUT_FIELDS, ...(own(TOP_LEVEL_EXTRA_FIELDS, event) ?? []), 'hookSpecificOutput']);
  const readsDecision = TOP_LEVEL_BLOCK_EVENTS.has(event) || event === 'PreToolUse';
  if (readsDecision) topLevel.add('decision').add('reason');
  for (const key of Object.keys(json)) {
    if (topLevel.has(key)) continue;
    if (NESTED_ONLY.has(key))
      problems.push({
        id: 'wrong-level',
        severity: 'error',
        path: [key],
        // Said only where the event reads it there: moving a field no part of this event's output has would not help.
        message:
          key === 'hookEventName' || (own(HOOK_SPECIFIC_FIELDS, event) ?? []).includes(key)
            ? `Unexpected \`${key}\` at the top level: it is read only inside \`hookSpecificOutput\` (with \`hookEventName: "${event}"\`), so Claude Code ignores it.`
            : `Unexpected \`${key}\` at the top level: ${event} does not read it, here or inside \`hookSpecificOutput\`, so Claude Code ignores it.`,
      });
    else if (key === 'decision' || key === 'reason')
      problems.push({
        id: 'unknown-field',
        severity: 'warning',
        path: [key],
        message: `Unexpected \`${key}\`: ${event} does not read a top-level ${key}; it is ignored.`,
      });
    else
      problems.push({
        id: 'unknown-field',
        severity: 'warning',
        path: [key],
        message: `Unexpected field \`${key}\` in the output: Claude Code does not know it and ignores it.`,
      });
  }
  if ('suppressOutput' in json)
    problems.push({
      id: 'deprecated-field',
      severity: 'info',
      path: ['suppressOutput'],
      message: 'Unexpected `suppressOutput`: it is accepted but has no effect in current Claude Code.',
    });
  checkTypes(json, TYPED_TOP_LEVEL, [], invalid);
  if (json.continue === false && DISCARDED_OUTPUT_FIELDS.continue.has(event))
    problems.push({
      id: 'discarded-field',
      severity: 'warning',
      path: ['continue'],
      message: `Unexpected \`continue: false\` on ${event}: Claude Code discards it, so nothing stops${
        TOP_LEVEL_BLOCK_EVENTS.has(event) ? '; block with `decision: "block"` and a `reason`' : ''
      }.`,
    });
  else if (json.continue === false) result.stop = typeof json.stopReason === 'string' ? { reason: json.stopReason } : {};
  if (typeof json.systemMessage === 'string' && DISCARDED_OUTPUT_FIELDS.systemMessage.has(event))
    problems.push({
      id: 'discarded-field',
      severity: 'info',
      path: ['systemMessage'],
      message: `Unexpected \`systemMessage\` on ${event}: Claude Code discards it, so no one sees it.`,
    });

  // Top-level decision: `block` on the events that read it; on PreToolUse the deprecated approve/block.
  const topDecision = json.decision;
  const topReason = typeof json.reason === 'string' ? json.reason : undefined;
  if (readsDecision && topDecision !== undefined) {
    if (event === 'PreToolUse') {
      if (topDecision === 'approve' || topDecision === 'block') {
        const mapped: Decision = topDecision === 'approve' ? 'allow' : 'deny';
        problems.push({
          id: 'deprecated-decision',
          severity: 'warning',
          path: ['decision'],
          message: `Unexpected deprecated \`decision: "${topDecision}"\` on PreToolUse: it still maps to \`${mapped}\`, but write \`hookSpecificOutput.permissionDecision: "${mapped}"\` with \`permissionDecisionReason\`.`,
        });
        result.decision = mapped;
        if (topReason !== undefined) result.reason = topReason;
      } else
        invalid(
          'invalid-value',
          ['decision'],
          `Invalid \`decision\` ${show(topDecision)}: PreToolUse decides with \`hookSpecificOutput.permissionDecision\`.`,
        );
    } else if (topDecision === 'block') {
      result.decision = 'block';
      if (topReason !== undefined) result.reason = topReason;
      if (topReason === undefined && (event === 'Stop' || event === 'SubagentStop'))
        problems.push({
          id: 'block-without-reason',
          severity: 'error',
          path: ['decision'],
          message: `Expected \`reason\` with \`decision: "block"\`: ${event} needs it to tell Claude how to continue.`,
        });
    } else if (topDecision === 'approve')
      problems.push({
        id: 'deprecated-decision',
        severity: 'warning',
        path: ['decision'],
        message: `Unexpected deprecated \`decision: "approve"\`: it has no effect on ${event}; omit \`decision\` to let the action proceed.`,
      });
    else invalid('invalid-value', ['decision'], `Invalid \`decision\` ${show(topDecision)}: the only value is "block" (omit it to allow).`);
  }

  const specific = json.hookSpecificOutput;
  if (specific !== undefined) {
    if (!specific || typeof specific !== 'object' || Array.isArray(specific)) {
      invalid('invalid-value', ['hookSpecificOutput'], `Invalid \`hookSpecificOutput\`: expected an object, got ${show(specific)}.`);
    } else {
      const nested = specific as Record<string, unknown>;
      const name = nested.hookEventName;
      if (name === undefined)
        invalid('event-name-mismatch', ['hookSpecificOutput'], `Expected \`hookSpecificOutput.hookEventName: "${event}"\`; it is missing.`);
      else if (name !== event)
        invalid(
          'event-name-mismatch',
          ['hookSpecificOutput', 'hookEventName'],
          `Unexpected \`hookEventName: ${show(name)}\` in the output of a ${event} hook.`,
        );
      const known = new Set(own(HOOK_SPECIFIC_FIELDS, event) ?? []);
      for (const key of Object.keys(nested)) {
        if (key === 'hookEventName' || known.has(key)) continue;
        if (TOP_ONLY.has(key) || (key === 'decision' && TOP_LEVEL_BLOCK_EVENTS.has(event)))
          problems.push({
            id: 'wrong-level',
            severity: 'error',
            path: ['hookSpecificOutput', key],
            message: `Unexpected \`${key}\` inside \`hookSpecificOutput\`: it is read at the top level of the output, so Claude Code ignores it.`,
          });
        else
          problems.push({
            id: 'unknown-field',
            severity: 'warning',
            path: ['hookSpecificOutput', key],
            message: `Unexpected \`hookSpecificOutput.${key}\`: ${event} does not read it${known.size ? ` (it reads ${[...known].join(', ')})` : ''}; it is ignored.`,
          });
      }
      checkTypes(nested, known, ['hookSpecificOutput'], invalid);
      if (state.valid && name === event) checkSpecific(event, nested, result, invalid);
    }
  }
  result.valid = state.valid;
  if (result.decision === 'deny' || result.decision === 'block') result.blockingReason = result.reason;
  return result;
}

function checkSpecific(
  event: string,
  nested: Record<string, unknown>,
  result: CheckedOutput,
  invalid: (id: string, path: string[], message: string) => void,
): void {
  const decisions = own(PERMISSION_DECISIONS_OF, event);
  if (decisions && nested.permissionDecision !== undefined) {
    const value = nested.permissionDecision;
    if (typeof value === 'string' && decisions.includes(value)) {
      result.decision = value as Decision;
      if (typeof nested.permissionDecisionReason === 'string') result.reason = nested.permissionDecisionReason;
      else delete result.reason;
    } else
      invalid(
        'invalid-value',
        ['hookSpecificOutput', 'permissionDecision'],
        `Invalid \`permissionDecision\` ${show(value)}: expected ${decisions.join(', ')}.`,
      );
  }
  if (event === 'PermissionRequest' && nested.decision !== undefined) {
    const decision: unknown = nested.decision;
    const fields: Record<string, unknown> = decision && typeof decision === 'object' ? { ...decision } : {};
    const behavior = fields.behavior;
    if (behavior === 'allow' || behavior === 'deny') {
      result.decision = behavior;
      if (typeof fields.message === 'string') result.reason = fields.message;
    } else
      invalid(
        'invalid-value',
        ['hookSpecificOutput', 'decision'],
        `Invalid \`hookSpecificOutput.decision\`: expected { behavior: "allow" | "deny" }, got ${show(nested.decision)}.`,
      );
  }
  if ((event === 'Elicitation' || event === 'ElicitationResult') && nested.action !== undefined) {
    if (nested.action === 'decline' || nested.action === 'cancel') result.decision = 'block';
    else if (nested.action !== 'accept')
      invalid(
        'invalid-value',
        ['hookSpecificOutput', 'action'],
        `Invalid \`action\` ${show(nested.action)}: expected accept, decline or cancel.`,
      );
  }
}

/** Top-level fields are one schema for every event: a `reason` of the wrong type is invalid even where it is not read. */
const TYPED_TOP_LEVEL: ReadonlySet<string> = new Set([
  ...UNIVERSAL_OUTPUT_FIELDS,
  'reason',
  ...Object.values(TOP_LEVEL_EXTRA_FIELDS).flat(),
]);

const EXPECTED_TYPE = { string: 'a string', boolean: 'true or false', object: 'an object', 'string[]': 'an array of strings' } as const;

/** Each field this level reads whose value is not of its type (OUTPUT_FIELD_TYPES). */
function checkTypes(
  fields: Record<string, unknown>,
  read: ReadonlySet<string>,
  at: string[],
  invalid: (id: string, path: string[], message: string) => void,
): void {
  for (const [key, value] of Object.entries(fields)) {
    const type = read.has(key) ? own(OUTPUT_FIELD_TYPES, key) : undefined;
    if (type === undefined) continue;
    const fits =
      type === 'string[]'
        ? Array.isArray(value) && value.every((v) => typeof v === 'string')
        : type === 'object'
          ? typeof value === 'object' && value !== null && !Array.isArray(value)
          : typeof value === type;
    if (!fits) invalid('invalid-value', [...at, key], `Invalid \`${key}\`: expected ${EXPECTED_TYPE[type]}, got ${show(value)}.`);
  }
}

function show(value: unknown): string {
  // JSON.stringify gives undefined for undefined, whatever its declared type says. stringifyJson cuts
  // what a hook nested too deep for JSON.stringify's recursion, and escapes the controls it leaves raw.
  const text = value === undefined ? 'undefined' : stringifyJson(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Whether an object a hook prints decides for itself, whatever the hook's
 * exit code (§5.1: on any code but 2, a schema-valid object with a decision
 * decides alone, so a `deny` printed before `exit 1` still blocks).
 * `unknown` says which strings stand for a value filled in at run time: a
 * decision spelled so (`"permissionDecision": "$DECISION"`) may be one.
 */
export function jsonDecides(event: string, json: unknown, unknown: (value: string) => boolean = () => false): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const record = json as Record<string, unknown>;
  const nested = objectAt(record, 'hookSpecificOutput');
  const decisionFields = [record.decision, nested?.permissionDecision, objectAt(nested, 'decision')?.behavior];
  if (decisionFields.some((value) => typeof value === 'string' && unknown(value))) return true;
  const checked = checkOutputJson(event, record, []);
  return checked.valid && checked.decision !== undefined && checked.decision !== 'none';
}

function objectAt(record: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  const value = record?.[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
