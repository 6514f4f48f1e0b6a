/**
 * The Redis fake's maxmemory: it lives in the executor's process, and hooks
 * fill it. Like Redis with `maxmemory-policy noeviction`, a command that may
 * add data (Redis flags them `denyoom`) is refused with the OOM error while
 * the keyspace is over its budget; reads, deletes and pops still work. The
 * command that crosses the line completes, so the keyspace holds at most the
 * budget plus one command's arguments.
 *
 * Usage is counted exactly only now and then: each admitted command is
 * charged its arguments' bytes (with the per-item overhead), an upper bound
 * of what it can add; when the charge passes the budget the keyspace is
 * counted again, once per change to it.
 */
import { HOST_LIMITS, mebibytes } from '../host-limits.js';
import type { CommandSpec } from './commands.js';
import type { Database, StoredValue } from './database.js';
import { ReplyError } from './errors.js';
import { error } from './resp.js';

/** Fixed overhead counted for each key, and for each element of a collection. */
const KEY_OVERHEAD = 64;
const ELEMENT_OVERHEAD = 32;
/** What one argument can add at most besides its bytes: a key, or an element (a hash field and its value are two). */
const ARGUMENT_OVERHEAD = KEY_OVERHEAD;

/** Commands that add data beyond their arguments' size: after one, the keyspace is counted at once. */
const AMPLIFYING = new Set([
  'setrange',
  'setbit',
  'bitfield',
  'bitop',
  'copy',
  'restore',
  'sort',
  'sunionstore',
  'sinterstore',
  'sdiffstore',
  'zunionstore',
  'zinterstore',
  'zdiffstore',
  'zrangestore',
  'pfmerge',
]);
/**
 * Commands that can add data (Redis's `denyoom` flag), those the fake has and
 * those it may get. Any of them adds at most its arguments, but for the ones
 * in AMPLIFYING, whose growth is not bounded by their arguments: after those
 * the keyspace is counted at once.
 */
const DENY_OOM = new Set([
  'set',
  'setex',
  'psetex',
  'setnx',
  'getset',
  'mset',
  'msetnx',
  'append',
  'incr',
  'decr',
  'incrby',
  'decrby',
  'incrbyfloat',
  'lpush',
  'rpush',
  'lpushx',
  'rpushx',
  'linsert',
  'lset',
  'lmove',
  'blmove',
  'rpoplpush',
  'brpoplpush',
  'hset',
  'hsetnx',
  'hmset',
  'hincrby',
  'hincrbyfloat',
  'sadd',
  'smove',
  'zadd',
  'zincrby',
  'pfadd',
  'xadd',
  'geoadd',

  ...AMPLIFYING,
]);
/** Commands that can free space: after one of them the keyspace is worth counting again. */
const FREEING = new Set([
  'del',
  'unlink',
  'getdel',
  'getex',
  'lpop',
  'rpop',
  'blpop',
  'brpop',
  'lmpop',
  'blmpop',
  'lrem',
  'ltrim',
  'lset',
  'hdel',
  'srem',
  'spop',
  'zrem',
  'zpopmin',
  'zpopmax',
  'bzpopmin',
  'bzpopmax',
  'zremrangebyrank',
  'zremrangebyscore',
  'flushdb',
  'flushall',
  'expire',
  'pexpire',
  'expireat',
  'pexpireat',
  'set',
  'getset',
  'mset',
  'rename',
  'renamenx',
  'hset',
  'hmset',
]);
/** Expiry frees space without a command: an over-budget keyspace is counted again after this long. */
const RECOUNT_AFTER_MS = 1000;

export const OOM_MESSAGE = `-OOM command not allowed when used memory > 'maxmemory'. (the executor's Redis holds at most ${mebibytes(HOST_LIMITS.redisKeyspaceBytes)} of keys and values per session)`;

export class KeyspaceBudget {
  /** An upper bound of the keyspace's bytes: the last count plus what commands were charged since. */
  private charged = 0;
  /** Set when a command that can free space ran since the last count. */
  private changed = false;
  private countedAt = 0;

  constructor(
    private readonly databases: readonly Database[],
    private readonly now: () => number,
    readonly maxBytes: number = HOST_LIMITS.redisKeyspaceBytes,
  ) {}

  /** Bytes the keyspace holds now, counted. */
  usedBytes(): number {
    let used = 0;
    for (const db of this.databases) for (const [key, value] of db.liveEntries()) used += KEY_OVERHEAD + key.length + valueBytes(value);
    this.charged = used;
    this.changed = false;
    this.countedAt = this.now();
    return used;
  }

  /** Over budget: counted again only when something may have freed space, so a flood of refused writes costs nothing. */
  private full(): boolean {
    if (this.charged <= this.maxBytes) return false;
    if (!this.changed && this.now() - this.countedAt < RECOUNT_AFTER_MS) return true;
    return this.usedBytes() > this.maxBytes;
  }

  /** Wraps a data command: refused with the OOM error while over budget, charged once it ran. */
  guard(spec: CommandSpec): CommandSpec {
    const name = spec.name.split('|')[0]!;
    if (!DENY_OOM.has(name)) {
      if (!FREEING.has(name)) return spec;
      return {
        ...spec,
        run: (args, ctx) => {
          this.changed = true;
          return spec.run(args, ctx);
        },
      };
    }
    const frees = FREEING.has(name);
    return {
      ...spec,
      run: (args, ctx) => {
        if (this.full()) throw new ReplyError(error(OOM_MESSAGE));
        if (frees) this.changed = true;
        try {
          return spec.run(args, ctx);
        } finally {
          if (AMPLIFYING.has(name)) this.usedBytes();
          else for (let i = 1; i < args.length; i++) this.charged += args[i]!.length + ARGUMENT_OVERHEAD;
        }
      },
    };
  }
}

function valueBytes(value: StoredValue): number {
  switch (value.type) {
    case 'string':
      return value.value.length;
    case 'list': {
      let bytes = 0;
      for (const item of value.items) bytes += ELEMENT_OVERHEAD + item.length;
      return bytes;
    }
    case 'hash': {
      let bytes = 0;
      for (const [field, v] of value.fields) bytes += ELEMENT_OVERHEAD + field.length + v.length;
      return bytes;
    }
    case 'set': {
      let bytes = 0;
      for (const member of value.members) bytes += ELEMENT_OVERHEAD + member.length;
      return bytes;
    }
    case 'zset': {
      let bytes = 0;
      for (const entry of value.zset.entries()) bytes += ELEMENT_OVERHEAD + 8 + entry.member.length;
      return bytes;
    }
  }
}
