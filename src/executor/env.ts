import { BLOCKING_TYPES, runtimeEnvFor } from '../runtime/contract.js';

/**
 * The environment a hook runs with: the runtime's variables for that hook
 * (and only for that hook: `SIGNAL_DATA` exists in `on_signal_received`, not
 * elsewhere), plausible values where the caller gives none, then the caller's
 * overrides, then the shell's own basics for the sandbox.
 */

export interface HookContext {
  agentId: string;
  task?: string;
  swarmId?: string;
  iteration?: number | string;
  phase?: string;
}

/**
 * Values used when nothing else is given. They look like what the runtime
 * sets (ids, milliseconds, JSON) so scripts that parse them behave as they
 * would in a swarm, and agree with the hooks document: `BLOCKING_TYPE` is one
 * of its three types (the first, `consensus`, as `simulate` defaults), and a
 * timeout's `TIMEOUT_DURATION` ("time since blocking start") is the
 * threshold plus `EXCEEDED_BY`, as in its example (305000 = 300000 + 5000).
 */
export const DEFAULT_RUNTIME_VALUES: Readonly<Record<string, string>> = {
  TASK: 'Implement the sample task',
  SWARM_ID: 'swarm-local',
  ITERATION: '1',
  PHASE: 'implementation',
  BLOCKING_TYPE: BLOCKING_TYPES[0],
  TIMEOUT_THRESHOLD: '300000',
  SIGNAL_ID: 'signal-1',
  COORDINATOR_COUNT: '1',
  RECEIVED_COUNT: '0',
  MISSING_COUNT: '1',
  MISSING_COORDINATORS: 'coordinator-1',
  SIGNAL_DATA: '{"type":"completion","coordinator":"coordinator-1","status":"ready"}',
  WAIT_DURATION: '1500',
  TIMEOUT_DURATION: '301200',
  EXCEEDED_BY: '1200',
};

/** The coordinator counts as the runtime reports them once a signal has arrived. */
const AFTER_SIGNAL: Readonly<Record<string, string>> = { RECEIVED_COUNT: '1', MISSING_COUNT: '0', MISSING_COORDINATORS: '' };

/** Where things are inside the sandbox; the no-sandbox mode substitutes host paths. */
export interface ShellLayout {
  home: string;
  workspace: string;
  tmp: string;
  path: string;
  user: string;
}

export const SANDBOX_LAYOUT: ShellLayout = {
  home: '/home/agent',
  workspace: '/workspace',
  tmp: '/tmp',
  path: '/run/vah/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  user: 'agent',
};

/** The runtime variables of one hook, defaults filled in, before overrides. */
export function runtimeVariables(hookName: string, context: HookContext): Record<string, string> {
  const fromContext: Record<string, string | undefined> = {
    AGENT_ID: context.agentId,
    TASK: context.task,
    SWARM_ID: context.swarmId,
    ITERATION: context.iteration === undefined ? undefined : String(context.iteration),
    PHASE: context.phase,
    HOOK_NAME: hookName,
  };
  const values: Record<string, string> = {};
  for (const name of runtimeEnvFor(hookName)) {
    const value = fromContext[name] ?? (hookName === 'on_signal_received' ? AFTER_SIGNAL[name] : undefined) ?? DEFAULT_RUNTIME_VALUES[name];
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/**
 * The complete environment of the hook process. Overrides win over
 * everything, including the shell basics: a user asking for `PATH=...` gets it.
 */
export function buildHookEnvironment(options: {
  hookName: string;
  context: HookContext;
  overrides?: Readonly<Record<string, string>>;
  layout?: ShellLayout;
  /** Another runtime's variables in place of claude-flow's (Claude Code's CLAUDE_PROJECT_DIR, ...). */
  runtimeEnv?: Readonly<Record<string, string>>;
}): Record<string, string> {
  const layout = options.layout ?? SANDBOX_LAYOUT;
  return {
    PATH: layout.path,
    HOME: layout.home,
    USER: layout.user,
    LOGNAME: layout.user,
    SHELL: '/bin/bash',
    TMPDIR: layout.tmp,
    PWD: layout.workspace,
    LANG: 'C.UTF-8',
    ...(options.runtimeEnv ?? runtimeVariables(options.hookName, options.context)),
    ...options.overrides,
  };
}

/** `KEY=VALUE` as given on the command line; the value may itself contain `=`. */
export function parseEnvAssignment(text: string): { key: string; value: string } | undefined {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(text);
  return match ? { key: match[1]!, value: match[2]! } : undefined;
}
