/** What the fake records of each command for the executor's trace, in plain JSON terms. */
import type { RespReply } from './resp.js';

/** A reply in plain JSON terms, for traces. Integers beyond 2^53 become decimal strings. */
export type TracedReply = string | number | null | { readonly error: string } | readonly TracedReply[];

export interface CommandTraceEntry {
  /** When the command arrived, by the fake's clock (ms). */
  readonly t: number;
  /** How long until it was answered; only blocking and asynchronous commands take time. */
  readonly durationMs: number;
  readonly client: number;
  readonly db: number;
  /** The command and its arguments, decoded as UTF-8. */
  readonly command: string[];
  readonly reply: TracedReply;
  /**
   * The client went away before it could be answered, e.g. a `BLPOP … 0`
   * killed with its hook; `reply` is then null, or what it would have got.
   */
  readonly disconnected?: true;
}

export function toTracedReply(reply: RespReply): TracedReply {
  switch (reply.kind) {
    case 'simple':
      return reply.value;
    case 'error':
      return { error: reply.message };
    case 'integer':
      return typeof reply.value === 'bigint' && !Number.isSafeInteger(Number(reply.value)) ? reply.value.toString() : Number(reply.value);
    case 'bulk':
      return reply.value === null ? null : reply.value.toString('utf8');
    case 'array':
      return reply.items === null ? null : reply.items.map(toTracedReply);
  }
}
