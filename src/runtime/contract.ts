/**
 * What the agent runtime (claude-flow-novice) promises a hook: its names, the
 * environment it sets, its timeout, and the coordination commands it offers.
 * Taken from the runtime's documentation and code (see DESIGN.md); the linter's
 * rules, the schema and the executor all read it from here.
 */

export const HOOK_TIMEOUT_MS = 5000;

/**
 * hooks "Resource Limits": `ulimit -f 102400` ("File size: 100MB"; bash counts
 * in KiB), the largest file a hook's process may write. The same section's
 * `ulimit -m 524288` sets RLIMIT_RSS, which Linux has ignored since 2.6, so
 * its 512 MB is not a limit a hook meets on the runtime.
 */
export const HOOK_FILE_SIZE_LIMIT_BYTES = 102400 * 1024;

/**
 * How long the runtime lets the named hook run before it kills it: 5 s for
 * every claude-flow hook (blocking, legacy and lifecycle alike, all run by the
 * same bash runner). Rules ask this instead of reading the constant, so a
 * runtime with per-handler timeouts answers per hook.
 */
export function hookBudgetMs(_hookName: string): number {
  return HOOK_TIMEOUT_MS;
}

export const BLOCKING_HOOKS = ['on_blocking_start', 'on_signal_received', 'on_blocking_timeout'] as const;

/** Older hook keys seen in real profiles; they run with the same bash runner. */
export const LEGACY_HOOKS = [
  'pre',
  'post',
  'task_complete',
  'on_rerun_request',
  'pre_execution',
  'post_execution',
  'on_error',
  'pre_task',
  'post_task',
  'post_edit',
  'notification',
] as const;

export const LIFECYCLE_HOOKS = ['init', 'start', 'pause', 'resume', 'stop', 'cleanup'] as const;

/** Keys under `hooks:` that real profiles use for settings rather than scripts. */
export const HOOK_SETTING_KEYS = ['memory_key', 'validation'] as const;

export const KNOWN_HOOK_NAMES: readonly string[] = [...BLOCKING_HOOKS, ...LEGACY_HOOKS];

/** BLOCKING_TYPE's documented values (agent-lifecycle-hooks.md, "Environment Variables"). */
export const BLOCKING_TYPES = ['consensus', 'validation', 'dependency'] as const;

/** Variables the runtime sets for every blocking hook. */
export const COMMON_ENV = ['AGENT_ID', 'TASK', 'SWARM_ID', 'ITERATION', 'PHASE', 'BLOCKING_TYPE', 'TIMEOUT_THRESHOLD'] as const;
/** Set by the real runtime on top of the documented ones. */
export const RUNTIME_EXTRA_ENV = [
  'HOOK_NAME',
  'SIGNAL_ID',
  'COORDINATOR_COUNT',
  'RECEIVED_COUNT',
  'MISSING_COUNT',
  'MISSING_COORDINATORS',
] as const;
export const SIGNAL_ENV = ['SIGNAL_DATA', 'WAIT_DURATION'] as const;
export const TIMEOUT_ENV = ['TIMEOUT_DURATION', 'EXCEEDED_BY'] as const;

/** Every variable the runtime sets for the named hook (`lifecycle.init` style names included). */
export function runtimeEnvFor(hookName: string): readonly string[] {
  const base: string[] = [...COMMON_ENV, ...RUNTIME_EXTRA_ENV];
  if (hookName === 'on_signal_received') base.push(...SIGNAL_ENV);
  if (hookName === 'on_blocking_timeout') base.push(...TIMEOUT_ENV);
  return base;
}

/** Variables any hook may read whatever runs it: the process environment bash itself provides. */
export const SHELL_ENV = [
  'HOME',
  'PATH',
  'PWD',
  'OLDPWD',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'TERM',
  'HOSTNAME',
  'RANDOM',
  'SECONDS',
  'LINENO',
  'BASH_SOURCE',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'IFS',
  'OSTYPE',
  'BASH_VERSION',
  'PIPESTATUS',
  'FUNCNAME',
  'REPLY',
  'OPTARG',
  'OPTIND',
  'CI',
  'NODE_ENV',
] as const;

export const MEMORY_COMMAND = '/sqlite-memory';
export const EVENTBUS_COMMAND = '/eventbus';
/** Documented `/sqlite-memory` subcommands: writes, then the read side. */
export const MEMORY_SUBCOMMANDS = ['store', 'retrieve', 'list', 'delete', 'search'] as const;
export const MEMORY_LEVELS = ['agent', 'swarm', 'project'] as const;
export const EVENTBUS_SUBCOMMANDS = ['publish', 'subscribe'] as const;
/** The docs show priorities 6–9; real profiles use 8–10. Both are accepted. */
export const EVENT_PRIORITY_MIN = 1;
export const EVENT_PRIORITY_MAX = 10;

/** CFN Loop thresholds per mode. */
export const CFN_MODES = {
  mvp: { gate: 0.7, consensus: 0.8 },
  standard: { gate: 0.75, consensus: 0.9 },
  enterprise: { gate: 0.75, consensus: 0.95 },
} as const;
export const CFN_MAX_ITERATIONS = 10;
/** AGENT_LIFECYCLE v2 "Timeout Handling": role-based agent timeouts (ms). */
export const CFN_AGENT_TIMEOUTS_MS = {
  implementer: 60 * 60_000,
  validator: 30 * 60_000,
  productOwner: 15 * 60_000,
  researcher: 120 * 60_000,
} as const;
/** AGENT_LIFECYCLE v2 "Redis Key Conventions": `:done` → "complete", coordination signals → "1", results kept a day. */
export const CFN_DONE_VALUE = 'complete';
export const CFN_SIGNAL_VALUE = '1';
export const CFN_RESULT_TTL_SECONDS = 86_400;

/**
 * Runtime variables whose text comes from agents, tasks or signals (an LLM or
 * another agent chose it), so a hook must treat it as untrusted data: quote it,
 * never re-parse it as shell, never splice it into JSON.
 */
export const AGENT_CONTROLLED_ENV = [
  'TASK',
  'TASK_ID',
  'SIGNAL_DATA',
  'AGENT_ID',
  'SWARM_ID',
  'PHASE',
  'BLOCKING_TYPE',
  'SIGNAL_ID',
  'MISSING_COORDINATORS',
] as const;

/** Runtime variables that hold a number (counts, durations in ms, the iteration). */
export const NUMERIC_ENV = [
  'ITERATION',
  'TIMEOUT_THRESHOLD',
  'WAIT_DURATION',
  'TIMEOUT_DURATION',
  'EXCEEDED_BY',
  'COORDINATOR_COUNT',
  'RECEIVED_COUNT',
  'MISSING_COUNT',
] as const;

/** `/sqlite-memory` subcommands that address one key and so need `--key`. */
export const MEMORY_KEYED_SUBCOMMANDS = ['store', 'retrieve', 'delete'] as const;
/** `/eventbus` event types: dotted segments, e.g. `agent.timeout` (`*` in later segments for subscriptions). */
export const EVENT_TYPE_PATTERN = /^[a-z0-9_-]+(?:\.[a-z0-9_*-]+)+$/i;
/** Lifecycle v2 anti-patterns: commands that park or resume an agent instead of letting the runtime do it. */
export const LIFECYCLE_ANTIPATTERNS = [
  { command: 'invoke-waiting-mode.sh', subcommands: ['enter', 'wait', 'wake'] },
  { command: 'cfn-fork', subcommands: ['resume'] },
] as const;
