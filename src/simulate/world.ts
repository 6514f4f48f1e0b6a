import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { ExecutorSession, ExecutorSessionOptions, HookRunResult } from '../executor/session.js';
import { createExecutorSession } from '../executor/session.js';
import type { PublishedEvent, TraceOperation } from '../executor/trace.js';
import { extractHooks } from '../hooks/extract.js';
import type { HookScript } from '../hooks/types.js';
import { profileFromBytes } from '../profile/profile.js';
import { runtimeEnvFor } from '../runtime/contract.js';
import type { LineIndex } from '../text/line-index.js';
import { Limiter } from '../limiter.js';
import { Signal, waitWithThreshold } from './sync.js';
import type { AgentRecord, AgentRole, HookRunRecord, TimelineStep } from './trace.js';

/** Characters of stdout and stderr a simulation's runs keep together, and what each keeps past that. */
export const SIMULATION_OUTPUT_BUDGET = 4 * 1024 * 1024;
const RUN_OUTPUT_FLOOR = 4096;

export { Limiter } from '../limiter.js';
export { delay, Signal, waitWithThreshold } from './sync.js';

/**
 * What every simulation shares: one executor session (one memory, one Redis,
 * one event log), the profiles' hooks, the agents and the timeline, and the
 * runtime's own bookkeeping around each hook run (the execution log and the
 * metrics it keeps in project-level memory). Lifecycles and the CFN Loop are
 * written on top of it.
 */

export interface WorldOptions {
  session?: Partial<ExecutorSessionOptions>;
  createSession?: (options: ExecutorSessionOptions) => Promise<ExecutorSession>;
  hookTimeoutMs?: number;
  swarmId: string;
  task: string;
  taskId?: string;
  phase?: string;
  /** Called for each timeline step as it happens. */
  onStep?: (step: TimelineStep) => void;
  /** How many sandboxes may be setting up at once (default: the CPUs, at least 2). */
  maxConcurrentStarts?: number;
}

export interface LoadedProfile {
  file: string;
  hooks: HookScript[];
  lines?: LineIndex;
  diagnostics: Diagnostic[];
}

/** Where the runtime keeps what it logs about hook runs (agent-lifecycle-hooks.md, "Hook Execution Logs" and "Monitoring Hook Performance"). */
export const HOOK_LOG_KEY = (agentId: string): string => `hook:${agentId}:execution`;
export const HOOK_METRICS_KEY = 'metrics:hooks:execution';
/** Who the runtime's own memory writes are attributed to. */
export const RUNTIME_IDENTITY = 'AgentHookExecutor';

export interface HookLogEntry {
  level: 'debug' | 'error';
  component: typeof RUNTIME_IDENTITY;
  hook: string;
  agent: string;
  duration_ms: number;
  exit_code: number | null;
  output: string;
  timestamp: number;
  error?: string;
  stderr?: string;
}

export interface HookMetrics {
  hooks: Record<string, { executions: number; failures: number; avg_duration_ms: number; max_duration_ms: number }>;
}

export type WaitOutcome = { kind: 'signal'; data: unknown; waitMs: number } | { kind: 'timeout'; durationMs: number; exceededByMs: number };

export class World {
  readonly steps: TimelineStep[] = [];
  readonly hookRuns: HookRunRecord[] = [];
  /** Characters of output the runs may still keep beyond RUN_OUTPUT_FLOOR each (see recordRun). */
  private outputLeft = SIMULATION_OUTPUT_BUDGET;
  readonly agents: AgentRecord[] = [];
  readonly profiles = new Map<string, Promise<LoadedProfile>>();
  private readonly logs = new Map<string, HookLogEntry[]>();
  private readonly metrics: HookMetrics = { hooks: {} };
  private readonly starts: Limiter;

  private constructor(
    readonly session: ExecutorSession,
    readonly options: WorldOptions,
  ) {
    this.starts = new Limiter(options.maxConcurrentStarts ?? Math.max(2, availableParallelism()));
  }

  static async create(options: WorldOptions): Promise<World> {
    const session = await (options.createSession ?? createExecutorSession)({
      swarmId: options.swarmId,
      ...(options.hookTimeoutMs !== undefined ? { timeoutMs: options.hookTimeoutMs } : {}),
      ...options.session,
    });
    return new World(session, options);
  }

  /**
   * Milliseconds since the session began: the session's own clock, the one
   * hook runs and Redis operations are stamped with, so the timeline, the
   * JSON trace and the Mermaid diagram agree.
   */
  now(): number {
    return Math.round(this.session.trace.now() * 10) / 10;
  }

  signal<T = unknown>(): Signal<T> {
    return new Signal<T>(() => this.now());
  }

  step(step: Omit<TimelineStep, 't'>): TimelineStep {
    const full = { t: this.now(), ...step };
    this.steps.push(full);
    this.options.onStep?.(full);
    return full;
  }

  profile(file: string): Promise<LoadedProfile> {
    let loaded = this.profiles.get(file);
    if (!loaded) {
      loaded = readFile(file).then(
        (bytes) => {
          const result = profileFromBytes(file, bytes);
          if (!result.ok) return { file, hooks: [], diagnostics: [result.diagnostic] };
          return { file, hooks: extractHooks(result.profile), lines: result.profile.lines, diagnostics: result.profile.problems };
        },
        (error: unknown) => ({
          file,
          hooks: [],
          diagnostics: [
            {
              ruleId: 'file-unreadable',
              severity: 'error' as const,
              line: 1,
              column: 1,
              endLine: 1,
              endColumn: 1,
              message: `Unreadable profile: ${error instanceof Error ? error.message : String(error)}`,
            },
          ],
        }),
      );
      this.profiles.set(file, loaded);
    }
    return loaded;
  }

  spawn(agent: Omit<AgentRecord, 'status' | 'spawnedAt'>): AgentRecord {
    const record: AgentRecord = { ...agent, status: 'running', spawnedAt: this.now() };
    this.agents.push(record);
    this.step({
      actor: agent.id,
      kind: 'spawn',
      iteration: agent.iteration,
      text: `${agent.replaces ? `replaces ${agent.replaces}: ` : ''}${roleName(agent.role)} spawned (profile ${relative(process.cwd(), agent.profile) || agent.profile})`,
    });
    return record;
  }

  /**
   * Runs one hook of the agent's profile the way the runtime does: the
   * runtime's variables, a 5 s (or the scenario's) timeout, failures logged
   * and not fatal, the run logged and counted in project-level memory.
   * Returns undefined when the profile has no such hook.
   */
  async runHook(agent: AgentRecord, hookName: string, env: Record<string, string> = {}): Promise<HookRunRecord | undefined> {
    const profile = await this.profile(agent.profile);
    const hook = profile.hooks.find((candidate) => candidate.name === hookName);
    if (!hook) return undefined;
    // Sandboxes start a few at a time; each hook's budget starts with its own process, so waiting here costs it nothing.
    const release = await this.starts.acquire();
    let result: HookRunResult;
    try {
      result = await this.session.runHook(hook, {
        agentId: agent.id,
        swarmId: this.options.swarmId,
        task: this.options.task,
        ...(agent.iteration !== undefined ? { iteration: agent.iteration } : {}),
        ...(this.options.phase !== undefined ? { phase: this.options.phase } : {}),
        // TASK_ID is not among the hooks' documented variables: agents get it on their command line, hooks do not.
        env,
        onProcessStart: release,
      });
    } finally {
      release();
    }
    const record = this.recordRun(agent, result);
    await this.logRun(record);
    const status = record.timedOut
      ? `timed out after ${Math.round(record.durationMs)} ms (killed)`
      : record.error
        ? `could not start: ${record.error}`
        : `${record.exitCode === null ? 'no exit code' : `exit ${record.exitCode}`}${record.signal ? ` (${record.signal})` : ''} in ${Math.round(record.durationMs)} ms`;
    this.step({
      actor: agent.id,
      kind: 'hook',
      iteration: agent.iteration,
      runId: record.runId,
      text: `${hookName}: ${status}${record.failed ? ' — logged, the lifecycle continues' : ''}`,
    });
    return record;
  }

  private recordRun(agent: AgentRecord, result: HookRunResult): HookRunRecord {
    const runtimeNames = new Set<string>([...runtimeEnvFor(result.hook), 'TASK_ID', 'ERROR']);
    // A scenario decides how many runs there are (40 agents whose hook printed 2 MiB made a 250 MB report):
    // their output shares one budget; a run past it keeps the first 4 KiB of each stream.
    const keep = (text: string): { text: string; omitted?: number } => {
      const kept = Math.min(text.length, Math.max(RUN_OUTPUT_FLOOR, this.outputLeft));
      this.outputLeft = Math.max(0, this.outputLeft - kept);
      return kept < text.length ? { text: text.slice(0, kept), omitted: text.length - kept } : { text };
    };
    const stdout = keep(result.stdout);
    const stderr = keep(result.stderr);
    const env = Object.fromEntries(Object.entries(result.env).filter(([name]) => runtimeNames.has(name)));
    const record: HookRunRecord = {
      runId: result.runId,
      agentId: agent.id,
      role: agent.role,
      profile: agent.profile,
      hook: result.hook,
      ...(agent.iteration !== undefined ? { iteration: agent.iteration } : {}),
      startedAt: result.startedAt,
      durationMs: result.durationMs,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      failed: result.failed,
      stdout: stdout.text,
      stderr: stderr.text,
      ...(stdout.omitted ? { stdoutOmitted: stdout.omitted } : {}),
      ...(stderr.omitted ? { stderrOmitted: stderr.omitted } : {}),
      env,
      operations: result.operations,
      events: result.events,
      ...(result.error ? { error: result.error } : {}),
    };
    this.hookRuns.push(record);
    return record;
  }

  /** The runtime's log entry and metrics for one run, in project-level memory. */
  private async logRun(run: HookRunRecord): Promise<void> {
    const memory = await this.session.memory();
    const who = { agentId: RUNTIME_IDENTITY, swarmId: this.options.swarmId };
    const entry: HookLogEntry = {
      level: run.failed ? 'error' : 'debug',
      component: RUNTIME_IDENTITY,
      hook: run.hook,
      agent: run.agentId,
      duration_ms: Math.round(run.durationMs),
      exit_code: run.exitCode,
      output: run.stdout.slice(0, 4096),
      timestamp: Math.floor(Date.now() / 1000),
      ...(run.failed
        ? {
            error: run.timedOut
              ? 'Hook exceeded its timeout and was killed'
              : (run.error ?? `Command failed with exit code ${run.exitCode ?? 'none'}`),
          }
        : {}),
      ...(run.failed && run.stderr ? { stderr: run.stderr.slice(0, 4096) } : {}),
    };
    const log = this.logs.get(run.agentId) ?? [];
    log.push(entry);
    this.logs.set(run.agentId, log);
    memory.store(who, { level: 'project', key: HOOK_LOG_KEY(run.agentId), value: JSON.stringify(log) });

    const metric = this.metrics.hooks[run.hook] ?? { executions: 0, failures: 0, avg_duration_ms: 0, max_duration_ms: 0 };
    const total = metric.avg_duration_ms * metric.executions + run.durationMs;
    metric.executions += 1;
    if (run.failed) metric.failures += 1;
    metric.avg_duration_ms = Math.round(total / metric.executions);
    metric.max_duration_ms = Math.max(metric.max_duration_ms, Math.round(run.durationMs));
    this.metrics.hooks[run.hook] = metric;
    memory.store(who, { level: 'project', key: HOOK_METRICS_KEY, value: JSON.stringify(this.metrics) });
  }

  /**
   * The documented blocking lifecycle of one agent: `on_blocking_start`,
   * then the wait (the signal, or the threshold passing), then
   * `on_signal_received` or `on_blocking_timeout` with their variables.
   */
  async block(
    agent: AgentRecord,
    options: {
      blockingType: string;
      thresholdMs: number;
      /** What the agent waits for, as the timeline says it. */
      waitingFor: string;
      signal?: Promise<{ data: unknown }>;
      signalId?: string;
    },
  ): Promise<WaitOutcome> {
    const common = { BLOCKING_TYPE: options.blockingType, TIMEOUT_THRESHOLD: String(options.thresholdMs) };
    await this.runHook(agent, 'on_blocking_start', common);
    agent.status = 'blocked';
    const started = this.now();
    this.step({
      actor: agent.id,
      kind: 'block',
      iteration: agent.iteration,
      text: `blocks: waits for ${options.waitingFor} (threshold ${options.thresholdMs} ms)`,
    });
    const outcome = await waitWithThreshold(options.signal, options.thresholdMs);
    const elapsed = this.now() - started;
    if (outcome.kind === 'signal') {
      const data = typeof outcome.data === 'string' ? outcome.data : JSON.stringify(outcome.data);
      this.step({
        actor: agent.id,
        kind: 'signal',
        iteration: agent.iteration,
        text: `signal received after ${Math.round(elapsed)} ms: ${shorten(data)}`,
      });
      await this.runHook(agent, 'on_signal_received', {
        ...common,
        SIGNAL_DATA: data,
        WAIT_DURATION: String(Math.round(elapsed)),
        ...(options.signalId ? { SIGNAL_ID: options.signalId } : {}),
      });
      agent.status = 'resumed';
      return { kind: 'signal', data: outcome.data, waitMs: elapsed };
    }
    const exceededBy = Math.max(0, Math.round(elapsed - options.thresholdMs));
    this.step({
      actor: agent.id,
      kind: 'timeout',
      iteration: agent.iteration,
      text: `blocking timeout: ${options.thresholdMs} ms passed waiting for ${options.waitingFor}`,
    });
    await this.runHook(agent, 'on_blocking_timeout', {
      ...common,
      TIMEOUT_DURATION: String(Math.round(elapsed)),
      EXCEEDED_BY: String(exceededBy),
      ...(options.signalId ? { SIGNAL_ID: options.signalId } : {}),
    });
    agent.status = 'timed-out';
    return { kind: 'timeout', durationMs: elapsed, exceededByMs: exceededBy };
  }

  /** A Redis command from the orchestrator or on an agent's behalf (what its CLI calls would send), traced. */
  redis(command: string[], agentId = 'orchestrator'): Promise<unknown> {
    return this.session.callRedis(command, { agentId });
  }

  /** Every key in Redis with its type and value, read without tracing. */
  async redisSnapshot(): Promise<Array<{ key: string; type: string; value: unknown; ttlMs?: number }>> {
    const redis = this.session.redis;
    const keys = (await redis.call(['KEYS', '*'])) as string[] | null;
    const snapshot = [];
    for (const key of [...(Array.isArray(keys) ? keys : [])].sort()) {
      const type = String(await redis.call(['TYPE', key]));
      const read: Record<string, string[]> = {
        string: ['GET', key],
        list: ['LRANGE', key, '0', '-1'],
        hash: ['HGETALL', key],
        set: ['SMEMBERS', key],
        zset: ['ZRANGE', key, '0', '-1', 'WITHSCORES'],
      };
      const value = read[type] ? await redis.call(read[type]) : null;
      const ttl = Number(await redis.call(['PTTL', key]));
      snapshot.push({ key, type, value, ...(ttl > 0 ? { ttlMs: ttl } : {}) });
    }
    return snapshot;
  }

  allOperations(): TraceOperation[] {
    return this.session.trace.operations;
  }

  allEvents(): PublishedEvent[] {
    return this.session.events;
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

export function roleName(role: AgentRole): string {
  return { agent: 'agent', implementer: 'Loop 3 implementer', validator: 'Loop 2 validator', 'product-owner': 'Product Owner' }[role];
}

export function shorten(text: string, max = 160): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
