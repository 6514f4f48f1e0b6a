/** Hash commands (t_hash.c). */
import { arityError, checkReplyBytes, fail } from './errors.js';
import { command, type CommandContext, type CommandSpec } from './commands.js';
import type { Database, ValueOf } from './database.js';
import { LLONG_MAX, LLONG_MIN, parseLongLong, requireLongLong } from './numbers.js';
import { OK, array, bulkBytes, integer, type RespReply } from './resp.js';

function hashForWrite(db: Database, key: string): Map<string, string> {
  const existing = db.lookupTyped(key, 'hash');
  if (existing) return existing.fields;
  const created: ValueOf<'hash'> = { type: 'hash', fields: new Map() };
  db.set(key, created);
  return created.fields;
}

function hsetCommand(name: string, replyOk: boolean): CommandSpec {
  return command(name, -4, (args, _ctx, db) => {
    if (args.length % 2 === 1) return arityError(name);
    const fields = hashForWrite(db, args[1]!);
    let created = 0;
    for (let i = 2; i < args.length; i += 2) {
      if (!fields.has(args[i]!)) created++;
      fields.set(args[i]!, args[i + 1]!);
    }
    return replyOk ? OK : integer(created);
  });
}

function hincrbyCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const increment = requireLongLong(args[3]!);
  const fields = hashForWrite(db, args[1]!);
  const field = args[2]!;
  const current = fields.get(field);
  const oldValue = current === undefined ? 0n : parseLongLong(current);
  if (oldValue === null) fail('hash value is not an integer');
  const newValue = oldValue + increment;
  if (newValue > LLONG_MAX || newValue < LLONG_MIN) fail('increment or decrement would overflow');
  fields.set(field, newValue.toString());
  return integer(newValue);
}

export function hashCommands(): CommandSpec[] {
  return [
    hsetCommand('hset', false),
    hsetCommand('hmset', true),
    command('hsetnx', 4, (args, _ctx, db) => {
      const fields = hashForWrite(db, args[1]!);
      if (fields.has(args[2]!)) return integer(0);
      fields.set(args[2]!, args[3]!);
      return integer(1);
    }),
    command('hget', 3, (args, _ctx, db) => bulkBytes(db.lookupTyped(args[1]!, 'hash')?.fields.get(args[2]!) ?? null)),
    command('hmget', -3, (args, _ctx, db) => {
      const fields = db.lookupTyped(args[1]!, 'hash')?.fields;
      const values = args.slice(2).map((field) => fields?.get(field) ?? null);
      checkReplyBytes(values.reduce((sum, value) => sum + (value?.length ?? 0), 0));
      return array(values.map(bulkBytes));
    }),
    command('hgetall', 2, (args, _ctx, db) => {
      const fields = db.lookupTyped(args[1]!, 'hash')?.fields ?? new Map<string, string>();
      return array([...fields].flatMap(([field, value]) => [bulkBytes(field), bulkBytes(value)]));
    }),
    command('hkeys', 2, (args, _ctx, db) =>
      array([...(db.lookupTyped(args[1]!, 'hash')?.fields.keys() ?? [])].map((field) => bulkBytes(field))),
    ),
    command('hvals', 2, (args, _ctx, db) =>
      array([...(db.lookupTyped(args[1]!, 'hash')?.fields.values() ?? [])].map((value) => bulkBytes(value))),
    ),
    command('hdel', -3, (args, _ctx, db) => {
      const hash = db.lookupTyped(args[1]!, 'hash');
      if (!hash) return integer(0);
      let deleted = 0;
      for (const field of args.slice(2)) if (hash.fields.delete(field)) deleted++;
      db.deleteIfEmpty(args[1]!, hash);
      return integer(deleted);
    }),
    command('hexists', 3, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'hash')?.fields.has(args[2]!) ? 1 : 0)),
    command('hlen', 2, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'hash')?.fields.size ?? 0)),
    command('hincrby', 4, hincrbyCommand),
  ];
}
