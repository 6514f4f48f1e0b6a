/**
 * The Redis fake's data: sixteen databases and the data commands, with the
 * semantics and exact replies of redis-server 7.0 (the version Debian ships,
 * which the differential test runs against).
 *
 * Laid out as Redis lays out its source: one module per data type
 * (strings.ts, lists.ts, hashes.ts, sets.ts, zsets.ts), the keyspace
 * (database.ts, keyspace.ts) and expiry (expire.ts) apart, blocking
 * operations (blocking.ts) apart, number parsing (numbers.ts) and glob
 * matching (glob.ts) apart. Keys and values are byte strings (bytes.ts).
 */
import { BlockedClients, type BlockRequest } from './blocking.js';
import { toByteString } from './bytes.js';
import { isBlockRequest, resolveCommand, type CommandSpec, type CommandTable } from './commands.js';
import { Database, type SnapshotEntry } from './database.js';
import { ReplyError } from './errors.js';
import { hashCommands } from './hashes.js';
import { keyspaceCommands } from './keyspace.js';
import { listCommands } from './lists.js';
import { KeyspaceBudget } from './memory.js';
import { NULL_ARRAY, array, type RespReply } from './resp.js';
import { setCommands } from './sets.js';
import { stringCommands } from './strings.js';
import { sortedSetCommands } from './zsets.js';

/** The data command table, assembled from the type modules in the order Redis 7.0 lists them. */
function buildDataCommands(): CommandSpec[] {
  return [...keyspaceCommands(), ...stringCommands(), ...listCommands(), ...hashCommands(), ...setCommands(), ...sortedSetCommands()];
}

export interface StoreOptions {
  /** Milliseconds since the epoch; inject a fake clock to test expiry without sleeping. */
  now?: () => number;
  /** Redis's default is 16 (SELECT 0-15, `redis-cli -n`). */
  databaseCount?: number;
  /** Bytes the keyspace may hold (maxmemory); HOST_LIMITS.redisKeyspaceBytes by default. */
  maxBytes?: number;
}

export class Store {
  readonly now: () => number;
  readonly databases: readonly Database[];
  /** The data commands; the server adds connection commands to its own table. */
  readonly commands: CommandTable;
  private readonly blocked: BlockedClients;
  /** The keyspace's byte budget: commands that add data are refused with OOM past it. */
  readonly budget: KeyspaceBudget;

  constructor(options: StoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.databases = Array.from({ length: options.databaseCount ?? 16 }, (_, index) => new Database(index, this));
    this.blocked = new BlockedClients(this.databases);
    this.budget = new KeyspaceBudget(this.databases, this.now, options.maxBytes);
    this.commands = new Map(buildDataCommands().map((spec) => [spec.name, this.budget.guard(spec)]));
  }

  database(index: number): Database {
    const db = this.databases[index];
    if (!db) throw new RangeError(`No database ${index}`);
    return db;
  }

  /**
   * Runs one data command outside any connection, e.g. to seed keys before a
   * hook runs. JS strings are sent as UTF-8. A blocking command that would
   * block replies as on timeout, since nobody could wake it.
   */
  run(args: readonly (string | Buffer)[], dbIndex = 0): RespReply {
    const byteArgs = args.map(toByteString);
    const spec = resolveCommand(this.commands, byteArgs);
    if (!('run' in spec)) return spec;
    try {
      const result = spec.run(byteArgs, { store: this, client: { id: 0, dbIndex } });
      if (result instanceof Promise) throw new Error(`${spec.name} is asynchronous`);
      this.serveBlockedClients();
      if (result.kind === 'replies') return array(result.replies);
      return isBlockRequest(result) ? NULL_ARRAY : result;
    } catch (thrown) {
      if (thrown instanceof ReplyError) return thrown.reply;
      throw thrown;
    }
  }

  /** A UTF-8 view of one database, for traces and assertions. */
  snapshot(dbIndex = 0): Record<string, SnapshotEntry> {
    return this.database(dbIndex).snapshot();
  }

  /** Parks a blocked client; returns the function that unparks it (timeout, disconnect). */
  block(request: BlockRequest, deliver: (reply: RespReply) => void): () => void {
    return this.blocked.block(request, deliver);
  }

  get blockedClientCount(): number {
    return this.blocked.count;
  }

  /** Called by writes that may give a blocked client something to pop. */
  signalKeyAsReady(db: Database, key: string): void {
    this.blocked.signalKeyAsReady(db, key);
  }

  /**
   * Serves blocked clients whose keys got data, first blocked first served,
   * as Redis does after every command. Serving can make more keys ready.
   */
  serveBlockedClients(): void {
    this.blocked.serve();
  }
}
