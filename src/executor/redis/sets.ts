/** Set commands (t_set.c). */
import { command, type CommandContext, type CommandSpec } from './commands.js';
import type { Database } from './database.js';
import { array, bulkBytes, integer, type RespReply } from './resp.js';

function saddCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const key = args[1]!;
  let set = db.lookupTyped(key, 'set');
  if (!set) {
    set = { type: 'set', members: new Set() };
    db.set(key, set);
  }
  let added = 0;
  for (const member of args.slice(2)) {
    if (!set.members.has(member)) {
      set.members.add(member);
      added++;
    }
  }
  return integer(added);
}

function sremCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const key = args[1]!;
  const set = db.lookupTyped(key, 'set');
  if (!set) return integer(0);
  let removed = 0;
  for (const member of args.slice(2)) if (set.members.delete(member)) removed++;
  db.deleteIfEmpty(key, set);
  return integer(removed);
}

export function setCommands(): CommandSpec[] {
  return [
    command('sadd', -3, saddCommand),
    command('srem', -3, sremCommand),
    command('smembers', 2, (args, _ctx, db) =>
      array([...(db.lookupTyped(args[1]!, 'set')?.members ?? [])].map((member) => bulkBytes(member))),
    ),
    command('sismember', 3, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'set')?.members.has(args[2]!) ? 1 : 0)),
    command('scard', 2, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'set')?.members.size ?? 0)),
  ];
}
