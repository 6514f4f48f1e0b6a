import { eventSpec, NO_PERMISSION_MODE_EVENTS } from './contract.js';

/**
 * The JSON Claude Code writes to a command hook's stdin (../shared/runtimes/
 * claude-code-hooks.md §4): the common fields, then the event's own, with
 * plausible values wherever the caller gives none, so a hook that reads
 * `.tool_input.command` or `.source` sees what it would see in a session.
 * The caller's `--tool-input` replaces the tool's input whole (as Claude
 * Code sends the tool's own parameters); `--input` is merged over
 * everything, last.
 */

export interface EventInputOptions {
  event: string;
  tool?: string;
  toolInput?: Record<string, unknown>;
  /** Fields merged over the built input, last. */
  input?: Record<string, unknown>;
  /** The value the matcher is tested against, when it should differ from what the input says. */
  matcherValue?: string;
  /** The project directory as the hook sees it (the sandbox's copy). */
  projectDir: string;
  /** The home directory as the hook sees it (where the transcript lives). */
  homeDir: string;
}

export interface EventInput {
  input: Record<string, unknown>;
  /** What the matchers are tested against; undefined when the event takes no matcher. */
  matcherValue: string | undefined;
}

export const SAMPLE_SESSION_ID = '5f0c2a3e-1b7d-4c89-9e21-7a4d3b6c8e10';

const DEFAULT_TOOL = 'Bash';

/** §4.2, one plausible instance of each event's own fields. */
function eventFields(event: string, projectDir: string): Record<string, unknown> {
  const file = (name: string): string => `${projectDir}/${name}`;
  switch (event) {
    case 'SessionStart':
      return { source: 'startup', model: 'claude-sonnet-4-5' };
    case 'Setup':
      return { trigger: 'init' };
    case 'InstructionsLoaded':
      return { file_path: file('CLAUDE.md'), memory_type: 'Project', load_reason: 'session_start' };
    case 'UserPromptSubmit':
      return { prompt: 'Write a factorial function' };
    case 'UserPromptExpansion':
      return {
        expansion_type: 'slash_command',
        command_name: 'deploy',
        command_args: 'prod',
        command_source: 'project',
        prompt: '/deploy prod',
      };
    case 'MessageDisplay':
      return { turn_id: 'turn-1', message_id: 'message-1', index: 0, final: true, delta: 'Here is the plan.\n' };
    case 'PostToolBatch':
      return {
        tool_calls: [
          { tool_name: 'Read', tool_input: { file_path: file('README.md') }, tool_use_id: 'toolu_01', tool_response: '     1\t# Project' },
        ],
      };
    case 'Notification':
      return { message: 'Claude needs your permission to use Bash', title: 'Permission needed', notification_type: 'permission_prompt' };
    case 'SubagentStart':
      return { agent_id: 'agent-abc123', agent_type: 'Explore' };
    case 'SubagentStop':
      return {
        stop_hook_active: false,
        agent_id: 'agent-abc123',
        agent_type: 'Explore',
        agent_transcript_path: '/home/agent/.claude/projects/-workspace/subagents/agent-abc123.jsonl',
        last_assistant_message: 'Analysis complete.',
        background_tasks: [],
        session_crons: [],
      };
    case 'TaskCreated':
    case 'TaskCompleted':
      return { task_id: 'task-001', task_subject: 'Implement auth', task_description: 'Add login', teammate_name: 'implementer' };
    case 'Stop':
      return { stop_hook_active: false, last_assistant_message: 'Done.', background_tasks: [], session_crons: [] };
    case 'StopFailure':
      return { error: 'rate_limit', error_details: '429 Too Many Requests', last_assistant_message: 'API Error: Rate limit reached' };
    case 'TeammateIdle':
      return { teammate_name: 'researcher' };
    case 'ConfigChange':
      return { source: 'project_settings', file_path: file('.claude/settings.json') };
    case 'CwdChanged':
      return { old_cwd: projectDir, new_cwd: file('src') };
    case 'DirectoryAdded':
      return { directory: '/other-repo', source: 'slash_command' };
    case 'FileChanged':
      return { file_path: file('.envrc'), event: 'change' };
    case 'WorktreeCreate':
      return { name: 'feature-auth' };
    case 'WorktreeRemove':
      return { worktree_path: file('.claude/worktrees/feature-auth') };
    case 'PreCompact':
      return { trigger: 'manual', custom_instructions: '' };
    case 'PostCompact':
      return { trigger: 'auto', compact_summary: 'Summary of the conversation so far.' };
    case 'SessionEnd':
      return { reason: 'other' };
    case 'Elicitation':
      return { mcp_server_name: 'my-mcp', message: 'Please provide credentials', mode: 'form', requested_schema: { type: 'object' } };
    case 'PreModelSwitch':
      // §9 (third-party sources): the switch asked for, and what it would cost.
      return {
        from_model: 'claude-sonnet-4-5',
        to_model: 'claude-opus-4-1',
        requested_model: 'opus',
        source: 'command',
        context_tokens: 42000,
        prompt_cache_warm: true,
        cache_ttl: '5m',
        estimated_cache_write_usd: 0.79,
        pricing: { input_per_mtok_usd: 15, output_per_mtok_usd: 75, cache_write_per_mtok_usd: 18.75 },
      };
    case 'PostModelSwitch':
      return { from_model: 'claude-sonnet-4-5', to_model: 'claude-opus-4-1', source: 'command' };
    case 'ElicitationResult':
      return { mcp_server_name: 'my-mcp', action: 'accept', content: {}, mode: 'form', elicitation_id: 'elicit-123' };
    default:
      return {};
  }
}

/** §4.2 `tool_input` shapes: a harmless call of the tool, used when the caller gives none. */
function defaultToolInput(tool: string, projectDir: string): Record<string, unknown> {
  switch (tool) {
    case 'Bash':
    case 'PowerShell':
      return { command: 'ls', description: 'List files' };
    case 'Write':
      return { file_path: `${projectDir}/notes.txt`, content: 'hello\n' };
    case 'Edit':
      return { file_path: `${projectDir}/README.md`, old_string: 'foo', new_string: 'bar', replace_all: false };
    case 'Read':
      return { file_path: `${projectDir}/README.md` };
    case 'Glob':
      return { pattern: '**/*.ts' };
    case 'Grep':
      return { pattern: 'TODO', path: projectDir };
    case 'WebFetch':
      return { url: 'https://example.com/', prompt: 'Summarise the page' };
    case 'WebSearch':
      return { query: 'claude code hooks' };
    case 'Agent':
      return { prompt: 'Find the tests', description: 'Find tests', subagent_type: 'Explore' };
    default:
      return {};
  }
}

function toolEventFields(event: string, tool: string, toolInput: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = { tool_name: tool, tool_input: toolInput };
  if (event !== 'PermissionRequest') fields.tool_use_id = 'toolu_01ABCDEFGHJKMNPQRSTVWXYZ';
  if (event === 'PostToolUse') {
    fields.tool_response = tool === 'Bash' ? { stdout: '', stderr: '', interrupted: false, isImage: false } : { success: true };
    fields.duration_ms = 12;
  }
  if (event === 'PostToolUseFailure') Object.assign(fields, { error: 'Exit code 1\n', is_interrupt: false, duration_ms: 40 });
  if (event === 'PermissionDenied') fields.reason = 'Blocked by classifier';
  return fields;
}

export function buildEventInput(options: EventInputOptions): EventInput {
  const { event, projectDir } = options;
  const matcherField = eventSpec(event)?.matcherField;
  const input: Record<string, unknown> = {
    session_id: SAMPLE_SESSION_ID,
    transcript_path: `${options.homeDir}/.claude/projects/${projectDir.replace(/[^A-Za-z0-9]/g, '-')}/${SAMPLE_SESSION_ID}.jsonl`,
    cwd: projectDir,
    hook_event_name: event,
    ...(NO_PERMISSION_MODE_EVENTS.has(event) ? {} : { permission_mode: 'default' }),
  };
  if (eventSpec(event)?.toolEvent) {
    const tool = options.tool ?? options.matcherValue ?? DEFAULT_TOOL;
    Object.assign(input, toolEventFields(event, tool, options.toolInput ?? defaultToolInput(tool, projectDir)));
  } else {
    Object.assign(input, eventFields(event, projectDir));
    // Without its own field, the value asked for on the command line is what the event says.
    if (options.matcherValue !== undefined && matcherField !== undefined && options.input?.[matcherField] === undefined) {
      input[matcherField] = event === 'FileChanged' ? `${projectDir}/${options.matcherValue}` : options.matcherValue;
    }
  }
  Object.assign(input, options.input);
  return { input, matcherValue: matcherValueOf(event, input, options.matcherValue) };
}

function matcherValueOf(event: string, input: Record<string, unknown>, explicit: string | undefined): string | undefined {
  const field = eventSpec(event)?.matcherField;
  if (field === undefined) return undefined;
  if (explicit !== undefined) return explicit;
  const value = input[field];
  if (typeof value !== 'string') return undefined;
  return event === 'FileChanged' ? (value.split(/[\\/]/).pop() ?? value) : value;
}
