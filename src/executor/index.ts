/**
 * The reference executor: runs hooks for real, sandboxed, against embedded
 * fakes of the runtime's coordination services, and traces what they do.
 * The lifecycle simulator drives it through `createExecutorSession`.
 */
export {
  createExecutorSession,
  defaultAgentId,
  NO_SANDBOX_WARNING,
  SandboxUnavailableError,
  type ExecutorSession,
  type ExecutorSessionOptions,
  type HookRunResult,
  type RunHookOptions,
  type SandboxMode,
  type SandboxReport,
} from './session.js';
export { buildHookEnvironment, runtimeVariables, DEFAULT_RUNTIME_VALUES, type HookContext } from './env.js';
export { MemoryStore, type MemoryEntry, type MemoryIdentity, type MemoryLevel } from './memory-store.js';
export { validateEvent } from './eventbus-command.js';
export { DEFAULT_LIMITS, probeBwrap, INSTALL_HINT, type SandboxLimits, type BwrapAvailability } from './sandbox.js';
export type { LimitName } from './execute.js';
export type { RedisSide } from './redis-side.js';
export type { TraceOperation, RedisOperation, MemoryOperation, EventOperation, CommandOperation, PublishedEvent } from './trace.js';
export { formatRunHuman, runToJson, type RunJson } from './report.js';
export type { Clock, ProcessRunner } from './process-runner.js';
