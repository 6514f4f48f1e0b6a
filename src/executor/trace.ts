/**
 * What a run did, as data: every Redis command, memory operation, event and
 * other runtime command, stamped with milliseconds since the session began and
 * with the agent and run that did it.
 */

interface OperationBase {
  /** Milliseconds since the session started. */
  t: number;
  agentId: string;
  /** The run (one hook execution) the operation belongs to; absent for the host's own calls. */
  runId?: number;
}

export interface RedisOperation extends OperationBase {
  kind: 'redis';
  command: string[];
  /** The reply as JSON: strings, numbers, null, arrays, `{error}`. Absent while a blocking call waits. */
  reply?: unknown;
  durationMs: number;
  /** Set for messages the server sent unasked (pub/sub). */
  push?: boolean;
}

export type MemoryOutcome = 'ok' | 'not-found' | 'denied' | 'full' | 'invalid' | 'recorded' | 'too-large';

export interface MemoryOperation extends OperationBase {
  kind: 'memory';
  action: string;
  args: string[];
  level?: string;
  key?: string;
  pattern?: string;
  /** The value written by `store`. */
  value?: string;
  /** How many entries a read-side query returned. */
  count?: number;
  outcome: MemoryOutcome;
  exitCode: number;
  note?: string;
}

export interface EventOperation extends OperationBase {
  kind: 'event';
  action: string;
  args: string[];
  type?: string;
  priority?: number;
  data?: unknown;
  valid: boolean;
  problems?: string[];
  exitCode: number;
  note?: string;
}

export interface CommandOperation extends OperationBase {
  kind: 'command';
  command: string;
  args: string[];
  exitCode: number;
  note: string;
}

export type TraceOperation = RedisOperation | MemoryOperation | EventOperation | CommandOperation;

/** Distributes `Omit` over the union, so each kind keeps its own fields. */
export type OperationInput = TraceOperation extends infer T ? (T extends TraceOperation ? Omit<T, 't'> : never) : never;

export interface PublishedEvent {
  t: number;
  agentId: string;
  runId?: number;
  type: string;
  priority: number;
  data: unknown;
}

/**
 * How much of one run the trace keeps. A hook that loops LRANGE made a 232 MB
 * report and then crashed the executor; past these, operations are counted,
 * not kept, and the run's trace ends with one record that says how many were
 * left out. Each value in an operation is bounded too (trace-bounds.ts).
 */
export const TRACE_LIMITS = { operationsPerRun: 5000, bytesPerRun: 4 * 1024 * 1024 } as const;
/** What an operation's reply, filled in after it is recorded, may add (values are bounded by trace-bounds.ts). */
const LATE_REPLY_ALLOWANCE = 16 * 1024;

export class TraceLog {
  readonly operations: TraceOperation[] = [];
  private readonly listeners = new Set<(operation: TraceOperation) => void>();
  private readonly perRun = new Map<number, { operations: number; bytes: number; omitted: number }>();

  constructor(private readonly elapsed: () => number) {}

  /**
   * Stamps the operation with the time now, unless it brings its own `t`
   * (when it began, for one recorded as it ends). Past the run's limits the
   * operation is returned but not kept.
   */
  record(input: OperationInput & { t?: number }): TraceOperation {
    const operation: TraceOperation = { t: roundMs(this.elapsed()), ...input };
    if (operation.runId !== undefined) {
      let usage = this.perRun.get(operation.runId);
      if (!usage) this.perRun.set(operation.runId, (usage = { operations: 0, bytes: 0, omitted: 0 }));
      const bytes =
        JSON.stringify(operation).length + (operation.kind === 'redis' && operation.reply === undefined ? LATE_REPLY_ALLOWANCE : 0);
      if (usage.operations >= TRACE_LIMITS.operationsPerRun || usage.bytes + bytes > TRACE_LIMITS.bytesPerRun) {
        usage.omitted++;
        return operation;
      }
      usage.operations++;
      usage.bytes += bytes;
    }
    this.operations.push(operation);
    for (const listener of this.listeners) listener(operation);
    return operation;
  }

  /** Operations of a run that were counted but not kept. */
  omittedFor(runId: number): number {
    return this.perRun.get(runId)?.omitted ?? 0;
  }

  /** Milliseconds since the session started, for callers that stamp their own records. */
  now(): number {
    return roundMs(this.elapsed());
  }

  subscribe(listener: (operation: TraceOperation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A run's operations; when some were left out, a last record says how many. */
  forRun(runId: number): TraceOperation[] {
    const kept = this.operations.filter((operation) => operation.runId === runId);
    const omitted = this.omittedFor(runId);
    if (omitted === 0) return kept;
    const last = kept.at(-1);
    return [
      ...kept,
      {
        t: last?.t ?? 0,
        kind: 'command',
        agentId: last?.agentId ?? '',
        runId,
        command: '(trace)',
        args: [],
        exitCode: 0,
        note: `${omitted} operations omitted: the trace keeps at most ${TRACE_LIMITS.operationsPerRun} operations and ${TRACE_LIMITS.bytesPerRun / 1024 / 1024} MiB per run`,
      },
    ];
  }
}

export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}
