import type { WritableArea } from './disk.js';
import type { MemoryEntry, MemoryStore } from './memory-store.js';
import type { Clock, ProcessRunner } from './process-runner.js';
import type { RedisSide } from './redis-side.js';
import type { SandboxLimits } from './sandbox.js';
import type { SessionFs } from './session-fs.js';
import type { SandboxIdentity, SessionPaths } from './session-setup.js';
import type { ExecutorSessionOptions, SandboxMode } from './session-types.js';
import type { PublishedEvent, TraceLog } from './trace.js';

/** What one hook run takes from its session (src/executor/session.ts): the shared world and the session's files. */
export interface RunContext {
  options: ExecutorSessionOptions;
  mode: SandboxMode;
  clock: Clock;
  runner: ProcessRunner;
  trace: TraceLog;
  events: PublishedEvent[];
  limits: SandboxLimits;
  defaultTimeoutMs: number;
  identity: SandboxIdentity;
  bwrap?: { path: string; version?: string };
  realRedisCli: string;
  paths: SessionPaths;
  /** Pieces of the host's /etc each sandbox binds over the session's (src/executor/sandbox-etc.ts). */
  etcBinds: readonly string[];
  seccompFile?: string;
  writableArea: WritableArea;
  redis: RedisSide;
  abortSignal: AbortSignal;
  memory: () => Promise<MemoryStore>;
  memoryEntries: () => Promise<MemoryEntry[]>;
  agentDirsFor: (agentId: string) => Promise<AgentDirs>;
  ensureFunctions: (names: readonly string[]) => Promise<void>;
  /**
   * Finishes the session's set-up (its commands' files), once: called when a
   * first run's sandbox has been started, which waits for it at its gate.
   */
  finishSetup: () => Promise<void>;
  /** How the session's own files are written (synchronously where they live in a tmpfs). */
  fs: SessionFs;
}

export interface AgentDirs {
  workspace: string;
  home: string;
}
