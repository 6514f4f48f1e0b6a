/**
 * What a hook may ask of a real Redis server (`--redis-url`). The server is
 * somebody's: it may hold other databases, other applications' keys, a
 * password, replication. A hook gets one database — the URL's — and the data
 * commands on it: what the runtime's documents use (GET, SET, SETEX, LPUSH,
 * LPOP, BLPOP, LRANGE, KEYS, PUBLISH, …) and the reads and writes of the same
 * data types. Everything that reaches past the database or the data —
 * CONFIG, FLUSHALL, FLUSHDB, SELECT of another database, MOVE, SWAPDB,
 * REPLICAOF, MIGRATE, MONITOR, CLIENT, DEBUG, ACL, EVAL, RESET, HELLO,
 * pattern subscriptions — is refused with a Redis error the hook sees.
 */

/** The allow-list, by data type; see the executor's README for the table. */
export const ALLOWED_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  strings: [
    'GET',
    'SET',
    'SETNX',
    'SETEX',
    'PSETEX',
    'MGET',
    'MSET',
    'MSETNX',
    'GETSET',
    'GETDEL',
    'GETEX',
    'APPEND',
    'STRLEN',
    'INCR',
    'INCRBY',
    'INCRBYFLOAT',
    'DECR',
    'DECRBY',
    'GETRANGE',
    'SETRANGE',
    'SUBSTR',
    'LCS',
  ],
  keys: [
    'DEL',
    'UNLINK',
    'EXISTS',
    'EXPIRE',
    'PEXPIRE',
    'EXPIREAT',
    'PEXPIREAT',
    'EXPIRETIME',
    'PEXPIRETIME',
    'TTL',
    'PTTL',
    'PERSIST',
    'TYPE',
    'KEYS',
    'SCAN',
    'RENAME',
    'RENAMENX',
    'TOUCH',
    'RANDOMKEY',
    'DBSIZE',
    'COPY',
    'SORT',
    'SORT_RO',
  ],
  hashes: [
    'HSET',
    'HSETNX',
    'HGET',
    'HMSET',
    'HMGET',
    'HGETALL',
    'HDEL',
    'HEXISTS',
    'HKEYS',
    'HVALS',
    'HLEN',
    'HINCRBY',
    'HINCRBYFLOAT',
    'HSTRLEN',
    'HSCAN',
    'HRANDFIELD',
  ],
  lists: [
    'LPUSH',
    'RPUSH',
    'LPUSHX',
    'RPUSHX',
    'LPOP',
    'RPOP',
    'LRANGE',
    'LLEN',
    'LINDEX',
    'LSET',
    'LREM',
    'LTRIM',
    'LINSERT',
    'LPOS',
    'LMOVE',
    'RPOPLPUSH',
    'LMPOP',
    'BLPOP',
    'BRPOP',
    'BLMOVE',
    'BRPOPLPUSH',
    'BLMPOP',
  ],
  sets: [
    'SADD',
    'SREM',
    'SMEMBERS',
    'SISMEMBER',
    'SMISMEMBER',
    'SCARD',
    'SPOP',
    'SRANDMEMBER',
    'SINTER',
    'SINTERCARD',
    'SINTERSTORE',
    'SUNION',
    'SUNIONSTORE',
    'SDIFF',
    'SDIFFSTORE',
    'SMOVE',
    'SSCAN',
  ],
  'sorted sets': [
    'ZADD',
    'ZREM',
    'ZRANGE',
    'ZRANGEBYSCORE',
    'ZRANGEBYLEX',
    'ZREVRANGE',
    'ZREVRANGEBYSCORE',
    'ZREVRANGEBYLEX',
    'ZRANGESTORE',
    'ZSCORE',
    'ZMSCORE',
    'ZCARD',
    'ZCOUNT',
    'ZLEXCOUNT',
    'ZINCRBY',
    'ZRANK',
    'ZREVRANK',
    'ZSCAN',
    'ZPOPMIN',
    'ZPOPMAX',
    'BZPOPMIN',
    'BZPOPMAX',
    'ZMPOP',
    'BZMPOP',
    'ZREMRANGEBYSCORE',
    'ZREMRANGEBYRANK',
    'ZREMRANGEBYLEX',
    'ZRANDMEMBER',
    'ZUNION',
    'ZUNIONSTORE',
    'ZINTER',
    'ZINTERSTORE',
    'ZINTERCARD',
    'ZDIFF',
    'ZDIFFSTORE',
  ],
  streams: [
    'XADD',
    'XRANGE',
    'XREVRANGE',
    'XLEN',
    'XREAD',
    'XDEL',
    'XTRIM',
    'XGROUP',
    'XREADGROUP',
    'XACK',
    'XPENDING',
    'XCLAIM',
    'XAUTOCLAIM',
    'XINFO',
  ],
  'bitmaps and HyperLogLog': ['SETBIT', 'GETBIT', 'BITCOUNT', 'BITPOS', 'BITOP', 'BITFIELD', 'BITFIELD_RO', 'PFADD', 'PFCOUNT', 'PFMERGE'],
  'pub/sub (named channels)': ['PUBLISH', 'SUBSCRIBE', 'UNSUBSCRIBE'],
  transactions: ['MULTI', 'EXEC', 'DISCARD', 'WATCH', 'UNWATCH'],
  connection: ['PING', 'ECHO', 'TIME', 'QUIT'],
};

const ALLOWED = new Set(Object.values(ALLOWED_COMMANDS).flat());

/** What the proxy does with one request. */
export type PolicyDecision =
  | { readonly action: 'forward' }
  /** Answered by the proxy itself (the connection is already authenticated and on its database). */
  | { readonly action: 'answer'; readonly reply: string }
  | { readonly action: 'refuse'; readonly error: string };

export function decide(words: readonly string[], database: number): PolicyDecision {
  const name = (words[0] ?? '').toUpperCase();
  if (name === 'AUTH') return { action: 'answer', reply: 'OK' };
  if (name === 'SELECT') {
    if (words.length === 2 && /^\d+$/.test(words[1]!) && Number(words[1]) === database) return { action: 'answer', reply: 'OK' };
    return refuse(`SELECT ${printable(words[1] ?? '')}: this connection is held to database ${database}, the one --redis-url names`);
  }
  if (name === 'COPY' && words.slice(3).some((word) => word.toUpperCase() === 'DB'))
    return refuse('COPY … DB: this connection is held to one database');
  if (!ALLOWED.has(name)) return refuse(`'${printable(words[0] ?? '')}' is not a data command this executor passes to a real server`);
  return { action: 'forward' };
}

function refuse(reason: string): PolicyDecision {
  return { action: 'refuse', error: `ERR ${reason} (validate-agent-hooks --redis-url allows data commands only)` };
}

/** A word as it may appear inside a one-line Redis error. */
function printable(word: string): string {
  return word.replace(/[^\x20-\x7e]/g, '?').slice(0, 64);
}

/** The database a URL's preamble selects (0 when it selects none). */
export function databaseOf(preamble: readonly (readonly string[])[]): number {
  const select = preamble.find((command) => command[0] === 'SELECT');
  return select ? Number(select[1]) : 0;
}

/** How many replies a command gets: one, except for the subscription commands (one per channel). */
export function expectedReplies(words: readonly string[], subscriptions: number): number {
  const name = (words[0] ?? '').toUpperCase();
  if (name === 'SUBSCRIBE') return Math.max(1, words.length - 1);
  if (name === 'UNSUBSCRIBE') return words.length > 1 ? words.length - 1 : Math.max(1, subscriptions);
  return 1;
}
