/**
 * The shape of a command and the lookup that finds it (server.c's
 * `lookupCommand` and arity check). The type modules build their commands
 * with `command`; the store and the server assemble them into tables.
 */
import type { BlockRequest } from './blocking.js';
import { asciiLower, fromByteString } from './bytes.js';
import type { Database } from './database.js';
import { arityError } from './errors.js';
import { error, type RespReply } from './resp.js';
import type { Store } from './store.js';

const lower = asciiLower;

/** Several replies to one command, as SUBSCRIBE sends one per channel. */
export interface ReplySequence {
  readonly kind: 'replies';
  readonly replies: readonly RespReply[];
}

export type CommandResult = RespReply | BlockRequest | ReplySequence;

export function isBlockRequest(result: CommandResult): result is BlockRequest {
  return result.kind === 'block';
}

/** The connection a command runs for. The server owns it; SELECT changes `dbIndex`. */
export interface ClientState {
  readonly id: number;
  dbIndex: number;
}

export interface CommandContext {
  readonly store: Store;
  readonly client: ClientState;
}

export interface CommandSpec {
  /** Lower-case name as Redis shows it in errors (`client|setname` for a subcommand). */
  readonly name: string;
  /** Redis's convention, counting the command name: N means exactly N, -N at least N. */
  readonly arity: number;
  /** Present on container commands such as CLIENT and CONFIG. */
  readonly subcommands?: ReadonlyMap<string, CommandSpec>;
  /** `args` are byte strings and include the command name (and subcommand) like Redis's argv. */
  readonly run: (args: string[], ctx: CommandContext) => CommandResult | Promise<CommandResult>;
}

export type CommandTable = Map<string, CommandSpec>;

/** Finds the command for `args`, or the error Redis gives for an unknown command or wrong arity. */
export function resolveCommand(table: ReadonlyMap<string, CommandSpec>, args: readonly string[]): CommandSpec | RespReply {
  const name = args[0] ?? '';
  const base = table.get(lower(name));
  if (!base) {
    let quoted = '';
    for (let i = 1; i < args.length && quoted.length < 128; i++) {
      quoted += `'${args[i]!.slice(0, 128 - quoted.length)}' `;
    }
    return error(`unknown command '${fromByteString(name.slice(0, 128))}', with args beginning with: ${fromByteString(quoted)}`);
  }
  let spec = base;
  if (base.subcommands && args.length >= 2) {
    const sub = base.subcommands.get(lower(args[1]!));
    if (!sub) return error(`unknown subcommand '${fromByteString(args[1]!.slice(0, 128))}'. Try ${lower(name).toUpperCase()} HELP.`);
    spec = sub;
  }
  if ((spec.arity > 0 && args.length !== spec.arity) || args.length < -spec.arity) return arityError(spec.name);
  return spec;
}

export type Handler = (args: string[], ctx: CommandContext, db: Database) => CommandResult;

export function command(name: string, arity: number, handler: Handler): CommandSpec {
  return {
    name,
    arity,
    run: (args, ctx) => handler(args, ctx, ctx.store.database(ctx.client.dbIndex)),
  };
}
