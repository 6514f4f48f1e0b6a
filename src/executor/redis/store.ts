/**
 * The data model of the Redis fake and its data commands, with the semantics
 * and exact replies of redis-server 7.0 (the version Debian ships, which the
 * differential test runs against).
 *
 * Keys and values are "byte strings": JS strings whose char codes are bytes
 * (latin1). That keeps the fake binary-safe like Redis (STRLEN counts bytes,
 * any byte sequence round-trips) while Map keys and `<` comparisons still
 * behave like Redis's memcmp. Convert at the edges with `toByteString` /
 * `fromByteString`.
 */
import { EMPTY_ARRAY, NULL_ARRAY, NULL_BULK, OK, array, bulkBytes, error, integer, simple, type RespReply } from './resp.js';

// ---------------------------------------------------------------------------
// Byte strings

export function toByteString(value: string | Buffer): string {
  return (typeof value === 'string' ? Buffer.from(value, 'utf8') : value).toString('latin1');
}

/** Decodes a byte string as UTF-8 text, for traces and snapshots. */
export function fromByteString(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

// ---------------------------------------------------------------------------
// Errors: commands throw a ReplyError and the dispatcher turns it into the reply

export class ReplyError extends Error {
  constructor(readonly reply: RespReply) {
    super(reply.kind === 'error' ? reply.message : 'reply error');
  }
}

function fail(message: string): never {
  throw new ReplyError(error(message));
}

const WRONGTYPE = '-WRONGTYPE Operation against a key holding the wrong kind of value';
const NOT_AN_INTEGER = 'value is not an integer or out of range';
const NOT_A_FLOAT = 'value is not a valid float';
const SYNTAX_ERROR = 'syntax error';
const MUST_BE_POSITIVE = 'value is out of range, must be positive';

export function arityError(commandName: string): RespReply {
  return error(`wrong number of arguments for '${commandName}' command`);
}

// ---------------------------------------------------------------------------
// Number parsing and formatting, as Redis does it

const LLONG_MAX = 9223372036854775807n;
const LLONG_MIN = -9223372036854775808n;

/** Redis's `string2ll`: no sign but `-`, no leading zeros, no blanks, 64-bit range. */
export function parseLongLong(text: string): bigint | null {
  if (text.length > 20 || !/^(0|-?[1-9][0-9]*)$/.test(text)) return null;
  const value = BigInt(text);
  return value > LLONG_MAX || value < LLONG_MIN ? null : value;
}

function requireLongLong(text: string, message = NOT_AN_INTEGER): bigint {
  const value = parseLongLong(text);
  if (value === null) fail(message);
  return value;
}

/** For indexes and counts: a 64-bit integer, as a JS number (beyond 2^53 only its magnitude matters). */
function requireLong(text: string, message = NOT_AN_INTEGER): number {
  return Number(requireLongLong(text, message));
}

function requirePositiveLong(text: string): number {
  const value = parseLongLong(text);
  if (value === null || value < 0n) fail(MUST_BE_POSITIVE);
  return Number(value);
}

const DECIMAL_FLOAT = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const INFINITY_FLOAT = /^([+-]?)(inf|infinity)$/i;

/**
 * C `strtod` over the whole text: decimal or inf/infinity; null when the
 * text is not a number. `rangeError` reports what strtod flags as ERANGE
 * (overflow to infinity, or underflow of a non-zero value to zero).
 */
function strtodWhole(text: string): { value: number; rangeError: boolean } | null {
  const infinity = INFINITY_FLOAT.exec(text);
  if (infinity) return { value: infinity[1] === '-' ? -Infinity : Infinity, rangeError: false };
  const hex = HEX_FLOAT.exec(text);
  if (hex) return parseHexFloat(hex[1] ?? '', hex[2] ?? '', hex[3] ?? '', hex[4] ?? '0');
  if (!DECIMAL_FLOAT.test(text)) return null;
  const value = Number(text);
  const mantissaIsZero = !/[1-9]/.test(text.replace(/[eE].*$/, ''));
  const rangeError = !Number.isFinite(value) || (value === 0 && !mantissaIsZero);
  return { value, rangeError };
}

/** C99 hexadecimal floats (`0x1.8p3`), which strtod accepts and so Redis does. */
const HEX_FLOAT = /^([+-]?)0[xX](?=\.?[0-9a-fA-F])([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?[0-9]+))?$/;

function parseHexFloat(sign: string, whole: string, fraction: string, exponent: string): { value: number; rangeError: boolean } {
  const digits = `${whole}${fraction}`.replace(/^0+/, '') || '0';
  const mantissa = Number(BigInt(`0x${digits}`));
  const magnitude = mantissa * 2 ** (Number(exponent) - 4 * fraction.length);
  const value = sign === '-' ? -magnitude : magnitude;
  return { value, rangeError: !Number.isFinite(value) || (value === 0 && mantissa !== 0) };
}

/** Redis's `string2d` (scores, increments): rejects blanks, overflow, underflow and NaN. */
export function parseRedisDouble(text: string): number | null {
  const parsed = strtodWhole(text);
  if (!parsed || parsed.rangeError) return null;
  return parsed.value;
}

function isCSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * Score bounds of ZRANGEBYSCORE and friends, which call bare `strtod`: it
 * skips leading blanks, tolerates overflow, and an empty text reads as 0.
 */
function parseScoreBound(text: string): { value: number; exclusive: boolean } | null {
  const exclusive = text.startsWith('(');
  let body = exclusive ? text.slice(1) : text;
  if (body === '') return { value: 0, exclusive };
  let start = 0;
  while (start < body.length && isCSpace(body.charCodeAt(start))) start++;
  body = body.slice(start);
  const parsed = strtodWhole(body);
  if (!parsed) return null;
  return { value: parsed.value, exclusive };
}

/** `printf("%.17g")`, which is how Redis 7.0 prints scores over RESP2. */
export function formatDouble(value: number): string {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = value.toExponential(16).split('e');
  const exponent = Number(exponentText);
  const trimFraction = (digits: string): string => (digits.includes('.') ? digits.replace(/\.?0+$/, '') : digits);
  if (exponent < -4 || exponent >= 17) {
    const sign = exponent < 0 ? '-' : '+';
    return `${trimFraction(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return trimFraction(value.toFixed(16 - exponent));
}

/**
 * Blocking timeouts in seconds (decimals allowed) to milliseconds, as
 * `getTimeoutFromObjectOrReply`: truncates, so 0.0001 means "forever" like Redis.
 */
function parseTimeoutSeconds(text: string): number {
  const parsed = strtodWhole(text);
  if (!parsed || text.length === 0 || isCSpace(text.charCodeAt(0)) || (parsed.rangeError && parsed.value === 0)) {
    fail('timeout is not a float or out of range');
  }
  const milliseconds = Math.trunc(parsed.value * 1000);
  if (!(milliseconds >= 0)) fail('timeout is negative');
  return milliseconds;
}

// ---------------------------------------------------------------------------
// Glob matching: a port of Redis's `stringmatchlen` (util.c)

/** Redis glob semantics: `*`, `?`, `[abc]`, `[^a]`, `[a-z]`, `\` escapes; malformed classes as Redis reads them. */
export function globMatch(pattern: string, subject: string): boolean {
  const state = { skipLongerMatches: false };
  return globMatchFrom(pattern, 0, subject, 0, state);
}

function globMatchFrom(
  pattern: string,
  patternIndex: number,
  subject: string,
  subjectIndex: number,
  state: { skipLongerMatches: boolean },
): boolean {
  // C reads a NUL terminator past the end; char code 0 plays that part.
  const p = (i: number): number => (i < pattern.length ? pattern.charCodeAt(i) : 0);
  let pi = patternIndex;
  let si = subjectIndex;
  let patternLength = pattern.length - pi;
  let subjectLength = subject.length - si;
  while (patternLength > 0 && subjectLength > 0) {
    switch (p(pi)) {
      case 0x2a /* * */:
        {
          while (patternLength > 0 && p(pi + 1) === 0x2a) {
            pi++;
            patternLength--;
          }
          if (patternLength === 1) return true;
          while (subjectLength > 0) {
            if (globMatchFrom(pattern, pi + 1, subject, si, state)) return true;
            // The rest failed from every later position already: a longer `*` cannot help.
            if (state.skipLongerMatches) return false;
            si++;
            subjectLength--;
          }
          state.skipLongerMatches = true;
          return false;
        }
      case 0x3f /* ? */:
        si++;
        subjectLength--;
        break;
      case 0x5b /* [ */:
        {
          pi++;
          patternLength--;
          const negated = p(pi) === 0x5e; /* ^ */
          if (negated) {
            pi++;
            patternLength--;
          }
          const c = subject.charCodeAt(si);
          let matched = false;
          for (;;) {
            if (p(pi) === 0x5c /* \ */ && patternLength >= 2) {
              pi++;
              patternLength--;
              if (p(pi) === c) matched = true;
            } else if (p(pi) === 0x5d /* ] */) {
              break;
            } else if (patternLength === 0) {
              pi--;
              patternLength++;
              break;
            } else if (patternLength >= 3 && p(pi + 1) === 0x2d /* - */) {
              let start = p(pi);
              let end = p(pi + 2);
              if (start > end) [start, end] = [end, start];
              pi += 2;
              patternLength -= 2;
              if (c >= start && c <= end) matched = true;
            } else if (p(pi) === c) {
              matched = true;
            }
            pi++;
            patternLength--;
          }
          if (negated) matched = !matched;
          if (!matched) return false;
          si++;
          subjectLength--;
          break;
        }
      case 0x5c /* \ */:
        if (patternLength >= 2) {
          pi++;
          patternLength--;
        }
        if (p(pi) !== subject.charCodeAt(si)) return false;
        si++;
        subjectLength--;
        break;
      default:
        if (p(pi) !== subject.charCodeAt(si)) return false;
        si++;
        subjectLength--;
        break;
    }
    pi++;
    patternLength--;
    if (subjectLength === 0) {
      while (p(pi) === 0x2a) {
        pi++;
        patternLength--;
      }
      break;
    }
  }
  return patternLength === 0 && subjectLength === 0;
}

// ---------------------------------------------------------------------------
// Values

interface ScoredMember {
  readonly member: string;
  readonly score: number;
}

function compareScored(a: ScoredMember, b: ScoredMember): number {
  if (a.score < b.score) return -1;
  if (a.score > b.score) return 1;
  return a.member < b.member ? -1 : a.member > b.member ? 1 : 0;
}

/** A sorted set: members ordered by score, then bytewise, as Redis orders them. */
export class SortedSet {
  private readonly scores = new Map<string, number>();
  private readonly ordered: ScoredMember[] = [];

  get size(): number {
    return this.ordered.length;
  }

  score(member: string): number | undefined {
    return this.scores.get(member);
  }

  /** Sets a member's score, moving it to its new place. */
  set(member: string, rawScore: number): void {
    // Small sorted sets live in a listpack, which stores -0 as the integer 0;
    // Redis hands -0 back only for sets of over 128 members, which hooks never build.
    const score = rawScore === 0 ? 0 : rawScore;
    this.remove(member);
    const entry = { member, score };
    this.ordered.splice(this.insertionIndex(entry), 0, entry);
    this.scores.set(member, score);
  }

  remove(member: string): boolean {
    const score = this.scores.get(member);
    if (score === undefined) return false;
    const index = this.insertionIndex({ member, score });
    this.ordered.splice(index, 1);
    this.scores.delete(member);
    return true;
  }

  rank(member: string): number | undefined {
    const score = this.scores.get(member);
    return score === undefined ? undefined : this.insertionIndex({ member, score });
  }

  /** Members in order; the array is live, callers must not modify it. */
  entries(): readonly ScoredMember[] {
    return this.ordered;
  }

  popLowest(count: number): ScoredMember[] {
    const taken = this.ordered.slice(0, count);
    for (const entry of taken) this.remove(entry.member);
    return taken;
  }

  popHighest(count: number): ScoredMember[] {
    const taken = this.ordered.slice(Math.max(0, this.ordered.length - count)).reverse();
    for (const entry of taken) this.remove(entry.member);
    return taken;
  }

  /** First index whose entry is not below `entry` (the entry's own index when present). */
  private insertionIndex(entry: ScoredMember): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareScored(this.ordered[middle]!, entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

export type StoredValue =
  | { readonly type: 'string'; value: string }
  | { readonly type: 'list'; readonly items: string[] }
  | { readonly type: 'hash'; readonly fields: Map<string, string> }
  | { readonly type: 'set'; readonly members: Set<string> }
  | { readonly type: 'zset'; readonly zset: SortedSet };

export type ValueType = StoredValue['type'];
type ValueOf<T extends ValueType> = Extract<StoredValue, { type: T }>;

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

// ---------------------------------------------------------------------------
// Blocking

/** A client parked by BLPOP/BRPOP/BZPOPMIN/BZPOPMAX until one of its keys gets data. */
interface Waiter {
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

/** Several replies to one command, as SUBSCRIBE sends one per channel. */
export interface ReplySequence {
  readonly kind: 'replies';
  readonly replies: readonly RespReply[];
}

export type CommandResult = RespReply | BlockRequest | ReplySequence;

export function isBlockRequest(result: CommandResult): result is BlockRequest {
  return result.kind === 'block';
}

// ---------------------------------------------------------------------------
// Databases

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

// ---------------------------------------------------------------------------
// Commands

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

type Handler = (args: string[], ctx: CommandContext, db: Database) => CommandResult;

function command(name: string, arity: number, handler: Handler): CommandSpec {
  return {
    name,
    arity,
    run: (args, ctx) => handler(args, ctx, ctx.store.database(ctx.client.dbIndex)),
  };
}

/** Lower-cases ASCII only, like C's strcasecmp: command and option names are ASCII, other bytes stay. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

const lower = asciiLower;

// --- keys and expiry -------------------------------------------------------

function deleteCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  let deleted = 0;
  for (const key of args.slice(1)) if (db.delete(key)) deleted++;
  return integer(deleted);
}

function invalidExpireTime(commandName: string): never {
  fail(`invalid expire time in '${commandName}' command`);
}

function expireCommand(name: string, base: 'now' | 'epoch', unit: 'seconds' | 'milliseconds'): CommandSpec {
  return command(name, -3, (args, ctx, db) => {
    const flags = new Set<string>();
    for (const option of args.slice(3)) {
      const normalized = lower(option);
      if (!['nx', 'xx', 'gt', 'lt'].includes(normalized)) fail(`Unsupported option ${fromByteString(option)}`);
      flags.add(normalized);
    }
    if (flags.has('nx') && (flags.has('xx') || flags.has('gt') || flags.has('lt'))) {
      fail('NX and XX, GT or LT options at the same time are not compatible');
    }
    if (flags.has('gt') && flags.has('lt')) fail('GT and LT options at the same time are not compatible');
    let when = requireLongLong(args[2]!);
    if (unit === 'seconds') {
      if (when > LLONG_MAX / 1000n || when < LLONG_MIN / 1000n) invalidExpireTime(name);
      when *= 1000n;
    }
    const baseTime = BigInt(base === 'now' ? ctx.store.now() : 0);
    if (when > LLONG_MAX - baseTime) invalidExpireTime(name);
    when += baseTime;
    const key = args[1]!;
    if (db.lookup(key) === undefined) return integer(0);
    const current = db.expiresAt(key);
    const newExpiry = Number(when);
    if (flags.has('nx') && current !== null) return integer(0);
    if (flags.has('xx') && current === null) return integer(0);
    if (flags.has('gt') && (current === null || newExpiry <= current)) return integer(0);
    if (flags.has('lt') && current !== null && newExpiry >= current) return integer(0);
    if (newExpiry <= ctx.store.now()) db.delete(key);
    else db.setExpiry(key, newExpiry);
    return integer(1);
  });
}

function ttlCommand(name: string, inMilliseconds: boolean): CommandSpec {
  return command(name, 2, (args, ctx, db) => {
    const key = args[1]!;
    if (db.lookup(key) === undefined) return integer(-2);
    const expiresAt = db.expiresAt(key);
    if (expiresAt === null) return integer(-1);
    const remaining = Math.max(0, expiresAt - ctx.store.now());
    return integer(inMilliseconds ? remaining : Math.floor((remaining + 500) / 1000));
  });
}

function keysCommand(args: string[], _ctx: CommandContext, db: Database): RespReply {
  const pattern = args[1]!;
  const all = pattern === '*';
  return array(
    db
      .keys()
      .filter((key) => all || globMatch(pattern, key))
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
  const matching = keys.filter((key) => (pattern === null || globMatch(pattern, key)) && (type === null || db.lookup(key)?.type === type));
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

// --- strings ---------------------------------------------------------------

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

// --- lists -----------------------------------------------------------------

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

/** Redis's index window for LRANGE and ZRANGE: negative counts from the end, clamped. */
function rankWindow(startText: string, stopText: string, length: number): [number, number] | null {
  let start = requireLong(startText);
  let stop = requireLong(stopText);
  if (start < 0) start += length;
  if (stop < 0) stop += length;
  if (start < 0) start = 0;
  if (start > stop || start >= length) return null;
  if (stop >= length) stop = length - 1;
  return [start, stop];
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
  let removed = 0;
  if (toRemove >= 0) {
    for (let i = 0; i < list.items.length && removed < limit; ) {
      if (list.items[i] === element) {
        list.items.splice(i, 1);
        removed++;
      } else i++;
    }
  } else {
    for (let i = list.items.length - 1; i >= 0 && removed < limit; i--) {
      if (list.items[i] === element) {
        list.items.splice(i, 1);
        removed++;
      }
    }
  }
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
  list.items.splice(0, list.items.length, ...kept);
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

/**
 * BLPOP/BRPOP/BZPOPMIN/BZPOPMAX: serve now from the first non-empty key, or
 * block on all of them. `pop` takes one element from a value of `type` and
 * returns the reply's items after the key, or null when there is none.
 */
function blockingPop<T extends ValueType>(name: string, type: T, pop: (value: ValueOf<T>) => RespReply[] | null): CommandSpec {
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

function blockingListPop(name: string, fromHead: boolean): CommandSpec {
  return blockingPop(name, 'list', (list) => {
    if (list.items.length === 0) return null;
    return [bulkBytes(fromHead ? list.items.shift()! : list.items.pop()!)];
  });
}

// --- hashes ----------------------------------------------------------------

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

// --- sets ------------------------------------------------------------------

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

// --- sorted sets -----------------------------------------------------------

function zaddCommand(name: string, forcedIncrement: boolean): CommandSpec {
  return command(name, forcedIncrement ? 4 : -4, (args, ctx, db) => {
    let scoreIndex = 2;
    const flags = new Set<string>(forcedIncrement ? ['incr'] : []);
    if (!forcedIncrement) {
      while (scoreIndex < args.length && ['nx', 'xx', 'ch', 'incr', 'gt', 'lt'].includes(lower(args[scoreIndex]!))) {
        flags.add(lower(args[scoreIndex]!));
        scoreIndex++;
      }
    }
    const remaining = args.length - scoreIndex;
    if (remaining % 2 !== 0 || remaining === 0) fail(SYNTAX_ERROR);
    const pairs = remaining / 2;
    const [nx, xx, gt, lt, incr] = ['nx', 'xx', 'gt', 'lt', 'incr'].map((flag) => flags.has(flag)) as [
      boolean,
      boolean,
      boolean,
      boolean,
      boolean,
    ];
    if (nx && xx) fail('XX and NX options at the same time are not compatible');
    if ((gt && nx) || (lt && nx) || (gt && lt)) fail('GT, LT, and/or NX options at the same time are not compatible');
    if (incr && pairs > 1) fail('INCR option supports a single increment-element pair');
    const scores: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const score = parseRedisDouble(args[scoreIndex + i * 2]!);
      if (score === null) fail(NOT_A_FLOAT);
      scores.push(score);
    }
    const key = args[1]!;
    let zset = db.lookupTyped(key, 'zset');
    let added = 0;
    let updated = 0;
    let processed = 0;
    let lastScore = 0;
    if (!zset) {
      if (xx) return incr ? NULL_BULK : integer(0);
      zset = { type: 'zset', zset: new SortedSet() };
      db.set(key, zset);
    }
    for (let i = 0; i < pairs; i++) {
      const member = args[scoreIndex + i * 2 + 1]!;
      let score = scores[i]!;
      const current = zset.zset.score(member);
      if (current !== undefined) {
        if (nx) continue;
        if (incr) {
          score += current;
          if (Number.isNaN(score)) {
            db.deleteIfEmpty(key, zset);
            fail('resulting score is not a number (NaN)');
          }
        }
        if ((gt && score <= current) || (lt && score >= current)) continue;
        processed++;
        lastScore = score;
        if (score !== current) {
          zset.zset.set(member, score);
          updated++;
        }
      } else {
        if (xx) continue;
        zset.zset.set(member, score);
        added++;
        processed++;
        lastScore = score;
      }
    }
    db.deleteIfEmpty(key, zset);
    if (added > 0) ctx.store.signalKeyAsReady(db, key);
    if (incr) return processed > 0 ? bulkBytes(formatDouble(lastScore)) : NULL_BULK;
    return integer(flags.has('ch') ? added + updated : added);
  });
}

type RangeKind = 'rank' | 'score' | 'lex';

interface LexBound {
  readonly value: string;
  readonly kind: 'inclusive' | 'exclusive' | 'min' | 'max';
}

function parseLexBound(text: string): LexBound | null {
  if (text === '+') return { value: '', kind: 'max' };
  if (text === '-') return { value: '', kind: 'min' };
  if (text.startsWith('(')) return { value: text.slice(1), kind: 'exclusive' };
  if (text.startsWith('[')) return { value: text.slice(1), kind: 'inclusive' };
  return null;
}

function lexAtLeast(member: string, bound: LexBound): boolean {
  switch (bound.kind) {
    case 'min':
      return true;
    case 'max':
      return false;
    case 'inclusive':
      return member >= bound.value;
    case 'exclusive':
      return member > bound.value;
  }
}

function lexAtMost(member: string, bound: LexBound): boolean {
  switch (bound.kind) {
    case 'min':
      return false;
    case 'max':
      return true;
    case 'inclusive':
      return member <= bound.value;
    case 'exclusive':
      return member < bound.value;
  }
}

/**
 * Redis's `zrangeGenericCommand`: ZRANGE with its BYSCORE/BYLEX/REV/LIMIT/
 * WITHSCORES options, and the fixed-form ZREVRANGE, ZRANGEBYSCORE, ZREVRANGEBYSCORE.
 */
function zrangeCommand(name: string, fixedKind: RangeKind | null, fixedReverse: boolean | null): CommandSpec {
  return command(name, -4, (args, _ctx, db) => {
    let kind = fixedKind;
    let reverse = fixedReverse;
    let withScores = false;
    let offset = 0;
    let limit = -1;
    for (let j = 4; j < args.length; j++) {
      const option = lower(args[j]!);
      if (option === 'withscores') withScores = true;
      else if (option === 'limit' && args.length - j - 1 >= 2) {
        offset = requireLong(args[j + 1]!);
        limit = requireLong(args[j + 2]!);
        j += 2;
      } else if (reverse === null && option === 'rev') reverse = true;
      else if (kind === null && option === 'bylex') kind = 'lex';
      else if (kind === null && option === 'byscore') kind = 'score';
      else fail(SYNTAX_ERROR);
    }
    const rangeKind = kind ?? 'rank';
    const descending = reverse ?? false;
    // Redis tests the count, not the keyword: `LIMIT 0 -1` passes with a rank range.
    if (limit !== -1 && rangeKind === 'rank') {
      fail('syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
    }
    if (withScores && rangeKind === 'lex') fail('syntax error, WITHSCORES not supported in combination with BYLEX');
    // Reversed score and lex ranges are written max first.
    const [minText, maxText] = descending && rangeKind !== 'rank' ? [args[3]!, args[2]!] : [args[2]!, args[3]!];

    let select: (entries: readonly ScoredMember[]) => ScoredMember[];
    if (rangeKind === 'rank') {
      const startText = minText;
      const stopText = maxText;
      requireLong(startText);
      requireLong(stopText);
      select = (entries) => {
        const window = rankWindow(startText, stopText, entries.length);
        if (!window) return [];
        const ordered = descending ? [...entries].reverse() : entries;
        return ordered.slice(window[0], window[1] + 1);
      };
    } else if (rangeKind === 'score') {
      const min = parseScoreBound(minText);
      const max = parseScoreBound(maxText);
      if (!min || !max || Number.isNaN(min.value) || Number.isNaN(max.value)) fail('min or max is not a float');
      const inRange = (score: number): boolean =>
        (min.exclusive ? score > min.value : score >= min.value) && (max.exclusive ? score < max.value : score <= max.value);
      select = (entries) => {
        const ordered = descending ? [...entries].reverse() : entries;
        return applyLimit(
          ordered.filter((entry) => inRange(entry.score)),
          offset,
          limit,
          entries.length,
        );
      };
    } else {
      const min = parseLexBound(minText);
      const max = parseLexBound(maxText);
      if (!min || !max) fail('min or max not valid string range item');
      select = (entries) => {
        // Like Redis's listpack walk: start at the first member past the lower end
        // (upper end when reversed) and stop at the first one outside the range.
        const ordered = descending ? [...entries].reverse() : entries;
        const pastStart = (member: string): boolean => (descending ? lexAtMost(member, max) : lexAtLeast(member, min));
        const beforeEnd = (member: string): boolean => (descending ? lexAtLeast(member, min) : lexAtMost(member, max));
        const first = ordered.findIndex((entry) => pastStart(entry.member));
        const selected: ScoredMember[] = [];
        if (first >= 0) {
          for (let i = first; i < ordered.length && beforeEnd(ordered[i]!.member); i++) selected.push(ordered[i]!);
        }
        return applyLimit(selected, offset, limit, entries.length);
      };
    }

    const zset = db.lookupTyped(args[1]!, 'zset');
    if (!zset) return EMPTY_ARRAY;
    return scoredReply(select(zset.zset.entries()), withScores);
  });
}

/** LIMIT as Redis applies it: a negative offset selects nothing, a negative count means all. */
function applyLimit(entries: ScoredMember[], offset: number, limit: number, setSize: number): ScoredMember[] {
  if (offset < 0 || (offset > 0 && offset >= setSize)) return [];
  return entries.slice(offset, limit < 0 ? undefined : offset + limit);
}

function scoredReply(entries: readonly ScoredMember[], withScores: boolean): RespReply {
  const items: RespReply[] = [];
  for (const entry of entries) {
    items.push(bulkBytes(entry.member));
    if (withScores) items.push(bulkBytes(formatDouble(entry.score)));
  }
  return array(items);
}

function zpopCommand(name: string, lowest: boolean): CommandSpec {
  return command(name, -2, (args, _ctx, db) => {
    if (args.length > 3) fail(SYNTAX_ERROR);
    const count = args.length === 3 ? requirePositiveLong(args[2]!) : 1;
    const key = args[1]!;
    const zset = db.lookupTyped(key, 'zset');
    if (!zset || count === 0) return EMPTY_ARRAY;
    const popped = lowest ? zset.zset.popLowest(count) : zset.zset.popHighest(count);
    db.deleteIfEmpty(key, zset);
    return scoredReply(popped, true);
  });
}

function blockingZpop(name: string, lowest: boolean): CommandSpec {
  return blockingPop(name, 'zset', (value) => {
    const [entry] = lowest ? value.zset.popLowest(1) : value.zset.popHighest(1);
    return entry ? [bulkBytes(entry.member), bulkBytes(formatDouble(entry.score))] : null;
  });
}

// --- the table --------------------------------------------------------------

function buildDataCommands(): CommandSpec[] {
  return [
    // keys and expiry
    command('del', -2, deleteCommand),
    command('unlink', -2, deleteCommand),
    command('exists', -2, (args, _ctx, db) => integer(args.slice(1).filter((key) => db.lookup(key) !== undefined).length)),
    expireCommand('expire', 'now', 'seconds'),
    expireCommand('pexpire', 'now', 'milliseconds'),
    expireCommand('expireat', 'epoch', 'seconds'),
    expireCommand('pexpireat', 'epoch', 'milliseconds'),
    ttlCommand('ttl', false),
    ttlCommand('pttl', true),
    command('persist', 2, (args, _ctx, db) => {
      if (db.expiresAt(args[1]!) === null) return integer(0);
      db.setExpiry(args[1]!, null);
      return integer(1);
    }),
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

    // strings
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
    command('mget', -2, (args, _ctx, db) =>
      array(
        args.slice(1).map((key) => {
          const value = db.lookup(key);
          return value?.type === 'string' ? bulkBytes(value.value) : NULL_BULK;
        }),
      ),
    ),
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

    // lists
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

    // hashes
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
      return array(args.slice(2).map((field) => bulkBytes(fields?.get(field) ?? null)));
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

    // sets
    command('sadd', -3, saddCommand),
    command('srem', -3, sremCommand),
    command('smembers', 2, (args, _ctx, db) =>
      array([...(db.lookupTyped(args[1]!, 'set')?.members ?? [])].map((member) => bulkBytes(member))),
    ),
    command('sismember', 3, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'set')?.members.has(args[2]!) ? 1 : 0)),
    command('scard', 2, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'set')?.members.size ?? 0)),

    // sorted sets
    zaddCommand('zadd', false),
    zaddCommand('zincrby', true),
    zrangeCommand('zrange', null, null),
    zrangeCommand('zrevrange', 'rank', true),
    zrangeCommand('zrangebyscore', 'score', false),
    zrangeCommand('zrevrangebyscore', 'score', true),
    command('zscore', 3, (args, _ctx, db) => {
      const score = db.lookupTyped(args[1]!, 'zset')?.zset.score(args[2]!);
      return score === undefined ? NULL_BULK : bulkBytes(formatDouble(score));
    }),
    command('zcard', 2, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'zset')?.zset.size ?? 0)),
    command('zrank', 3, (args, _ctx, db) => {
      const rank = db.lookupTyped(args[1]!, 'zset')?.zset.rank(args[2]!);
      return rank === undefined ? NULL_BULK : integer(rank);
    }),
    command('zcount', 4, (args, _ctx, db) => {
      const min = parseScoreBound(args[2]!);
      const max = parseScoreBound(args[3]!);
      if (!min || !max || Number.isNaN(min.value) || Number.isNaN(max.value)) fail('min or max is not a float');
      const zset = db.lookupTyped(args[1]!, 'zset');
      if (!zset) return integer(0);
      const count = zset.zset
        .entries()
        .filter(
          ({ score }) =>
            (min.exclusive ? score > min.value : score >= min.value) && (max.exclusive ? score < max.value : score <= max.value),
        ).length;
      return integer(count);
    }),
    command('zrem', -3, (args, _ctx, db) => {
      const zset = db.lookupTyped(args[1]!, 'zset');
      if (!zset) return integer(0);
      let removed = 0;
      for (const member of args.slice(2)) if (zset.zset.remove(member)) removed++;
      db.deleteIfEmpty(args[1]!, zset);
      return integer(removed);
    }),
    zpopCommand('zpopmin', true),
    zpopCommand('zpopmax', false),
    blockingZpop('bzpopmin', true),
    blockingZpop('bzpopmax', false),
  ];
}

// ---------------------------------------------------------------------------
// The store

export interface StoreOptions {
  /** Milliseconds since the epoch; inject a fake clock to test expiry without sleeping. */
  now?: () => number;
  /** Redis's default is 16 (SELECT 0-15, `redis-cli -n`). */
  databaseCount?: number;
}

export class Store {
  readonly now: () => number;
  readonly databases: readonly Database[];
  /** The data commands; the server adds connection commands to its own table. */
  readonly commands: CommandTable;
  private readonly readyKeys = new Map<Database, Set<string>>();

  constructor(options: StoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.databases = Array.from({ length: options.databaseCount ?? 16 }, (_, index) => new Database(index, this));
    this.commands = new Map(buildDataCommands().map((spec) => [spec.name, spec]));
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
    const waiter: Waiter = { keys: request.keys, tryServe: request.tryServe, deliver };
    for (const key of new Set(request.keys)) {
      const queue = request.db.waiters.get(key);
      if (queue) queue.push(waiter);
      else request.db.waiters.set(key, [waiter]);
    }
    return () => this.unpark(request.db, waiter);
  }

  get blockedClientCount(): number {
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
  serveBlockedClients(): void {
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
