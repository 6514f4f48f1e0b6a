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

export type MemoryOutcome = 'ok' | 'not-found' | 'denied' | 'invalid' | 'recorded';

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

export class TraceLog {
  readonly operations: TraceOperation[] = [];
  private readonly listeners = new Set<(operation: TraceOperation) => void>();

  constructor(private readonly elapsed: () => number) {}

  record(input: OperationInput): TraceOperation {
    const operation: TraceOperation = { t: roundMs(this.elapsed()), ...input };
    this.operations.push(operation);
    for (const listener of this.listeners) listener(operation);
    return operation;
  }

  /** Milliseconds since the session started, for callers that stamp their own records. */
  now(): number {
    return roundMs(this.elapsed());
  }

  subscribe(listener: (operation: TraceOperation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  forRun(runId: number): TraceOperation[] {
    return this.operations.filter((operation) => operation.runId === runId);
  }
}

export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}
