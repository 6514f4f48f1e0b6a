/**
 * The commands on keys whatever their type (db.c): DEL, EXISTS, TYPE, KEYS,
 * SCAN, RENAME, DBSIZE, FLUSHDB, FLUSHALL; the expiry commands come from expire.ts.
 */
import { asciiLower } from './bytes.js';
import { command, type CommandContext, type CommandSpec, type Handler } from './commands.js';
import type { Database } from './database.js';
import { fail, NOT_AN_INTEGER, SYNTAX_ERROR } from './errors.js';
import { expireCommands } from './expire.js';
import { globBudget, globMatch } from './glob.js';
import { parseLongLong } from './numbers.js';
import { OK, array, bulkBytes, integer, simple, type RespReply } from './resp.js';

const lower = asciiLower;

function deleteCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  let deleted = 0;
  for (const key of args.slice(1)) if (db.delete(key)) deleted++;
  return integer(deleted);
}

function keysCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const pattern = args[1]!;
  const all = pattern === '*';
  const budget = globBudget();
  return array(
    db
      .keys()
      .filter((key) => all || globMatch(pattern, key, budget))
      .map((key) => bulkBytes(key)),
  );
}

/** SCAN in one pass: the cursor is always 0 afterwards, which Redis clients accept. */
function scanCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const cursor = parseLongLong(args[1]!);
  if (cursor === null || cursor < 0n) fail('invalid cursor');
  let pattern: string | null = null;
  let type: string | null = null;
  for (let i = 2; i < args.length; i += 2) {
    const option = lower(args[i]!);
    const value = args[i + 1];
    if (value === undefined) fail(SYNTAX_ERROR);
    if (option === 'match') pattern = value;
    else if (option === 'count') {
      const count = parseLongLong(value);
      if (count === null) fail(NOT_AN_INTEGER);
      if (count < 1n) fail(SYNTAX_ERROR);
    } else if (option === 'type') type = lower(value);
    else fail(SYNTAX_ERROR);
  }
  const keys = cursor === 0n ? db.keys() : [];
  const budget = globBudget();
  const matching = keys.filter(
    (key) => (pattern === null || globMatch(pattern, key, budget)) && (type === null || db.lookup(key)?.type === type),
  );
  return array([bulkBytes('0'), array(matching.map((key) => bulkBytes(key)))]);
}

function flushOptions(args: string[]): void {
  if (args.length === 2 && ['sync', 'async'].includes(lower(args[1]!))) return;
  if (args.length !== 1) fail(SYNTAX_ERROR);
}

function renameCommand(onlyIfNew: boolean): Handler {
  return (args, _ctx, db) => {
    const [, source, destination] = args as [string, string, string];
    const value = db.lookup(source);
    if (value === undefined) fail('no such key');
    if (source === destination) return onlyIfNew ? integer(0) : OK;
    if (onlyIfNew && db.lookup(destination) !== undefined) return integer(0);
    const expiresAt = db.expiresAt(source);
    db.delete(source);
    db.set(destination, value);
    db.setExpiry(destination, expiresAt);
    return onlyIfNew ? integer(1) : OK;
  };
}

/** In the order Redis's command table lists them, expiry commands included. */
export function keyspaceCommands(): CommandSpec[] {
  return [
    command('del', -2, deleteCommand),
    command('unlink', -2, deleteCommand),
    command('exists', -2, (args, _ctx, db) => integer(args.slice(1).filter((key) => db.lookup(key) !== undefined).length)),
    ...expireCommands(),
    command('type', 2, (args, _ctx, db) => simple(db.lookup(args[1]!)?.type ?? 'none')),
    command('keys', 2, keysCommand),
    command('scan', -2, scanCommand),
    command('rename', 3, renameCommand(false)),
    command('renamenx', 3, renameCommand(true)),
    command('dbsize', 1, (_args, _ctx, db) => integer(db.size)),
    command('flushdb', -1, (args, _ctx, db) => {
      flushOptions(args);
      db.clear();
      return OK;
    }),
    command('flushall', -1, (args, ctx) => {
      flushOptions(args);
      for (const db of ctx.store.databases) db.clear();
      return OK;
    }),
  ];
}
