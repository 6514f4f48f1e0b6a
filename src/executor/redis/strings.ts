/** String commands (t_string.c): SET and its variants, GET, MGET, MSET, APPEND, STRLEN, INCR/DECR. */
import { asciiLower } from './bytes.js';
import { command, type CommandContext, type CommandSpec } from './commands.js';
import type { Database } from './database.js';
import { arityError, checkReplyBytes, fail, NOT_AN_INTEGER, SYNTAX_ERROR } from './errors.js';
import { invalidExpireTime } from './expire.js';
import { LLONG_MAX, LLONG_MIN, parseLongLong, requireLongLong } from './numbers.js';
import { NULL_BULK, OK, array, bulkBytes, integer, type RespReply } from './resp.js';

const lower = asciiLower;

interface SetOptions {
  onlyIfMissing: boolean;
  onlyIfExists: boolean;
  returnOld: boolean;
  keepTtl: boolean;
  expiry: { unit: 'ex' | 'px' | 'exat' | 'pxat'; argument: string } | null;
}

/** SET's option grammar, with Redis's rule that the expiry options exclude each other and KEEPTTL. */
function parseSetOptions(args: string[]): SetOptions {
  const options: SetOptions = { onlyIfMissing: false, onlyIfExists: false, returnOld: false, keepTtl: false, expiry: null };
  for (let j = 3; j < args.length; j++) {
    const option = lower(args[j]!);
    const next = args[j + 1];
    const unit = options.expiry?.unit;
    if (option === 'nx' && !options.onlyIfExists) options.onlyIfMissing = true;
    else if (option === 'xx' && !options.onlyIfMissing) options.onlyIfExists = true;
    else if (option === 'get') options.returnOld = true;
    else if (option === 'keepttl' && !options.expiry) options.keepTtl = true;
    else if (
      (option === 'ex' || option === 'px' || option === 'exat' || option === 'pxat') &&
      !options.keepTtl &&
      (unit === undefined || unit === option) &&
      next !== undefined
    ) {
      options.expiry = { unit: option, argument: next };
      j++;
    } else fail(SYNTAX_ERROR);
  }
  return options;
}

/** Redis's getExpireMillisecondsOrReply: the absolute expiry time in ms. */
function absoluteExpiry(commandName: string, expiry: NonNullable<SetOptions['expiry']>, now: number): number {
  let amount = requireLongLong(expiry.argument);
  const inSeconds = expiry.unit === 'ex' || expiry.unit === 'exat';
  if (amount <= 0n || (inSeconds && amount > LLONG_MAX / 1000n)) invalidExpireTime(commandName);
  if (inSeconds) amount *= 1000n;
  if (expiry.unit === 'ex' || expiry.unit === 'px') amount += BigInt(now);
  if (amount <= 0n || amount > LLONG_MAX) invalidExpireTime(commandName);
  return Number(amount);
}

function setGeneric(commandName: string, ctx: CommandContext, db: Database, key: string, value: string, options: SetOptions): RespReply {
  const expiresAt = options.expiry ? absoluteExpiry(commandName, options.expiry, ctx.store.now()) : null;
  let oldValue: RespReply = NULL_BULK;
  if (options.returnOld) {
    const old = db.lookupTyped(key, 'string');
    oldValue = old ? bulkBytes(old.value) : NULL_BULK;
  }
  const found = db.lookup(key) !== undefined;
  if ((options.onlyIfMissing && found) || (options.onlyIfExists && !found)) {
    return options.returnOld ? oldValue : NULL_BULK;
  }
  db.set(key, { type: 'string', value }, { keepTtl: options.keepTtl });
  if (expiresAt !== null) db.setExpiry(key, expiresAt);
  return options.returnOld ? oldValue : OK;
}

const noSetOptions: SetOptions = { onlyIfMissing: false, onlyIfExists: false, returnOld: false, keepTtl: false, expiry: null };

function getString(db: Database, key: string): string | undefined {
  return db.lookupTyped(key, 'string')?.value;
}

function incrementBy(db: Database, key: string, increment: bigint): RespReply {
  const current = db.lookupTyped(key, 'string');
  const oldValue = current === undefined ? 0n : parseLongLong(current.value);
  if (oldValue === null) fail(NOT_AN_INTEGER);
  const newValue = oldValue + increment;
  if (newValue > LLONG_MAX || newValue < LLONG_MIN) fail('increment or decrement would overflow');
  db.set(key, { type: 'string', value: newValue.toString() }, { keepTtl: true });
  return integer(newValue);
}

export function stringCommands(): CommandSpec[] {
  return [
    command('set', -3, (args, ctx, db) => setGeneric('set', ctx, db, args[1]!, args[2]!, parseSetOptions(args))),
    command('setex', 4, (args, ctx, db) =>
      setGeneric('setex', ctx, db, args[1]!, args[3]!, { ...noSetOptions, expiry: { unit: 'ex', argument: args[2]! } }),
    ),
    command('psetex', 4, (args, ctx, db) =>
      setGeneric('psetex', ctx, db, args[1]!, args[3]!, { ...noSetOptions, expiry: { unit: 'px', argument: args[2]! } }),
    ),
    command('setnx', 3, (args, _ctx, db) => {
      if (db.lookup(args[1]!) !== undefined) return integer(0);
      db.set(args[1]!, { type: 'string', value: args[2]! });
      return integer(1);
    }),
    command('get', 2, (args, _ctx, db) => bulkBytes(getString(db, args[1]!) ?? null)),
    command('getset', 3, (args, ctx, db) => setGeneric('getset', ctx, db, args[1]!, args[2]!, { ...noSetOptions, returnOld: true })),
    command('getdel', 2, (args, _ctx, db) => {
      const value = getString(db, args[1]!);
      if (value !== undefined) db.delete(args[1]!);
      return bulkBytes(value ?? null);
    }),
    command('mget', -2, (args, _ctx, db) => {
      const values = args.slice(1).map((key) => {
        const value = db.lookup(key);
        return value?.type === 'string' ? value.value : null;
      });
      checkReplyBytes(values.reduce((sum, value) => sum + (value?.length ?? 0), 0));
      return array(values.map(bulkBytes));
    }),
    command('mset', -3, (args, _ctx, db) => {
      if (args.length % 2 === 0) return arityError('mset');
      for (let i = 1; i < args.length; i += 2) db.set(args[i]!, { type: 'string', value: args[i + 1]! });
      return OK;
    }),
    command('append', 3, (args, _ctx, db) => {
      const key = args[1]!;
      const existing = db.lookupTyped(key, 'string');
      if (existing) {
        existing.value += args[2]!;
        return integer(existing.value.length);
      }
      db.set(key, { type: 'string', value: args[2]! });
      return integer(args[2]!.length);
    }),
    command('strlen', 2, (args, _ctx, db) => integer(getString(db, args[1]!)?.length ?? 0)),
    command('incr', 2, (args, _ctx, db) => incrementBy(db, args[1]!, 1n)),
    command('decr', 2, (args, _ctx, db) => incrementBy(db, args[1]!, -1n)),
    command('incrby', 3, (args, _ctx, db) => incrementBy(db, args[1]!, requireLongLong(args[2]!))),
    command('decrby', 3, (args, _ctx, db) => {
      const decrement = requireLongLong(args[2]!);
      if (decrement === LLONG_MIN) fail('decrement would overflow');
      return incrementBy(db, args[1]!, -decrement);
    }),
  ];
}
