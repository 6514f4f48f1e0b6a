/**
 * The embedded Redis fake: hooks in the sandbox run the real `redis-cli -s
 * SOCKET` against it, and the executor traces every command they send.
 *
 * Laid out as Redis lays out its own source, so a behaviour is looked up in
 * the same place on both sides:
 *   protocol      resp.ts (replies), request-parser.ts, reply-decoder.ts  (networking.c)
 *   server        server.ts, connection.ts, connection-commands.ts,
 *                 pubsub.ts, subscriptions.ts, multi.ts, trace.ts     (server.c, networking.c, pubsub.c, multi.c)
 *   commands      commands.ts (spec, lookup, arity)                   (server.c)
 *   keyspace      database.ts, keyspace.ts, expire.ts                 (db.c, expire.c)
 *   data types    strings.ts, lists.ts, hashes.ts, sets.ts, zsets.ts,
 *                 sorted-set.ts                                       (t_string.c … t_zset.c)
 *   blocking      blocking.ts                                         (blocked.c)
 *   helpers       numbers.ts, glob.ts, bytes.ts, errors.ts            (util.c)
 *   the store     store.ts: the databases, and the data command table assembled from the type modules
 */
export {
  DEFAULT_MAX_BULK_LENGTH,
  EMPTY_ARRAY,
  NULL_ARRAY,
  NULL_BULK,
  OK,
  array,
  bulk,
  bulkBytes,
  encodeCommand,
  encodeReply,
  error,
  integer,
  simple,
  type RespReply,
} from './resp.js';
export { RespRequestParser, type ParsedRequest } from './request-parser.js';
export { RespReplyDecoder, type DecodedReply } from './reply-decoder.js';
export { fromByteString, toByteString } from './bytes.js';
export type { CommandContext, CommandResult, CommandSpec } from './commands.js';
export { Database, type SnapshotEntry, type StoredValue, type ValueType } from './database.js';
export { ReplyError } from './errors.js';
export { globMatch } from './glob.js';
export { formatDouble } from './numbers.js';
export { SortedSet } from './sorted-set.js';
export { Store, type StoreOptions } from './store.js';
export { EMULATED_REDIS_VERSION } from './connection-commands.js';
export {
  startRedisFake,
  toTracedReply,
  type CommandTraceEntry,
  type ExtraCommandContext,
  type ExtraCommandHandler,
  type RedisFake,
  type RedisFakeOptions,
  type TracedReply,
} from './server.js';
