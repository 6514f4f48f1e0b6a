/**
 * What Claude Code promises a hook, and what it asks of one: its events
 * (which take a matcher, on which field; which handler types each allows;
 * whether and how each can block), its handler types and their fields, the
 * default timeouts, the environment it sets, the stdin JSON per event and the
 * matcher forms. Facts from ../shared/runtimes/claude-code-hooks.md (the
 * official docs as of v2.1.240, 2026-08-22, plus the changelog to v2.1.269);
 * where that sheet flags a fact as version-dependent, the documented current
 * behaviour is the one written here. Rules and the executor read it from here.
 */

export const RUNTIME_ID = 'claude-code' as const;

export * from './events.js';
export * from './scheduling.js';
export * from './output-contract.js';
import {
  type BlockMode,
  EVENTS,
  eventSpec,
  type EventSpec,
  type HandlerType,
  HANDLER_TYPES,
  TOOL_INPUT_FIELDS,
  TOOL_NAMES,
} from './events.js';

export const EVENT_NAMES: readonly string[] = EVENTS.map((event) => event.name);

/**
 * The event a frontmatter hook actually receives: `Stop` in a subagent's
 * frontmatter fires as `SubagentStop` (documented; GH#19220).
 */
export function effectiveEvent(event: string, source: HookSourceKind): string {
  return event === 'Stop' && source === 'agent' ? 'SubagentStop' : event;
}

/** Input fields every event's stdin JSON carries (some only in some cases). */
export const COMMON_INPUT = [
  'session_id',
  'transcript_path',
  'cwd',
  'hook_event_name',
  'permission_mode',
  'prompt_id',
  'effort',
  'agent_id',
  'agent_type',
] as const;

export type FieldType = 'string' | 'number' | 'boolean' | 'string[]' | 'string-map' | 'object';

export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  /** A positive number (timeouts). */
  positive?: boolean;
}

/** Fields every handler type accepts. */
export const COMMON_FIELDS: Readonly<Record<string, FieldSpec>> = {
  type: { type: 'string', required: true },
  if: { type: 'string' },
  timeout: { type: 'number', positive: true },
  statusMessage: { type: 'string' },
  once: { type: 'boolean' },
};

/** Fields per handler type, beyond the common ones. */
export const HANDLER_FIELDS: Readonly<Record<HandlerType, Readonly<Record<string, FieldSpec>>>> = {
  command: {
    command: { type: 'string', required: true },
    args: { type: 'string[]' },
    async: { type: 'boolean' },
    asyncRewake: { type: 'boolean' },
    // Used with asyncRewake by Anthropic's own security-guidance plugin; not in the docs of v2.1.240.
    rewakeMessage: { type: 'string' },
    rewakeSummary: { type: 'string' },
    shell: { type: 'string' },
  },
  http: { url: { type: 'string', required: true }, headers: { type: 'string-map' }, allowedEnvVars: { type: 'string[]' } },
  mcp_tool: { server: { type: 'string', required: true }, tool: { type: 'string', required: true }, input: { type: 'object' } },
  prompt: { prompt: { type: 'string', required: true }, model: { type: 'string' }, continueOnBlock: { type: 'boolean' } },
  agent: { prompt: { type: 'string', required: true }, model: { type: 'string' } },
};

export const SHELLS = ['bash', 'powershell'] as const;

export function isHandlerType(type: string): type is HandlerType {
  return (HANDLER_TYPES as readonly string[]).includes(type);
}

/** Every field a handler of this type may carry, common fields included. */
export function handlerFields(type: HandlerType): Readonly<Record<string, FieldSpec>> {
  return { ...COMMON_FIELDS, ...HANDLER_FIELDS[type] };
}

/** Exit status that blocks on events that can block. */
export const BLOCKING_EXIT_CODE = 2;

/**
 * Environment variables Claude Code sets for hook processes (§3.2); `plugin`
 * ones only for plugin hooks, `events` ones only there, `situational` ones
 * only in some sessions (cloud, Remote Control, effort-capable models,
 * messaging sockets, trace propagation), so a local session, and the
 * executor, leaves them unset. Every other one is set for every hook.
 */
export const ENV_VARS: readonly { name: string; plugin?: boolean; events?: readonly string[]; situational?: boolean }[] = [
  { name: 'CLAUDE_PROJECT_DIR' },
  { name: 'CLAUDE_PLUGIN_ROOT', plugin: true },
  { name: 'CLAUDE_PLUGIN_DATA', plugin: true },
  { name: 'CLAUDE_ENV_FILE', events: ['SessionStart', 'Setup', 'CwdChanged', 'FileChanged'] },
  { name: 'CLAUDE_CODE_REMOTE', situational: true },
  { name: 'CLAUDE_CODE_BRIDGE_SESSION_ID', situational: true },
  // Always set, equal to the input's `session_id`.
  { name: 'CLAUDE_CODE_SESSION_ID' },
  { name: 'CLAUDE_EFFORT', situational: true },
  // Given to every subprocess Claude Code spawns, hooks included (CLAUDE_PID since v2.1.214).
  { name: 'CLAUDECODE' },
  { name: 'CLAUDE_CODE_CHILD_SESSION' },
  { name: 'CLAUDE_PID' },
  { name: 'CLAUDE_CODE_MESSAGING_SOCKET', situational: true },
  { name: 'CLAUDE_CODE_MESSAGING_TOKEN', situational: true },
  { name: 'TRACEPARENT', situational: true },
];
/** `CLAUDE_PLUGIN_OPTION_<KEY>`: a plugin's user-config values. */
export const PLUGIN_OPTION_ENV_PREFIX = 'CLAUDE_PLUGIN_OPTION_';

/** Variables third-party guides use that Claude Code never sets: the input is on stdin. */
export const NEVER_SET_ENV = [
  'CLAUDE_TOOL_INPUT',
  'CLAUDE_TOOL_NAME',
  'CLAUDE_TOOL_OUTPUT',
  'CLAUDE_FILE_PATHS',
  'CLAUDE_FILE_PATH',
  'CLAUDE_HOOK_INPUT',
  'CLAUDE_MODEL',
  'TOOL_INPUT',
  'TOOL_NAME',
  'TOOL_OUTPUT',
  'HOOK_INPUT',
  'HOOK_EVENT',
  // claude-code-templates' language templates (python, ruby, javascript-typescript): `echo $STDIN_JSON | jq …`.
  'STDIN_JSON',
] as const;
/**
 * Per-field names from the same guides (`$CLAUDE_TOOL_FILE_PATH`,
 * `$CLAUDE_TOOL_INPUT_FILE_PATH`, `$CLAUDE_TOOL_COMMAND`, `$TOOL_INPUT_path`):
 * no documented variable starts with `CLAUDE_TOOL_` or `TOOL_INPUT_`, and
 * claude-code-templates ships them in dozens of hooks whose checks then test
 * an empty string.
 */
export const NEVER_SET_ENV_PATTERN = /^(?:CLAUDE_TOOL|TOOL_INPUT)_[A-Za-z0-9_]+$/;

/** Variables that hold paths and so must be quoted in shell form (paths with spaces). */
export const PATH_ENV = ['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA', 'CLAUDE_ENV_FILE'] as const;

/**
 * The variables a hook from this source gets (for the executor and the env
 * rules); `local` leaves out the situational ones, which a local session
 * does not set.
 */
export function envFor(event: string, source: HookSourceKind, options: { local?: boolean } = {}): string[] {
  const plugin = source === 'plugin-hooks' || source === 'plugin-manifest' || source === 'plugin-agent' || source === 'plugin-skill';
  return ENV_VARS.filter((v) => (!v.plugin || plugin) && (!v.events || v.events.includes(event)) && !(options.local && v.situational)).map(
    (v) => v.name,
  );
}

/** The values of the variables Claude Code gives every subprocess: `CLAUDECODE=1`, `CLAUDE_CODE_CHILD_SESSION=1` (§3.2). */
export const SUBPROCESS_ENV: Readonly<Record<string, string>> = { CLAUDECODE: '1', CLAUDE_CODE_CHILD_SESSION: '1' };

export type { HookSourceKind } from '../../hooks/types.js';
import type { HookSourceKind } from '../../hooks/types.js';

/**
 * `once: true` is honoured only in skill frontmatter (§1.3, §2.4); settings,
 * plugin hooks, agent and slash-command frontmatter ignore it (slash-command
 * frontmatter takes `hooks:` like a skill's, but the sheet names skills alone
 * for `once`).
 */
export function honoursOnce(source: HookSourceKind): boolean {
  return source === 'skill' || source === 'plugin-skill';
}

/** Plugin-shipped agents ignore `hooks`, `mcpServers` and `permissionMode` (documented since 2026-03-22). */
export function ignoresHooks(source: HookSourceKind): boolean {
  return source === 'plugin-agent';
}

export type MatcherForm = 'all' | 'exact' | 'regex';

/**
 * How Claude Code evaluates a matcher (§2.3): `*`, empty or absent matches
 * everything; only letters, digits, `_`, `-`, space, `,` and `|` is an exact
 * name or a list split on `|` or `,`; anything else is an unanchored
 * JavaScript regular expression. FileChanged and StopFailure take a narrower
 * exact set (letters, digits, `_`, `|`).
 */
export function matcherForm(matcher: string | undefined, event: string): MatcherForm {
  if (matcher === undefined || matcher === '' || matcher === '*') return 'all';
  const narrow = event === 'FileChanged' || event === 'StopFailure';
  return (narrow ? /^[A-Za-z0-9_|]+$/ : /^[A-Za-z0-9_\- ,|]+$/).test(matcher) ? 'exact' : 'regex';
}

/** The names an exact matcher lists. */
export function exactMatcherNames(matcher: string, event: string): string[] {
  const narrow = event === 'FileChanged' || event === 'StopFailure';
  return matcher
    .split(narrow ? /\|/ : /[|,]/)
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * The tools an exact matcher names, when each has a known `tool_input`;
 * undefined when any tool may be called (no matcher, a pattern, an MCP tool).
 */
export function matchedToolsWithInput(matcher: string | undefined, event: string): string[] | undefined {
  if (matcherForm(matcher, event) !== 'exact') return undefined;
  const names = exactMatcherNames(matcher!, event);
  return names.length > 0 && names.every((n) => Object.hasOwn(TOOL_INPUT_FIELDS, n)) ? names : undefined;
}

/** An MCP tool name is `mcp__<server>__<tool>`; `mcp__server` alone names no tool, so as an exact matcher it matches nothing. */
export function isMcpServerOnly(name: string): boolean {
  const rest = name.startsWith('mcp__') ? name.slice(5) : undefined;
  return rest !== undefined && /^[A-Za-z0-9_-]+$/.test(rest) && !rest.includes('__');
}

/** Whether a tool name (from `tool_name`) is one of Claude Code's, an MCP tool's, or unknown. */
export const KNOWN_TOOL_NAMES: readonly string[] = TOOL_NAMES;

/**
 * Where Claude Code looks for hook configurations under a project root
 * (§1.1): the project's settings, agents and skills, and, for a plugin (a
 * `.claude-plugin/plugin.json` at the root), its agents, skills, hooks file
 * and manifest.
 */
export const PROJECT_SOURCES = {
  agents: '.claude/agents/**/*.md',
  skills: '.claude/skills/**/SKILL.md',
  commands: '.claude/commands/**/*.md',
  settings: '.claude/settings.json',
  settingsLocal: '.claude/settings.local.json',
} as const;
export const PLUGIN_MANIFEST = '.claude-plugin/plugin.json';
export const PLUGIN_SOURCES = {
  agents: 'agents/**/*.md',
  skills: 'skills/**/SKILL.md',
  commands: 'commands/**/*.md',
  hooks: 'hooks/hooks.json',
} as const;

/** The JSON output shapes that carry a decision, for the stdout rules' messages. */
export const DECISION_FIELDS = ['decision', 'hookSpecificOutput', 'continue', 'systemMessage'] as const;

/** The first event of a hook (or of the hooks that run a script file) that can block in one of these ways. */
export function blockingEvent(
  hook: { claudeCode?: { effectiveEvent: string; callerEvents?: string[] } },
  modes: readonly BlockMode[],
): EventSpec | undefined {
  return firstBlocking(eventsOfHook(hook), modes);
}

/** The first of these events (those of the hooks that run a program, say) that can block in one of these ways. */
export function firstBlocking(events: readonly string[], modes: readonly BlockMode[]): EventSpec | undefined {
  for (const name of events) {
    const spec = eventSpec(name);
    if (spec && modes.includes(spec.block)) return spec;
  }
  return undefined;
}

/** The events whose contract applies to a hook script: its own, or for a script file, those of the hooks that run it. */
export function eventsOfHook(hook: { claudeCode?: { effectiveEvent: string; callerEvents?: string[] } }): string[] {
  const meta = hook.claudeCode;
  if (!meta) return [];
  return meta.callerEvents ?? (meta.effectiveEvent ? [meta.effectiveEvent] : []);
}

/** Events whose stdin carries no `permission_mode` in the documented examples (§4.1). */
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
