/**
 * The keyspace of one database (db.c): values by key, each with its expiry,
 * expired lazily on access as Redis does.
 */
import type { Waiter } from './blocking.js';
import { fromByteString } from './bytes.js';
import { ReplyError, WRONGTYPE } from './errors.js';
import { error } from './resp.js';
import type { SortedSet } from './sorted-set.js';
import type { Store } from './store.js';

export type StoredValue =
  | { readonly type: 'string'; value: string }
  | { readonly type: 'list'; readonly items: string[] }
  | { readonly type: 'hash'; readonly fields: Map<string, string> }
  | { readonly type: 'set'; readonly members: Set<string> }
  | { readonly type: 'zset'; readonly zset: SortedSet };

export type ValueType = StoredValue['type'];
export type ValueOf<T extends ValueType> = Extract<StoredValue, { type: T }>;

interface Entry {
  value: StoredValue;
  /** Absolute time in ms (the store's clock), or null for no expiry. */
  expiresAt: number | null;
}

/** A key as the executor sees it in a snapshot: UTF-8 decoded, expiry relative. */
export interface SnapshotEntry {
  readonly type: ValueType;
  readonly value: string | string[] | Record<string, string> | { member: string; score: number }[];
  readonly ttlMs: number | null;
}

export class Database {
  private readonly entries = new Map<string, Entry>();
  /** FIFO queues of blocked clients per key: the first one blocked is served first. */
  readonly waiters = new Map<string, Waiter[]>();

  constructor(
    readonly index: number,
    private readonly store: Store,
  ) {}

  /** The value of a live key; deletes it first when it has expired (lazy expiry, like Redis). */
  lookup(key: string): StoredValue | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && this.store.now() > entry.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value of `key` if it has type `type`; throws WRONGTYPE for another type. */
  lookupTyped<T extends ValueType>(key: string, type: T): ValueOf<T> | undefined {
    const value = this.lookup(key);
    if (value === undefined) return undefined;
    if (value.type !== type) throw new ReplyError(error(WRONGTYPE));
    return value as ValueOf<T>;
  }

  /** Stores a value under `key`; like Redis's setKey, an existing TTL goes unless `keepTtl`. */
  set(key: string, value: StoredValue, options: { keepTtl?: boolean } = {}): void {
    const existing = options.keepTtl && this.lookup(key) !== undefined ? this.entries.get(key) : undefined;
    this.entries.set(key, { value, expiresAt: existing?.expiresAt ?? null });
    if (value.type === 'list' || value.type === 'zset') this.store.signalKeyAsReady(this, key);
  }

  delete(key: string): boolean {
    return this.lookup(key) !== undefined && this.entries.delete(key);
  }

  /** Removes a collection key once its last element is gone, as Redis does. */
  deleteIfEmpty(key: string, value: StoredValue): void {
    const size =
      value.type === 'list'
        ? value.items.length
        : value.type === 'hash'
          ? value.fields.size
          : value.type === 'set'
            ? value.members.size
            : value.type === 'zset'
              ? value.zset.size
              : 1;
    if (size === 0) this.entries.delete(key);
  }

  expiresAt(key: string): number | null {
    return this.lookup(key) === undefined ? null : (this.entries.get(key)?.expiresAt ?? null);
  }

  setExpiry(key: string, expiresAt: number | null): void {
    const entry = this.lookup(key) === undefined ? undefined : this.entries.get(key);
    if (entry) entry.expiresAt = expiresAt;
  }

  /** Live keys, in insertion order; expired ones are dropped on the way. */
  keys(): string[] {
    const live: string[] = [];
    for (const key of [...this.entries.keys()]) if (this.lookup(key) !== undefined) live.push(key);
    return live;
  }

  /** Live keys and their values, without expiring anything (for counting the keyspace's bytes). */
  *liveEntries(): Generator<[string, StoredValue]> {
    const now = this.store.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt === null || now <= entry.expiresAt) yield [key, entry.value];
  }

  get size(): number {
    return this.keys().length;
  }

  clear(): void {
    this.entries.clear();
  }

  /** A UTF-8 view of every live key, for traces and assertions. */
  snapshot(): Record<string, SnapshotEntry> {
    const now = this.store.now();
    const result: Record<string, SnapshotEntry> = {};
    for (const key of this.keys()) {
      const entry = this.entries.get(key)!;
      const ttlMs = entry.expiresAt === null ? null : Math.max(0, entry.expiresAt - now);
      result[fromByteString(key)] = { type: entry.value.type, value: snapshotValue(entry.value), ttlMs };
    }
    return result;
  }
}

function snapshotValue(value: StoredValue): SnapshotEntry['value'] {
  switch (value.type) {
    case 'string':
      return fromByteString(value.value);
    case 'list':
      return value.items.map(fromByteString);
    case 'set':
      return [...value.members].map(fromByteString);
    case 'hash':
      return Object.fromEntries([...value.fields].map(([field, v]) => [fromByteString(field), fromByteString(v)]));
    case 'zset':
      return value.zset.entries().map(({ member, score }) => ({ member: fromByteString(member), score }));
  }
}
