/**
 * Claude Code's hook events: which take a matcher and on which input field,
 * which handler types each allows, whether and how each can block, and the
 * fields of its stdin JSON. From ../shared/runtimes/claude-code-hooks.md §2.2,
 * §4 and §5.3 (docs as of v2.1.240; the model-switch events from v2.1.251).
 * The rest of the contract is in contract.ts, which re-exports this.
 */

export type HandlerType = 'command' | 'http' | 'mcp_tool' | 'prompt' | 'agent';
export const HANDLER_TYPES: readonly HandlerType[] = ['command', 'http', 'mcp_tool', 'prompt', 'agent'];

/** How an event's hook can stop what is happening. */
export type BlockMode =
  /** Cannot block: exit codes and decisions are ignored. */
  | 'none'
  /** Exit 2 blocks, and so does a JSON decision. */
  | 'exit2-or-json'
  /** Only a JSON decision blocks (exit 2 is not honoured: PermissionRequest in the current docs). */
  | 'json-only'
  /** Any non-zero exit fails the operation (WorktreeCreate). */
  | 'any-nonzero';

export interface EventSpec {
  name: string;
  /** The input field a matcher is compared with; undefined: the event takes no matcher (one set is silently ignored). */
  matcherField?: string;
  /** Documented matcher values, for advice; tool events accept any tool name. */
  matcherValues?: readonly string[];
  types: readonly HandlerType[];
  block: BlockMode;
  /** The JSON output that refuses, in words, for messages. */
  jsonDecision?: string;
  /** `if` is evaluated only on these events; elsewhere a handler with `if` never runs. */
  toolEvent: boolean;
  /** Fields of the stdin JSON beyond the common ones. */
  input: readonly string[];
  /** Plain stdout on exit 0 reaches Claude's context (otherwise it goes to the debug log). */
  stdoutToContext?: boolean;
  /** Added after the docs snapshot (v2.1.251), known from the changelog and third parties only. */
  unverified?: boolean;
}

const ALL: readonly HandlerType[] = HANDLER_TYPES;
const CHM: readonly HandlerType[] = ['command', 'http', 'mcp_tool'];
const CM: readonly HandlerType[] = ['command', 'mcp_tool'];
export const TOOL_NAMES = [
  'Bash',
  'PowerShell',
  'Edit',
  'Write',
  'Read',
  'Glob',
  'Grep',
  'Agent',
  'Task',
  'WebFetch',
  'WebSearch',
  'AskUserQuestion',
  'ExitPlanMode',
  'NotebookEdit',
  'MultiEdit',
  'TodoWrite',
] as const;
/**
 * `tool_input`'s fields by tool (§4.2's table). Tools the table leaves out
 * (MCP tools, `NotebookEdit`, `TodoWrite`…) are not listed: their fields are not known here.
 */
export const TOOL_INPUT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Bash: ['command', 'description', 'timeout', 'run_in_background'],
  PowerShell: ['command', 'description', 'timeout', 'run_in_background'],
  Write: ['file_path', 'content'],
  Edit: ['file_path', 'old_string', 'new_string', 'replace_all'],
  Read: ['file_path', 'offset', 'limit'],
  Glob: ['pattern', 'path'],
  Grep: ['pattern', 'path', 'glob', 'output_mode', '-i', 'multiline'],
  WebFetch: ['url', 'prompt'],
  WebSearch: ['query', 'allowed_domains', 'blocked_domains'],
  Agent: ['prompt', 'description', 'subagent_type', 'model'],
  AskUserQuestion: ['questions', 'answers'],
  ExitPlanMode: ['plan', 'planFilePath'],
};
const TOOL_INPUT = ['tool_name', 'tool_input', 'tool_use_id'] as const;
const PRE_TOOL_DECISION = 'hookSpecificOutput.permissionDecision: "deny"';
const BLOCK_DECISION = 'decision: "block"';

export const EVENTS: readonly EventSpec[] = [
  {
    name: 'SessionStart',
    matcherField: 'source',
    matcherValues: ['startup', 'resume', 'clear', 'compact', 'fork'],
    types: CM,
    block: 'none',
    toolEvent: false,
    input: ['source', 'model', 'session_title', 'agent_type'],
    stdoutToContext: true,
  },
  {
    name: 'Setup',
    matcherField: 'trigger',
    matcherValues: ['init', 'maintenance'],
    types: CM,
    block: 'none',
    toolEvent: false,
    input: ['trigger'],
  },
  {
    name: 'InstructionsLoaded',
    matcherField: 'load_reason',
    matcherValues: ['session_start', 'nested_traversal', 'path_glob_match', 'include', 'compact'],
    types: CHM,
    block: 'none',
    toolEvent: false,
    input: ['file_path', 'memory_type', 'load_reason', 'globs', 'trigger_file_path', 'parent_file_path'],
  },
  {
    name: 'UserPromptSubmit',
    types: ALL,
    block: 'exit2-or-json',
    jsonDecision: BLOCK_DECISION,
    toolEvent: false,
    input: ['prompt'],
    stdoutToContext: true,
  },
  {
    name: 'UserPromptExpansion',
    matcherField: 'command_name',
    types: ALL,
    block: 'exit2-or-json',
    jsonDecision: BLOCK_DECISION,
    toolEvent: false,
    input: ['expansion_type', 'command_name', 'command_args', 'command_source', 'prompt'],
    stdoutToContext: true,
  },
  { name: 'MessageDisplay', types: CHM, block: 'none', toolEvent: false, input: ['turn_id', 'message_id', 'index', 'final', 'delta'] },
  {
    name: 'PreToolUse',
    matcherField: 'tool_name',
    matcherValues: TOOL_NAMES,
    types: ALL,
    block: 'exit2-or-json',
    jsonDecision: PRE_TOOL_DECISION,
    toolEvent: true,
    input: TOOL_INPUT,
  },
  {
    name: 'PermissionRequest',
    matcherField: 'tool_name',
    matcherValues: TOOL_NAMES,
    types: ALL,
    block: 'json-only',
    jsonDecision: 'hookSpecificOutput.decision.behavior: "deny"',
    toolEvent: true,
    input: ['tool_name', 'tool_input', 'permission_suggestions'],
  },
  {
    name: 'PermissionDenied',
    matcherField: 'tool_name',
    matcherValues: TOOL_NAMES,
    types: ALL,
    block: 'none',
    toolEvent: true,
    input: [...TOOL_INPUT, 'reason'],
  },
  {
    name: 'PostToolUse',
    matcherField: 'tool_name',
    matcherValues: TOOL_NAMES,
    types: ALL,
    block: 'none',
    toolEvent: true,
    input: [...TOOL_INPUT, 'tool_response', 'duration_ms'],
  },
  {
    name: 'PostToolUseFailure',
    matcherField: 'tool_name',
    matcherValues: TOOL_NAMES,
    types: ALL,
    block: 'none',
    toolEvent: true,
    input: [...TOOL_INPUT, 'error', 'is_interrupt', 'duration_ms'],
  },
  { name: 'PostToolBatch', types: ALL, block: 'exit2-or-json', jsonDecision: BLOCK_DECISION, toolEvent: false, input: ['tool_calls'] },
  {
    name: 'Notification',
    matcherField: 'notification_type',
    matcherValues: [
      'permission_prompt',
      'idle_prompt',
      'auth_success',
      'elicitation_dialog',
      'elicitation_url_dialog',
      'elicitation_complete',
      'elicitation_response',
      'agent_needs_input',
      'agent_completed',
    ],
    types: CHM,
    block: 'none',
    toolEvent: false,
    input: ['message', 'title', 'notification_type'],
  },
  { name: 'SubagentStart', matcherField: 'agent_type', types: CHM, block: 'none', toolEvent: false, input: ['agent_id', 'agent_type'] },
  {
    name: 'SubagentStop',
    matcherField: 'agent_type',
    types: ALL,
    block: 'exit2-or-json',
    jsonDecision: BLOCK_DECISION,
    toolEvent: false,
    input: [
      'stop_hook_active',
      'agent_id',
      'agent_type',
      'agent_transcript_path',
      'last_assistant_message',
      'background_tasks',
      'session_crons',
    ],
  },
  {
    name: 'TaskCreated',
    types: ALL,
    block: 'exit2-or-json',
    jsonDecision: BLOCK_DECISION,
    toolEvent: false,
    input: ['task_id', 'task_subject', 'task_description', 'teammate_name', 'team_name'],
  },
  {
    name: 'TaskCompleted',
    types: ALL,
    block: 'exit2-or-json',
    jsonDecision: 'continue: false',
    toolEvent: false,
    input: ['task_id', 'task_subject', 'task_description', 'teammate_name', 'team_name'],
  },
  {
    name: 'Stop',
    types: ALL,
    block: 'exit2-or-json',
    jsonDecision: BLOCK_DECISION,
    toolEvent: false,
    input: ['stop_hook_active', 'last_assistant_message', 'background_tasks', 'session_crons'],
  },
  {
    name: 'StopFailure',
    matcherField: 'error',
    matcherValues: [
      'rate_limit',
      'overloaded',
      'authentication_failed',
      'oauth_org_not_allowed',
      'billing_error',
      'invalid_request',
      'model_not_found',
      'server_error',
      'max_output_tokens',
      'unknown',
    ],
    types: CHM,
    block: 'none',
    toolEvent: false,
    input: ['error', 'error_details', 'last_assistant_message'],
  },
  {
    name: 'TeammateIdle',
    types: ALL,
    block: 'exit2-or-json',
    jsonDecision: 'continue: false',
    toolEvent: false,
    input: ['teammate_name', 'team_name'],
  },
  {
    name: 'ConfigChange',
    matcherField: 'source',
    matcherValues: ['user_settings', 'project_settings', 'local_settings', 'policy_settings', 'skills'],
    types: CHM,
    block: 'exit2-or-json',
    jsonDecision: BLOCK_DECISION,
    toolEvent: false,
    input: ['source', 'file_path'],
  },
  { name: 'CwdChanged', types: CHM, block: 'none', toolEvent: false, input: ['old_cwd', 'new_cwd'] },
  {
    name: 'DirectoryAdded',
    matcherField: 'source',
    matcherValues: ['slash_command', 'register_repo_root'],
    types: CHM,
    block: 'none',
    toolEvent: false,
    input: ['directory', 'source'],
  },
  { name: 'FileChanged', matcherField: 'file_path', types: CHM, block: 'none', toolEvent: false, input: ['file_path', 'event'] },
  { name: 'WorktreeCreate', types: CHM, block: 'any-nonzero', toolEvent: false, input: ['name'] },
  { name: 'WorktreeRemove', types: CHM, block: 'none', toolEvent: false, input: ['worktree_path'] },
  {
    name: 'PreCompact',
    matcherField: 'trigger',
    matcherValues: ['manual', 'auto'],
    types: CHM,
    block: 'exit2-or-json',
    jsonDecision: BLOCK_DECISION,
    toolEvent: false,
    input: ['trigger', 'custom_instructions'],
  },
  {
    name: 'PostCompact',
    matcherField: 'trigger',
    matcherValues: ['manual', 'auto'],
    types: CHM,
    block: 'none',
    toolEvent: false,
    input: ['trigger', 'compact_summary'],
  },
  {
    name: 'Elicitation',
    matcherField: 'mcp_server_name',
    types: CHM,
    block: 'exit2-or-json',
    jsonDecision: 'hookSpecificOutput.action: "decline"',
    toolEvent: false,
    input: ['mcp_server_name', 'message', 'mode', 'url', 'elicitation_id', 'requested_schema'],
  },
  {
    name: 'ElicitationResult',
    matcherField: 'mcp_server_name',
    types: CHM,
    block: 'exit2-or-json',
    jsonDecision: 'hookSpecificOutput.action: "decline"',
    toolEvent: false,
    input: ['mcp_server_name', 'action', 'content', 'mode', 'elicitation_id'],
  },
  {
    name: 'SessionEnd',
    matcherField: 'reason',
    matcherValues: ['clear', 'resume', 'logout', 'prompt_input_exit', 'other'],
    types: CHM,
    block: 'none',
    toolEvent: false,
    input: ['reason'],
  },
  {
    name: 'PreModelSwitch',
    matcherField: 'to_model',
    types: CHM,
    block: 'exit2-or-json',
    jsonDecision: `${PRE_TOOL_DECISION} or ${BLOCK_DECISION}`,
    toolEvent: false,
    // §9: the switch itself, then its cost (third-party sources).
    input: [
      'from_model',
      'to_model',
      'requested_model',
      'source',
      'context_tokens',
      'prompt_cache_warm',
      'cache_ttl',
      'estimated_cache_write_usd',
      'pricing',
    ],
    unverified: true,
  },
  {
    name: 'PostModelSwitch',
    matcherField: 'to_model',
    types: CHM,
    block: 'none',
    toolEvent: false,
    input: ['from_model', 'to_model', 'source'],
    stdoutToContext: true,
    unverified: true,
  },
];

const EVENTS_BY_NAME = new Map(EVENTS.map((event) => [event.name, event]));

export function eventSpec(name: string): EventSpec | undefined {
  return EVENTS_BY_NAME.get(name);
}
