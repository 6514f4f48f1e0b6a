/**
 * The embedded Redis fake: hooks in the sandbox run the real `redis-cli -s
 * SOCKET` against it, and the executor traces every command they send.
 */
export {
  DEFAULT_MAX_BULK_LENGTH,
  EMPTY_ARRAY,
  NULL_ARRAY,
  NULL_BULK,
  OK,
  RespReplyDecoder,
  RespRequestParser,
  array,
  bulk,
  bulkBytes,
  encodeCommand,
  encodeReply,
  error,
  integer,
  simple,
  type DecodedReply,
  type ParsedRequest,
  type RespReply,
} from './resp.js';
export {
  Database,
  ReplyError,
  SortedSet,
  Store,
  formatDouble,
  fromByteString,
  globMatch,
  toByteString,
  type CommandContext,
  type CommandResult,
  type CommandSpec,
  type SnapshotEntry,
  type StoreOptions,
  type StoredValue,
  type ValueType,
} from './store.js';
export {
  EMULATED_REDIS_VERSION,
  startRedisFake,
  toTracedReply,
  type CommandTraceEntry,
  type ExtraCommandContext,
  type ExtraCommandHandler,
  type RedisFake,
  type RedisFakeOptions,
  type TracedReply,
} from './server.js';
