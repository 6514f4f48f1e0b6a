/** Transactions (multi.c): MULTI, DISCARD, EXEC; queueing happens in the connection. */
import { isBlockRequest, resolveCommand, type CommandContext, type CommandResult, type CommandSpec } from './commands.js';
import { connectionCommandFactory, replyForThrown, runSafely } from './connection.js';
import { HOST_LIMITS } from '../host-limits.js';
import { replyTooLarge } from './errors.js';
import { NULL_ARRAY, OK, array, error, replyBytes, type RespReply } from './resp.js';
import type { RedisFakeServer } from './server.js';

export function transactionCommands(server: RedisFakeServer): CommandSpec[] {
  const connectionCommand = connectionCommandFactory(server);
  return [
    connectionCommand('multi', 1, (_args, connection) => {
      if (connection.transaction) return error('MULTI calls can not be nested');
      connection.transaction = { queued: [], failed: false };
      return OK;
    }),
    connectionCommand('discard', 1, (_args, connection) => {
      if (!connection.transaction) return error('DISCARD without MULTI');
      connection.transaction = null;
      return OK;
    }),
    connectionCommand('exec', 1, (_args, connection, ctx) => {
      const transaction = connection.transaction;
      if (!transaction) return error('EXEC without MULTI');
      connection.transaction = null;
      if (transaction.failed) return error('-EXECABORT Transaction discarded because of previous errors.');
      const replies: RespReply[] = [];
      let bytes = 0;
      const add = (reply: RespReply): void => {
        replies.push(reply);
        bytes += replyBytes(reply);
      };
      // Synchronous unless an extra command is asynchronous; then the rest waits for it, in order.
      const runFrom = (index: number): RespReply | Promise<RespReply> => {
        for (let i = index; i < transaction.queued.length; i++) {
          // Replies past the host's bound are not built: the rest of the queue is not run, and the error says where it stopped.
          if (bytes > HOST_LIMITS.redisReplyBytes) {
            return error(`${replyTooLarge(bytes)}: the transaction stopped after command ${i} of ${transaction.queued.length}`);
          }
          const reply = runInTransaction(server, transaction.queued[i]!, ctx);
          if (reply instanceof Promise) {
            return reply.then((settled) => {
              add(settled);
              return runFrom(i + 1);
            });
          }
          add(reply);
        }
        return array(replies);
      };
      return runFrom(0);
    }),
  ];
}

/** One command of an EXEC. It cannot block: Redis answers a blocking pop there as if it timed out. */
function runInTransaction(server: RedisFakeServer, args: string[], ctx: CommandContext): RespReply | Promise<RespReply> {
  const spec = resolveCommand(server.commands, args);
  if (!('run' in spec)) return spec;
  const asReply = (result: CommandResult): RespReply => {
    if (isBlockRequest(result)) return NULL_ARRAY;
    return result.kind === 'replies' ? array(result.replies) : result;
  };
  const result = runSafely(spec, args, ctx);
  return result instanceof Promise ? result.then(asReply, replyForThrown) : asReply(result);
}
