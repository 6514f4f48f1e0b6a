/**
 * Claude Code's contract, output side (../shared/runtimes/claude-code-hooks.md §5): what a handler's
 * stdout JSON may say, per event, and how exit codes and decisions combine. Part of the runtime's one
 * contract: `contract.ts` re-exports it, and rules and the executor import it from there.
 */
import { eventSpec } from './events.js';

/** Events that read a top-level `decision: "block"` with `reason` (§5.4). */
export const TOP_LEVEL_BLOCK_EVENTS: ReadonlySet<string> = new Set([
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
  'ConfigChange',
  'PreCompact',
  'TaskCreated',
  // §9: "or a top-level `decision: \"block\"`".
  'PreModelSwitch',
]);

/**
 * Whether exit 2 is a blocking error on this event: the events it blocks
 * (§5.3), and the post-tool events, where it feeds stderr back to Claude as
 * `decision: "block"` does (the tool already ran).
 */
export function exit2Blocks(event: string): boolean {
  const block = eventSpec(event)?.block;
  return block === 'exit2-or-json' || block === 'any-nonzero' || (TOP_LEVEL_BLOCK_EVENTS.has(event) && block !== 'json-only');
}

/**
 * Why this firing of an event cannot be blocked although the event can, or
 * undefined when it can: a ConfigChange whose `source` is `policy_settings`
 * (a managed policy file) cannot be blocked, by exit 2 or by a JSON decision
 * (§2.2 "yes (except `policy_settings`)", §5.3).
 */
export function blockExemption(event: string, input: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (event === 'ConfigChange' && input?.source === 'policy_settings')
    return 'a ConfigChange from `policy_settings` (managed policy) cannot be blocked: the change applies anyway';
  return undefined;
}

/** Fields every event accepts at the top level of the JSON output (§5.4). */
export const UNIVERSAL_OUTPUT_FIELDS: readonly string[] = ['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'terminalSequence'];

/** `hookSpecificOutput` fields per event besides `hookEventName` (§5.4). */
export const HOOK_SPECIFIC_FIELDS: Readonly<Record<string, readonly string[]>> = {
  PreToolUse: ['permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext'],
  PermissionRequest: ['decision'],
  PermissionDenied: ['retry'],
  PostToolUse: ['additionalContext', 'updatedToolOutput', 'updatedMCPToolOutput', 'classifierContext'],
  PostToolUseFailure: ['additionalContext'],
  PostToolBatch: ['additionalContext'],
  UserPromptSubmit: ['additionalContext', 'sessionTitle'],
  UserPromptExpansion: ['additionalContext'],
  SessionStart: ['additionalContext', 'initialUserMessage', 'sessionTitle', 'watchPaths', 'reloadSkills'],
  Setup: ['additionalContext'],
  SubagentStart: ['additionalContext'],
  Stop: ['additionalContext'],
  SubagentStop: ['additionalContext'],
  CwdChanged: ['watchPaths'],
  FileChanged: ['watchPaths'],
  MessageDisplay: ['displayContent'],
  WorktreeCreate: ['worktreePath'],
  Elicitation: ['action', 'content'],
  ElicitationResult: ['action', 'content'],
  // §9: allow, deny or ask; no defer, updatedInput or additionalContext. PostModelSwitch may add context.
  PreModelSwitch: ['permissionDecision', 'permissionDecisionReason'],
  PostModelSwitch: ['additionalContext'],
};

/**
 * Events that discard a universal field (§5.2): `continue: false` stops nothing there (TaskCreated
 * ignores it; CwdChanged and FileChanged show `systemMessage` but drop `continue`), and
 * `systemMessage` reaches no one.
 */
export const DISCARDED_OUTPUT_FIELDS: Readonly<Record<'continue' | 'systemMessage', ReadonlySet<string>>> = (() => {
  const both = [
    'ConfigChange',
    'Elicitation',
    'ElicitationResult',
    'Notification',
    'StopFailure',
    'InstructionsLoaded',
    'MessageDisplay',
    'PreCompact',
    'PostCompact',
    'SessionEnd',
    'WorktreeRemove',
    'WorktreeCreate',
  ];
  return { continue: new Set([...both, 'TaskCreated', 'CwdChanged', 'FileChanged']), systemMessage: new Set(both) };
})();

/** Top-level fields some events read beyond the universal ones (§5.4). */
export const TOP_LEVEL_EXTRA_FIELDS: Readonly<Record<string, readonly string[]>> = { UserPromptSubmit: ['suppressOriginalPrompt'] };

/**
 * The JSON type of each output field whose type §5.4 fixes, at the top level or inside
 * `hookSpecificOutput` (the same name has the same type on every event that reads it). A value of
 * another type makes the output schema-invalid: on exit 0 a non-blocking error, the output ignored
 * (§5.3). Fields with their own checks (`permissionDecision`, `decision`, `action`) and those whose
 * shape is the tool's (`updatedToolOutput`, `updatedMCPToolOutput`) are not listed.
 */
export const OUTPUT_FIELD_TYPES: Readonly<Record<string, 'string' | 'boolean' | 'object' | 'string[]'>> = {
  continue: 'boolean',
  stopReason: 'string',
  suppressOutput: 'boolean',
  systemMessage: 'string',
  terminalSequence: 'string',
  reason: 'string',
  suppressOriginalPrompt: 'boolean',
  permissionDecisionReason: 'string',
  updatedInput: 'object',
  additionalContext: 'string',
  retry: 'boolean',
  classifierContext: 'string',
  sessionTitle: 'string',
  initialUserMessage: 'string',
  watchPaths: 'string[]',
  reloadSkills: 'boolean',
  displayContent: 'string',
  worktreePath: 'string',
  content: 'object',
};

/** PreToolUse `permissionDecision` values, most restrictive first: the order Claude Code merges them in (§3.3). */
export const PERMISSION_DECISIONS = ['deny', 'defer', 'ask', 'allow'] as const;

/** `permissionDecision` values per event that reads one (§5.4; PreModelSwitch has no `defer`, §9). */
export const PERMISSION_DECISIONS_OF: Readonly<Record<string, readonly string[]>> = {
  PreToolUse: PERMISSION_DECISIONS,
  PreModelSwitch: ['deny', 'ask', 'allow'],
};

/**
 * Why an `ask` counts as a refusal on this firing, or undefined when the user
 * is asked: on PreModelSwitch only an interactive `/model` can show `ask`
 * (§9). Read as the input's `source`: `command` (`/model NAME`) and `picker`
 * (the `/model` picker) are interactive; `sdk` and anything else are not.
 */
export function askRefusedBecause(event: string, input: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (event !== 'PreModelSwitch') return undefined;
  const source = input?.source;
  if (source === 'command' || source === 'picker') return undefined;
  return `only an interactive \`/model\` can ask, so on a switch from source ${JSON.stringify(source ?? null)} \`ask\` counts as a refusal`;
}

/**
 * WorktreeCreate's command hook answers with the new worktree's path, not JSON: the last non-empty
 * line of its stdout, ANSI escapes stripped (§5.2; `worktreePath` in §5.4 is the HTTP hook's answer).
 * An absolute path with `.` or `..` segments is refused (v2.1.216).
 */
export const PATH_OUTPUT_EVENT = 'WorktreeCreate';

// eslint-disable-next-line no-control-regex -- stripping them is the point
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** The path a WorktreeCreate command hook printed, or undefined when it printed none. */
export function worktreePathOf(stdout: string): string | undefined {
  return stdout
    .replace(ANSI, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}

/** What is wrong with a printed worktree path: `refused` when Claude Code refuses it, else a doubt; undefined when it is fine. */
export function worktreePathProblem(path: string): { refused: boolean; why: string } | undefined {
  if (path.startsWith('/') && path.split('/').some((segment) => segment === '.' || segment === '..'))
    return { refused: true, why: 'an absolute path with `.` or `..` segments is refused (since v2.1.216)' };
  if (path.startsWith('{'))
    return { refused: false, why: "it is JSON, but a command hook prints the path itself (`worktreePath` is an HTTP hook's answer)" };
  if (!path.startsWith('/')) return { refused: false, why: 'it is not an absolute path' };
  return undefined;
}
