/** Key expiry commands (expire.c): EXPIRE and its variants, TTL, PTTL, PERSIST. */
import { asciiLower, fromByteString } from './bytes.js';
import { command, type CommandSpec } from './commands.js';
import { fail } from './errors.js';
import { LLONG_MAX, LLONG_MIN, requireLongLong } from './numbers.js';
import { integer } from './resp.js';

const lower = asciiLower;

export function invalidExpireTime(commandName: string): never {
  fail(`invalid expire time in '${commandName}' command`);
}

function expireCommand(name: string, base: 'now' | 'epoch', unit: 'seconds' | 'milliseconds'): CommandSpec {
  return command(name, -3, (args, ctx, db) => {
    const flags = new Set<string>();
    for (const option of args.slice(3)) {
      const normalized = lower(option);
      if (!['nx', 'xx', 'gt', 'lt'].includes(normalized)) fail(`Unsupported option ${fromByteString(option)}`);
      flags.add(normalized);
    }
    if (flags.has('nx') && (flags.has('xx') || flags.has('gt') || flags.has('lt'))) {
      fail('NX and XX, GT or LT options at the same time are not compatible');
    }
    if (flags.has('gt') && flags.has('lt')) fail('GT and LT options at the same time are not compatible');
    let when = requireLongLong(args[2]!);
    if (unit === 'seconds') {
      if (when > LLONG_MAX / 1000n || when < LLONG_MIN / 1000n) invalidExpireTime(name);
      when *= 1000n;
    }
    const baseTime = BigInt(base === 'now' ? ctx.store.now() : 0);
    if (when > LLONG_MAX - baseTime) invalidExpireTime(name);
    when += baseTime;
    const key = args[1]!;
    if (db.lookup(key) === undefined) return integer(0);
    const current = db.expiresAt(key);
    const newExpiry = Number(when);
    if (flags.has('nx') && current !== null) return integer(0);
    if (flags.has('xx') && current === null) return integer(0);
    if (flags.has('gt') && (current === null || newExpiry <= current)) return integer(0);
    if (flags.has('lt') && current !== null && newExpiry >= current) return integer(0);
    if (newExpiry <= ctx.store.now()) db.delete(key);
    else db.setExpiry(key, newExpiry);
    return integer(1);
  });
}

function ttlCommand(name: string, inMilliseconds: boolean): CommandSpec {
  return command(name, 2, (args, ctx, db) => {
    const key = args[1]!;
    if (db.lookup(key) === undefined) return integer(-2);
    const expiresAt = db.expiresAt(key);
    if (expiresAt === null) return integer(-1);
    const remaining = Math.max(0, expiresAt - ctx.store.now());
    return integer(inMilliseconds ? remaining : Math.floor((remaining + 500) / 1000));
  });
}

export function expireCommands(): CommandSpec[] {
  return [
    expireCommand('expire', 'now', 'seconds'),
    expireCommand('pexpire', 'now', 'milliseconds'),
    expireCommand('expireat', 'epoch', 'seconds'),
    expireCommand('pexpireat', 'epoch', 'milliseconds'),
    ttlCommand('ttl', false),
    ttlCommand('pttl', true),
    command('persist', 2, (args, _ctx, db) => {
      if (db.expiresAt(args[1]!) === null) return integer(0);
      db.setExpiry(args[1]!, null);
      return integer(1);
    }),
  ];
}
