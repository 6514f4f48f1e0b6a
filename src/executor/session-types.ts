import type { LimitName } from './execute.js';
import type { MemoryEntry, MemoryStore } from './memory-store.js';
import type { Clock, ProcessRunner } from './process-runner.js';
import type { RedisSide } from './redis-side.js';
import type { SandboxLimits } from './sandbox.js';
import type { HookScript } from '../hooks/types.js';
import type { PublishedEvent, TraceLog, TraceOperation } from './trace.js';

/** The executor session's public shapes (src/executor/session.ts makes one). */

export type SandboxMode = 'bwrap' | 'none';

export interface ExecutorSessionOptions {
  /** `bwrap` (default) or `none` for --no-sandbox. */
  sandbox?: SandboxMode;
  /** A real Redis server instead of the embedded fake. */
  redisUrl?: string;
  /** Per-run timeout unless a run says otherwise (default: the runtime's 5 s). */
  timeoutMs?: number;
  limits?: Partial<SandboxLimits>;
  /** Directory copied into each agent's fresh workspace (the original is never touched). */
  workspaceSeed?: string;
  /** The swarm agents belong to unless a run says otherwise. */
  swarmId?: string;
  /** Where the session's directory is created (default: the OS temp dir). */
  baseDir?: string;
  /** Host user the sandbox runs as when the executor is root (root cannot be process-limited). Default 65534. */
  sandboxHostUid?: number;
  sandboxHostGid?: number;
  /** Where to look for bwrap (default: PATH). */
  bwrapSearchPath?: string;
  clock?: Clock;
  runner?: ProcessRunner;
  /** Called for every operation as it happens (a live view for the simulator or `--verbose`). */
  onOperation?: (operation: TraceOperation) => void;
}

export interface RunHookOptions {
  /** Who runs the hook; the memory store's notion of identity. Default: `<profile name>-1`. */
  agentId?: string;
  swarmId?: string;
  task?: string;
  iteration?: number | string;
  phase?: string;
  /** Environment overrides, applied last (they change what the hook sees, never who it is). */
  env?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  /** A command line to run instead of `bash -c hook.text` (Claude Code handlers: `sh -c`, or exec form). */
  command?: readonly string[];
  /** Written to the hook's standard input (Claude Code's event JSON); without it stdin is /dev/null. */
  stdin?: string;
  /** The runtime's variables, replacing claude-flow's AGENT_ID, TASK, ... (for Claude Code handlers). */
  runtimeEnv?: Readonly<Record<string, string>>;
  /** Bytes of stdout and of stderr kept (at most the session's `outputBytes`): a run of many handlers shares a budget. */
  outputBytes?: number;
  /** Called once the hook's own process has started (its sandbox is set up), e.g. to let the next sandbox start. */
  onProcessStart?: () => void;
}

export interface SandboxReport {
  mode: SandboxMode;
  bwrapVersion?: string;
  /** Host user and group the sandbox ran as. */
  hostUid: number;
  hostGid: number;
  limits: SandboxLimits;
  timeoutMs: number;
  pidNamespace?: string;
  initPid?: number;
  /** The control group that held the sandbox's memory to `limits.memoryBytes`; null when none could be used. */
  cgroup: 'v1' | 'v2' | null;
  /** Processes still running after the hook ended, killed by the executor (should always be empty). */
  survivors: number[];
  warnings: string[];
}

export interface HookRunResult {
  runId: number;
  profile: string;
  hook: string;
  agentId: string;
  swarmId: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Whether the runtime would log this run as a failure (non-zero, killed or timed out). */
  failed: boolean;
  /** The hook's own time, from its process start, less `hostMs`: what its budget counts. */
  durationMs: number;
  /** Time the host spent serving the hook's slash commands and Redis round trips (each moment once). */
  hostMs?: number;
  /** Milliseconds since the session started, when the hook's own process started (sandbox set-up excluded). */
  startedAt: number;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  env: Record<string, string>;
  operations: TraceOperation[];
  /** All memory after the run, every level and owner. */
  memory: MemoryEntry[];
  /** Events this run published. */
  events: PublishedEvent[];
  limitsHit: LimitName[];
  sandbox: SandboxReport;
  /** The executor could not start the hook at all. */
  error?: string;
}

export interface ExecutorSession {
  readonly dir: string;
  readonly mode: SandboxMode;
  readonly trace: TraceLog;
  readonly events: PublishedEvent[];
  readonly redis: RedisSide;
  /** The memory store, created on first use (sql.js costs ~30 ms to start). */
  memory(): Promise<MemoryStore>;
  /** Memory entries, or none without creating the store when nothing used it. */
  memoryEntries(): Promise<MemoryEntry[]>;
  runHook(hook: HookScript, options?: RunHookOptions): Promise<HookRunResult>;
  /**
   * Sends one Redis command from the host (an orchestrator's signal, a
   * check), traced like a hook's, under `agentId` (default `host`).
   */
  callRedis(command: readonly string[], options?: { agentId?: string }): Promise<unknown>;
  /** The host directory that is the agent's /workspace. */
  workspaceOf(agentId: string): Promise<string>;
  /** Makes an empty file at a path relative to the agent's home, unless one is there (a Claude Code transcript). */
  ensureHomeFile?(agentId: string, relative: string): Promise<void>;
  /** Waits for runs in progress, then stops the fakes and removes the session's directory. */
  close(): Promise<void>;
}

export class SandboxUnavailableError extends Error {}

export const NO_SANDBOX_WARNING =
  'WARNING: --no-sandbox: the hook runs directly on this machine as the current user, with its file system, network and ' +
  'processes. Nothing stops it from changing files outside its workspace, children it detaches may outlive it, process ' +
  'limits do not hold for root, and agent-level memory privacy is not enforced. Use only for hooks you trust.';
