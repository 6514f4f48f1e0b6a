/**
 * Claude Code facts the runner and the verdict need, from
 * ../shared/runtimes/claude-code-hooks.md (section numbers below). They are
 * kept apart only until the runtime's contract module exists on this branch;
 * then they move into it, and this file goes.
 */

/** §2.2: the input field each event's matcher filters on; events absent here take no matcher (it is ignored). */
export const MATCHER_FIELD: Readonly<Record<string, string>> = {
  SessionStart: 'source',
  Setup: 'trigger',
  InstructionsLoaded: 'load_reason',
  UserPromptExpansion: 'command_name',
  PreToolUse: 'tool_name',
  PermissionRequest: 'tool_name',
  PermissionDenied: 'tool_name',
  PostToolUse: 'tool_name',
  PostToolUseFailure: 'tool_name',
  Notification: 'notification_type',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  StopFailure: 'error',
  ConfigChange: 'source',
  DirectoryAdded: 'source',
  // The file's basename, not the whole path (§2.2); event-input.ts derives it.
  FileChanged: 'file_path',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  Elicitation: 'mcp_server_name',
  ElicitationResult: 'mcp_server_name',
  SessionEnd: 'reason',
};

/** §2.3: events whose exact-match set is narrower (letters, digits, `_`, `|`; only `|` separates). */
export const NARROW_EXACT_MATCHER_EVENTS: ReadonlySet<string> = new Set(['FileChanged', 'StopFailure']);

/** Events whose input names a tool (`tool_name`, `tool_input`). */
export const TOOL_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
]);

/** §5.3: events that exit 2 blocks (WorktreeCreate fails on any non-zero exit; PermissionRequest ignores exit 2). */
export const EXIT_2_BLOCKS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'Stop',
  'SubagentStop',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'ConfigChange',
  'PostToolBatch',
  'PreCompact',
  'Elicitation',
  'ElicitationResult',
  'WorktreeCreate',
  // Exit 2 feeds stderr back to Claude after the tool ran (§5.2): not a block of the call, but Claude Code's own "blocking error".
  'PostToolUse',
  'PostToolUseFailure',
]);

/** §5.4: events that read a top-level `decision: "block"` with `reason`. */
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
]);

/** §5.4: fields every event accepts at the top level of the JSON output. */
export const UNIVERSAL_OUTPUT_FIELDS: readonly string[] = ['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'terminalSequence'];

/** §5.4: `hookSpecificOutput` fields per event (besides `hookEventName`), and top-level extras. */
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
};

/** §5.4: top-level fields some events read beyond the universal ones. */
export const TOP_LEVEL_EXTRA_FIELDS: Readonly<Record<string, readonly string[]>> = {
  UserPromptSubmit: ['suppressOriginalPrompt'],
};

/** §5.4 PreToolUse values of `permissionDecision`, most restrictive first (§3.3 merge order). */
export const PERMISSION_DECISIONS = ['deny', 'defer', 'ask', 'allow'] as const;

/** §2.4: default timeout of a `command` handler in seconds, and the events that lower it. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 600;
export const EVENT_COMMAND_TIMEOUT_SECONDS: Readonly<Record<string, number>> = {
  UserPromptSubmit: 30,
  MessageDisplay: 10,
  // SessionEnd hooks share a 1.5 s budget unless a settings hook's own timeout raises it (§2.4).
  SessionEnd: 1.5,
};

/** §4.1: events whose input carries no `permission_mode` in the documented examples. */
export const NO_PERMISSION_MODE_EVENTS: ReadonlySet<string> = new Set([
  'SessionStart',
  'Setup',
  'InstructionsLoaded',
  'MessageDisplay',
  'Notification',
  'SubagentStart',
  'StopFailure',
  'ConfigChange',
  'CwdChanged',
  'DirectoryAdded',
  'FileChanged',
  'WorktreeCreate',
  'WorktreeRemove',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
]);
