/** List commands (t_list.c), BLPOP and BRPOP included; the blocking machinery is in blocking.ts. */
import { pushAll } from '../../arrays.js';
import { blockingPop } from './blocking.js';
import { command, type CommandContext, type CommandSpec } from './commands.js';
import type { Database } from './database.js';
import { arityError, fail } from './errors.js';
import { rankWindow, requireLong, requirePositiveLong } from './numbers.js';
import { EMPTY_ARRAY, NULL_ARRAY, NULL_BULK, OK, array, bulkBytes, integer, type RespReply } from './resp.js';

function pushCommand(name: string, atHead: boolean, onlyIfExists: boolean): CommandSpec {
  return command(name, -3, (args, ctx, db) => {
    const key = args[1]!;
    let list = db.lookupTyped(key, 'list');
    if (!list) {
      if (onlyIfExists) return integer(0);
      list = { type: 'list', items: [] };
      db.set(key, list);
    }
    const values = args.slice(2);
    // Spread, as a command has at most MAX_COMMAND_ARGUMENTS (65,536) arguments.
    if (atHead) list.items.unshift(...values.reverse());
    else list.items.push(...values);
    ctx.store.signalKeyAsReady(db, key);
    return integer(list.items.length);
  });
}

function popCommand(name: string, fromHead: boolean): CommandSpec {
  return command(name, -2, (args, _ctx, db) => {
    if (args.length > 3) return arityError(name);
    const hasCount = args.length === 3;
    const count = hasCount ? requirePositiveLong(args[2]!) : 1;
    const key = args[1]!;
    const list = db.lookupTyped(key, 'list');
    if (!list) return hasCount ? NULL_ARRAY : NULL_BULK;
    if (hasCount && count === 0) return EMPTY_ARRAY;
    const taken = fromHead ? list.items.splice(0, count) : list.items.splice(-Math.min(count, list.items.length)).reverse();
    db.deleteIfEmpty(key, list);
    return hasCount ? array(taken.map((item) => bulkBytes(item))) : bulkBytes(taken[0]!);
  });
}

function listIndex(indexText: string, length: number): number | null {
  let index = requireLong(indexText);
  if (index < 0) index += length;
  return index >= 0 && index < length ? index : null;
}

function lremCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const toRemove = requireLong(args[2]!);
  const key = args[1]!;
  const element = args[3]!;
  const list = db.lookupTyped(key, 'list');
  if (!list) return integer(0);
  const limit = toRemove === 0 ? Infinity : Math.abs(toRemove);
  // One pass that keeps the rest, not a splice per match: that moved the list's tail each time, quadratic in its length.
  const fromTail = toRemove < 0;
  const items = fromTail ? list.items.reverse() : list.items;
  let removed = 0;
  let kept = 0;
  for (const item of items) {
    if (item === element && removed < limit) removed++;
    else items[kept++] = item;
  }
  items.length = kept;
  if (fromTail) items.reverse();
  db.deleteIfEmpty(key, list);
  return integer(removed);
}

function ltrimCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const start = requireLong(args[2]!);
  const stop = requireLong(args[3]!);
  const key = args[1]!;
  const list = db.lookupTyped(key, 'list');
  if (!list) return OK;
  const window = rankWindow(String(start), String(stop), list.items.length);
  const kept = window ? list.items.slice(window[0], window[1] + 1) : [];
  // Not splice(0, n, ...kept): a list grows past any argument count, a command at a time.
  list.items.length = 0;
  pushAll(list.items, kept);
  db.deleteIfEmpty(key, list);
  return OK;
}

function lsetCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const list = db.lookupTyped(args[1]!, 'list');
  if (!list) fail('no such key');
  const index = listIndex(args[2]!, list.items.length);
  if (index === null) fail('index out of range');
  list.items[index] = args[3]!;
  return OK;
}

function blockingListPop(name: string, fromHead: boolean): CommandSpec {
  return blockingPop(name, 'list', (list) => {
    if (list.items.length === 0) return null;
    return [bulkBytes(fromHead ? list.items.shift()! : list.items.pop()!)];
  });
}

export function listCommands(): CommandSpec[] {
  return [
    pushCommand('lpush', true, false),
    pushCommand('rpush', false, false),
    pushCommand('lpushx', true, true),
    pushCommand('rpushx', false, true),
    popCommand('lpop', true),
    popCommand('rpop', false),
    command('lrange', 4, (args, _ctx, db) => {
      requireLong(args[2]!);
      requireLong(args[3]!);
      const list = db.lookupTyped(args[1]!, 'list');
      if (!list) return EMPTY_ARRAY;
      const window = rankWindow(args[2]!, args[3]!, list.items.length);
      return window ? array(list.items.slice(window[0], window[1] + 1).map((item) => bulkBytes(item))) : EMPTY_ARRAY;
    }),
    command('llen', 2, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'list')?.items.length ?? 0)),
    command('lindex', 3, (args, _ctx, db) => {
      const list = db.lookupTyped(args[1]!, 'list');
      if (!list) return NULL_BULK;
      const index = listIndex(args[2]!, list.items.length);
      return index === null ? NULL_BULK : bulkBytes(list.items[index]!);
    }),
    command('lrem', 4, lremCommand),
    command('ltrim', 4, ltrimCommand),
    command('lset', 4, lsetCommand),
    blockingListPop('blpop', true),
    blockingListPop('brpop', false),
  ];
}
