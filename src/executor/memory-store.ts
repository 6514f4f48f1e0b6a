import { HOST_LIMITS, mebibytes } from './host-limits.js';
import { writeFile } from 'node:fs/promises';
import type { BindParams, Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { MEMORY_LEVELS } from '../runtime/contract.js';
import { compileGlob } from './memory-glob.js';

/**
 * The store behind `/sqlite-memory`: a real SQLite database (sql.js, in
 * memory, in the host process) with the runtime's three documented levels.
 * The runtime's own implementation is not public; these semantics follow its
 * documentation:
 *
 * - `agent` entries are private to the agent that wrote them: every agent
 *   has its own namespace, so two agents may both keep a private `status`.
 *   An agent asking for a key that only another agent holds is *denied*
 *   rather than told it does not exist: the simulator reports that as a
 *   finding, and it is what an author needs to see.
 * - `swarm` entries are shared by the agents of one swarm; every swarm has
 *   its own namespace.
 * - `project` entries are shared by everyone.
 *
 * Who is asking never comes from the hook's environment: the caller passes
 * the identity the sandbox session established.
 */

export type MemoryLevel = (typeof MEMORY_LEVELS)[number];

export interface MemoryIdentity {
  agentId: string;
  swarmId: string;
}

export interface MemoryEntry {
  level: MemoryLevel;
  key: string;
  /** The agent that last wrote the entry. */
  owner: string;
  /** The swarm namespace of a swarm-level entry; empty for the other levels. */
  swarmId: string;
  value: string;
  createdAt: number;
  updatedAt: number;
  expiresAt: number | null;
}

export type MemoryDenial = { ok: false; reason: 'not-found' | 'denied' | 'full'; message: string };

/** Bytes of keys and values the store holds at most: it lives in the executor's memory, and hooks fill it. */
export const MAX_MEMORY_STORE_BYTES = HOST_LIMITS.memoryStoreBytes;
export type MemoryResult<T> = ({ ok: true } & T) | MemoryDenial;

export function isMemoryLevel(text: string): text is MemoryLevel {
  return (MEMORY_LEVELS as readonly string[]).includes(text);
}

const SCHEMA = `
CREATE TABLE memory (
  level TEXT NOT NULL CHECK (level IN ('agent', 'swarm', 'project')),
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  owner TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER,
  PRIMARY KEY (level, scope, key)
);
CREATE TABLE memory_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  action TEXT NOT NULL,
  level TEXT,
  key TEXT,
  outcome TEXT NOT NULL
);
`;

let sqlJsPromise: Promise<SqlJsStatic> | undefined;

/**
 * sql.js compiles its wasm once per process (~30 ms); every store shares it.
 * Imported on first use: a run whose hook stores nothing never loads it.
 */
function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJsPromise ??= import('sql.js').then((module) => module.default());
  return sqlJsPromise;
}

export class MemoryStore {
  private readonly statements = new Map<string, Statement>();
  /** Bytes of keys and values the store holds, once summed (heldBytes). */
  private held: number | undefined;

  private constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly maxBytes: number,
  ) {}

  static async create(options: { now?: () => number; maxBytes?: number } = {}): Promise<MemoryStore> {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    // The database lives in memory, so its rollback journal may too: sql.js otherwise writes it to its
    // emulated file system on every statement (about half of a store's two writes).
    db.exec(`PRAGMA journal_mode = MEMORY;${SCHEMA}`);
    return new MemoryStore(db, options.now ?? Date.now, options.maxBytes ?? MAX_MEMORY_STORE_BYTES);
  }

  store(
    who: MemoryIdentity,
    request: { level: MemoryLevel; key: string; value: string; ttlSeconds?: number },
  ): MemoryResult<{ created: boolean }> {
    const { level, key } = request;
    const existing = this.row(level, scopeOf(level, who), key);
    const freed = existing ? entryBytes(existing.key, existing.value) : 0;
    const added = entryBytes(key, request.value);
    if (this.heldBytes() - freed + added > this.maxBytes)
      return {
        ok: false,
        reason: 'full',
        message: `the memory store is full (it holds at most ${mebibytes(this.maxBytes)} of keys and values)`,
      };
    const now = this.now();
    const expiresAt = request.ttlSeconds === undefined ? null : now + request.ttlSeconds * 1000;
    this.run(
      `INSERT INTO memory (level, scope, key, value, owner, created_at, updated_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (level, scope, key) DO UPDATE SET value = excluded.value, owner = excluded.owner,
         updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
      [level, scopeOf(level, who), key, request.value, who.agentId, now, now, expiresAt],
    );
    if (this.held !== undefined) this.held += added - freed;
    this.log(who, 'store', level, key, existing ? 'updated' : 'created');
    return { ok: true, created: !existing };
  }

  retrieve(who: MemoryIdentity, request: { level: MemoryLevel; key: string }): MemoryResult<{ entry: MemoryEntry }> {
    const { level, key } = request;
    const entry = this.row(level, scopeOf(level, who), key);
    if (!entry) {
      const denial = this.denyForeign(who, 'retrieve', level, key);
      if (denial) return denial;
      this.log(who, 'retrieve', level, key, 'not-found');
      return { ok: false, reason: 'not-found', message: `no ${level}-level entry '${key}'` };
    }
    this.log(who, 'retrieve', level, key, 'ok');
    return { ok: true, entry };
  }

  delete(who: MemoryIdentity, request: { level: MemoryLevel; key: string }): MemoryResult<{ deleted: boolean }> {
    const { level, key } = request;
    const entry = this.row(level, scopeOf(level, who), key);
    if (!entry) {
      const denial = this.denyForeign(who, 'delete', level, key);
      if (denial) return denial;
    }
    if (entry) this.remove(entry, scopeOf(level, who));
    this.log(who, 'delete', level, key, entry ? 'deleted' : 'not-found');
    return { ok: true, deleted: Boolean(entry) };
  }

  /**
   * Entries the caller may read, optionally of one level and with keys
   * matching a glob (`*` any run of characters, `?` one character).
   * Other agents' private entries are left out, not reported as denied:
   * a listing is not an attempt to read them.
   */
  visible(who: MemoryIdentity, filter: { level?: MemoryLevel; keyGlob?: string } = {}): MemoryEntry[] {
    const matches = filter.keyGlob === undefined ? () => true : globMatcher(filter.keyGlob);
    return this.live().filter(
      (entry) => (filter.level === undefined || entry.level === filter.level) && isVisibleTo(entry, who) && matches(entry.key),
    );
  }

  /** Records a read-side query in the log table, so the saved database tells the whole story. */
  noteQuery(who: MemoryIdentity, action: string, level: MemoryLevel | undefined, pattern: string | undefined, count: number): void {
    this.log(who, action, level ?? null, pattern ?? null, `${count} entries`);
  }

  /** Every live entry, whoever owns it: what the trace shows after a run. */
  entries(): MemoryEntry[] {
    return this.live();
  }

  export(): Uint8Array {
    return this.db.export();
  }

  async saveTo(file: string): Promise<void> {
    await writeFile(file, this.export());
  }

  close(): void {
    // sql.js frees the statements it prepared with the database.
    this.statements.clear();
    this.db.close();
  }

  /** An agent-level key the caller lacks but another agent holds: that is a denial, not an absence. */
  private denyForeign(who: MemoryIdentity, action: string, level: MemoryLevel, key: string): MemoryDenial | undefined {
    if (level !== 'agent') return undefined;
    const [result] = this.db.exec(
      "SELECT owner FROM memory WHERE level = 'agent' AND key = ? AND scope <> ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY updated_at DESC LIMIT 1",
      [key, who.agentId, this.now()],
    );
    const owner = result?.values[0]?.[0];
    if (owner === undefined || owner === null) return undefined;
    this.log(who, action, level, key, `denied (owner ${String(owner)})`);
    return { ok: false, reason: 'denied', message: `access denied: agent-level entry '${key}' is private to agent '${String(owner)}'` };
  }

  private row(level: MemoryLevel, scope: string, key: string): MemoryEntry | undefined {
    const statement = this.statement('SELECT * FROM memory WHERE level = ? AND scope = ? AND key = ?');
    let entry: MemoryEntry;
    try {
      statement.bind([level, scope, key]);
      if (!statement.step()) return undefined;
      entry = toEntry(statement.getAsObject());
    } finally {
      statement.reset();
    }
    if (entry.expiresAt !== null && entry.expiresAt <= this.now()) {
      this.remove(entry, scope);
      return undefined;
    }
    return entry;
  }

  private remove(entry: MemoryEntry, scope: string): void {
    this.run('DELETE FROM memory WHERE level = ? AND scope = ? AND key = ?', [entry.level, scope, entry.key]);
    if (this.held !== undefined) this.held -= entryBytes(entry.key, entry.value);
  }

  /**
   * Bytes of keys and values held, summed by SQLite once and then kept up to
   * date by the writes (a sum on every store grew with the store).
   */
  private heldBytes(): number {
    this.held ??= Number(
      this.first('SELECT COALESCE(SUM(LENGTH(CAST(value AS BLOB)) + LENGTH(CAST(key AS BLOB))), 0) FROM memory', [])?.[0] ?? 0,
    );
    return this.held;
  }

  /**
   * The store's statements, each prepared once: sql.js spends most of a
   * one-off statement preparing it (a lookup: 185 µs prepared each time,
   * 33 µs prepared once), and every hook's memory call runs three or four.
   */
  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private run(sql: string, params: BindParams): void {
    this.statement(sql).run(params);
  }

  /** The first row's values, or undefined. */
  private first(sql: string, params: BindParams): SqlValue[] | undefined {
    const statement = this.statement(sql);
    try {
      statement.bind(params);
      return statement.step() ? statement.get() : undefined;
    } finally {
      statement.reset();
    }
  }

  private live(): MemoryEntry[] {
    this.db.run('DELETE FROM memory WHERE expires_at IS NOT NULL AND expires_at <= ?', [this.now()]);
    if (this.db.getRowsModified() > 0) this.held = undefined;
    const [result] = this.db.exec('SELECT * FROM memory ORDER BY level, scope, key');
    if (!result) return [];
    return result.values.map((values) => toEntry(Object.fromEntries(result.columns.map((column, i) => [column, values[i] ?? null]))));
  }

  private log(who: MemoryIdentity, action: string, level: string | null, key: string | null, outcome: string): void {
    this.run('INSERT INTO memory_log (at, agent_id, action, level, key, outcome) VALUES (?, ?, ?, ?, ?, ?)', [
      this.now(),
      who.agentId,
      action,
      level,
      key,
      outcome,
    ]);
  }
}

/** What an entry counts against the store's limit: its key's and its value's UTF-8 bytes, as SQLite measures them. */
function entryBytes(key: string, value: string): number {
  return Buffer.byteLength(key) + Buffer.byteLength(value);
}

/** The namespace an entry lives in: its agent, its swarm, or the one project namespace. */
function scopeOf(level: MemoryLevel, who: MemoryIdentity): string {
  if (level === 'agent') return who.agentId;
  return level === 'swarm' ? who.swarmId : '';
}

function isVisibleTo(entry: MemoryEntry, who: MemoryIdentity): boolean {
  // Only an agent writes into its own namespace, so the owner is the namespace.
  if (entry.level === 'agent') return entry.owner === who.agentId;
  if (entry.level === 'swarm') return entry.swarmId === who.swarmId;
  return true;
}

function toEntry(row: Record<string, SqlValue>): MemoryEntry {
  const level = String(row.level);
  return {
    level: isMemoryLevel(level) ? level : 'project',
    key: String(row.key),
    owner: String(row.owner),
    swarmId: level === 'swarm' ? String(row.scope) : '',
    value: String(row.value),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: row.expires_at === null || row.expires_at === undefined ? null : Number(row.expires_at),
  };
}

/** A key glob (`*`, `?`), matched in linear time (see memory-glob.ts). */
export function globMatcher(glob: string): (key: string) => boolean {
  return compileGlob(glob);
}
