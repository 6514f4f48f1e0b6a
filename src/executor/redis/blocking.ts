/**
 * Blocking operations (blocked.c): BLPOP, BRPOP, BZPOPMIN and BZPOPMAX serve
 * at once from the first key with data, or park the client until a write
 * gives one of its keys data, first blocked first served.
 */
import { command, type CommandSpec } from './commands.js';
import type { Database, ValueOf, ValueType } from './database.js';
import { ReplyError, WRONGTYPE } from './errors.js';
import { parseTimeoutSeconds } from './numbers.js';
import { array, bulkBytes, error, type RespReply } from './resp.js';

/** A client parked by BLPOP/BRPOP/BZPOPMIN/BZPOPMAX until one of its keys gets data. */
export interface Waiter {
  readonly keys: readonly string[];
  readonly tryServe: (key: string) => RespReply | null;
  readonly deliver: (reply: RespReply) => void;
}

/** What a blocking command returns when it has nothing to serve yet. */
export interface BlockRequest {
  readonly kind: 'block';
  readonly db: Database;
  readonly keys: readonly string[];
  /** 0 blocks forever. */
  readonly timeoutMs: number;
  /** Serves the client from `key` if it holds data of the awaited type now; null otherwise. */
  readonly tryServe: (key: string) => RespReply | null;
}

/**
 * BLPOP/BRPOP/BZPOPMIN/BZPOPMAX: serve now from the first non-empty key, or
 * block on all of them. `pop` takes one element from a value of `type` and
 * returns the reply's items after the key, or null when there is none.
 */
export function blockingPop<T extends ValueType>(name: string, type: T, pop: (value: ValueOf<T>) => RespReply[] | null): CommandSpec {
  return command(name, -3, (args, _ctx, db) => {
    const timeoutMs = parseTimeoutSeconds(args[args.length - 1]!);
    const keys = args.slice(1, -1);
    const tryServe = (key: string, strict: boolean): RespReply | null => {
      const value = db.lookup(key);
      if (value === undefined) return null;
      if (value.type !== type) {
        if (strict) throw new ReplyError(error(WRONGTYPE));
        return null;
      }
      const popped = pop(value as ValueOf<T>);
      if (!popped) return null;
      db.deleteIfEmpty(key, value);
      return array([bulkBytes(key), ...popped]);
    };
    for (const key of keys) {
      const served = tryServe(key, true);
      if (served) return served;
    }
    return { kind: 'block', db, keys, timeoutMs, tryServe: (key) => tryServe(key, false) };
  });
}

/** The blocked clients of a store, parked in their databases' wait queues. */
export class BlockedClients {
  private readonly readyKeys = new Map<Database, Set<string>>();

  constructor(private readonly databases: readonly Database[]) {}

  /** Parks a blocked client; returns the function that unparks it (timeout, disconnect). */
  block(request: BlockRequest, deliver: (reply: RespReply) => void): () => void {
    const waiter: Waiter = { keys: request.keys, tryServe: request.tryServe, deliver };
    for (const key of new Set(request.keys)) {
      const queue = request.db.waiters.get(key);
      if (queue) queue.push(waiter);
      else request.db.waiters.set(key, [waiter]);
    }
    return () => this.unpark(request.db, waiter);
  }

  get count(): number {
    const waiters = new Set<Waiter>();
    for (const db of this.databases) for (const queue of db.waiters.values()) for (const waiter of queue) waiters.add(waiter);
    return waiters.size;
  }

  /** Called by writes that may give a blocked client something to pop. */
  signalKeyAsReady(db: Database, key: string): void {
    if (!db.waiters.has(key)) return;
    const keys = this.readyKeys.get(db);
    if (keys) keys.add(key);
    else this.readyKeys.set(db, new Set([key]));
  }

  /**
   * Serves blocked clients whose keys got data, first blocked first served,
   * as Redis does after every command. Serving can make more keys ready.
   */
  serve(): void {
    while (this.readyKeys.size > 0) {
      const ready = [...this.readyKeys].flatMap(([db, keys]) => [...keys].map((key) => [db, key] as const));
      this.readyKeys.clear();
      for (const [db, key] of ready) {
        for (const waiter of [...(db.waiters.get(key) ?? [])]) {
          let reply: RespReply | null;
          try {
            reply = waiter.tryServe(key);
          } catch (thrown) {
            reply = thrown instanceof ReplyError ? thrown.reply : error(`internal error in the Redis fake: ${String(thrown)}`);
          }
          if (!reply) continue;
          this.unpark(db, waiter);
          waiter.deliver(reply);
        }
      }
    }
  }

  private unpark(db: Database, waiter: Waiter): void {
    for (const key of waiter.keys) {
      const queue = db.waiters.get(key);
      if (!queue) continue;
      const index = queue.indexOf(waiter);
      if (index >= 0) queue.splice(index, 1);
      if (queue.length === 0) db.waiters.delete(key);
    }
  }
}
