/**
 * Command errors: commands throw a ReplyError and the dispatcher turns it into
 * the reply, so a check deep in a helper answers like Redis's `addReplyError`
 * followed by `return`.
 */
import { HOST_LIMITS, mebibytes } from '../host-limits.js';
import { error, type RespReply } from './resp.js';

export class ReplyError extends Error {
  constructor(readonly reply: RespReply) {
    super(reply.kind === 'error' ? reply.message : 'reply error');
  }
}

export function fail(message: string): never {
  throw new ReplyError(error(message));
}

export const WRONGTYPE = '-WRONGTYPE Operation against a key holding the wrong kind of value';
export const NOT_AN_INTEGER = 'value is not an integer or out of range';
export const NOT_A_FLOAT = 'value is not a valid float';
export const SYNTAX_ERROR = 'syntax error';
export const MUST_BE_POSITIVE = 'value is out of range, must be positive';

/**
 * Refuses a reply whose values add up past the host's bound before it is
 * built (a command that names one value many times, or a transaction of them).
 */
export function checkReplyBytes(bytes: number): void {
  if (bytes > HOST_LIMITS.redisReplyBytes) fail(replyTooLarge(bytes));
}

export function replyTooLarge(bytes: number): string {
  return `reply too large (${bytes} bytes of values; the executor's Redis answers at most ${mebibytes(HOST_LIMITS.redisReplyBytes)} a command)`;
}

/** SUBSCRIBE or PSUBSCRIBE that would take the names all connections hold past the host's bound. */
export function tooManySubscriptions(bytes: number): string {
  return `too many subscriptions (${bytes} bytes of channel and pattern names; the executor's Redis holds at most ${mebibytes(HOST_LIMITS.redisSubscriptionBytes)} of them, all connections together)`;
}

export function arityError(commandName: string): RespReply {
  return error(`wrong number of arguments for '${commandName}' command`);
}
