// Seeded random Redis commands for the differential test (differential.test.ts): the same
// sequence on every platform, over a small shared keyspace so commands of different types collide.

/** mulberry32: small, fast, and the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Generator {
  constructor(private readonly random: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  chance(probability: number): boolean {
    return this.random() < probability;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  several<T>(make: () => T, min: number, max: number): T[] {
    return Array.from({ length: this.int(min, max) }, make);
  }

  /** Mixes the case of a command name, which Redis ignores. */
  name(command: string): string {
    if (!this.chance(0.2)) return command;
    return Array.from(command, (c) => (this.chance(0.5) ? c.toUpperCase() : c)).join('');
  }
}

// A small shared keyspace, so commands of different types collide on the same keys (WRONGTYPE).
const KEYS = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k[1]', 'hk', 'lk', 'zk', 'é', ''];
const VALUES = ['0', '1', '-5', '42', 'abc', '3.5', '', ' 1', '01', '9223372036854775806', '-9223372036854775807', 'v', 'hello world', 'é'];
const INTEGERS = ['0', '1', '2', '-1', '-3', '10', '100', 'x', '1.5', '9223372036854775807', '-9223372036854775808', '+1', '007'];
const SCORES = [
  '1',
  '2.5',
  '-1',
  '0.1',
  '1e3',
  'inf',
  '-inf',
  '+inf',
  'abc',
  '1e400',
  '+5',
  '.5',
  '5.',
  '0x10',
  '1e-400',
  'nan',
  ' 1',
  '0',
  '-0',
  '3',
];
const MEMBERS = ['a', 'b', 'c', 'd', 'e', 'aa', 'B'];
const FIELDS = ['f1', 'f2', 'f3', 'n'];
const PATTERNS = [
  '*',
  'k?',
  'k[0-3]',
  'k[^0-3]',
  'k[3-1]',
  '*k*',
  'k\\[1]',
  'k[[]1]',
  '[',
  'k[',
  'k[\\',
  '?',
  '??',
  'h*',
  '*1*',
  'k[!1]',
  'é',
  '*\\',
  'k?*',
  '[a-z]k',
];
const BOUNDS = ['-inf', '+inf', '0', '1', '(1', '2.5', '(2.5', '-1', 'x', '(', '', ' 1', '1e400'];
const LEX_BOUNDS = ['-', '+', '[a', '(a', '[b', '(c', '[aa', 'a', '[', '('];

type CommandGenerator = (g: Generator) => string[];

const key = (g: Generator): string => g.pick(KEYS);
const value = (g: Generator): string => g.pick(VALUES);

/** Long TTLs (seconds) so that the two servers, a few ms apart, still agree within ±1. */
const ttlSeconds = (g: Generator): string => String(g.int(100, 100_000));

const GENERATORS: [weight: number, generate: CommandGenerator][] = [
  // strings
  [
    8,
    (g) => {
      const args = ['set', key(g), value(g)];
      const options = g.several(
        () =>
          g.pick<string[]>([
            ['NX'],
            ['XX'],
            ['GET'],
            ['KEEPTTL'],
            ['EX', ttlSeconds(g)],
            ['PX', String(g.int(100_000, 9_000_000))],
            ['EX', g.pick(['0', '-5', 'abc', '1.5'])],
            ['EXAT', String(4_000_000_000 + g.int(0, 1000))],
            ['BOGUS'],
          ]),
        0,
        2,
      );
      return [...args, ...options.flat()];
    },
  ],
  [3, (g) => ['setex', key(g), g.pick([ttlSeconds(g), '0', '-1', 'x']), value(g)]],
  [2, (g) => ['psetex', key(g), g.pick([String(g.int(200_000, 900_000)), '0', 'x']), value(g)]],
  [8, (g) => ['get', key(g)]],
  [2, (g) => ['setnx', key(g), value(g)]],
  [2, (g) => ['getset', key(g), value(g)]],
  [2, (g) => ['getdel', key(g)]],
  [3, (g) => ['mget', ...g.several(() => key(g), 1, 4)]],
  [3, (g) => ['mset', ...g.several(() => [key(g), value(g)], 1, 3).flat(), ...(g.chance(0.15) ? ['dangling'] : [])]],
  [3, (g) => ['append', key(g), value(g)]],
  [3, (g) => ['strlen', key(g)]],
  [5, (g) => [g.pick(['incr', 'decr']), key(g)]],
  [5, (g) => [g.pick(['incrby', 'decrby']), key(g), g.pick(INTEGERS)]],

  // keys and expiry
  [4, (g) => ['del', ...g.several(() => key(g), 1, 3)]],
  [4, (g) => ['exists', ...g.several(() => key(g), 1, 4)]],
  [
    4,
    (g) => [
      'expire',
      key(g),
      g.pick([ttlSeconds(g), '-1', '0', 'x', '9223372036854775807']),
      ...g.several(() => g.pick(['NX', 'XX', 'GT', 'LT', 'ZZ']), 0, 2),
    ],
  ],
  [2, (g) => ['pexpire', key(g), g.pick([String(g.int(200_000, 900_000)), '-1'])]],
  [2, (g) => ['expireat', key(g), g.pick([String(4_000_000_000 + g.int(0, 1000)), '1'])]],
  [5, (g) => [g.pick(['ttl', 'pttl']), key(g)]],
  [3, (g) => ['persist', key(g)]],
  [4, (g) => ['type', key(g)]],
  [5, (g) => ['keys', g.pick(PATTERNS)]],
  [2, () => ['dbsize']],
  [1, (g) => ['rename', key(g), key(g)]],
  [1, (g) => ['select', g.pick(['0', '0', '0', '1', '2', '16', 'x'])]],

  // lists
  [6, (g) => [g.pick(['lpush', 'rpush']), key(g), ...g.several(() => value(g), 1, 3)]],
  [2, (g) => [g.pick(['lpushx', 'rpushx']), key(g), value(g)]],
  [5, (g) => [g.pick(['lpop', 'rpop']), key(g), ...(g.chance(0.5) ? [g.pick(['0', '1', '2', '5', '-1', 'x'])] : [])]],
  [4, (g) => ['lrange', key(g), g.pick(INTEGERS.slice(0, 8)), g.pick(['-1', '0', '1', '2', '-2', '100', '-100'])]],
  [3, (g) => ['llen', key(g)]],
  [3, (g) => ['lindex', key(g), g.pick(['0', '1', '-1', '-2', '5', 'x'])]],
  [2, (g) => ['lrem', key(g), g.pick(['0', '1', '-1', '2', 'x']), value(g)]],
  [1, (g) => ['ltrim', key(g), g.pick(['0', '1', '-2']), g.pick(['-1', '0', '1'])]],
  [1, (g) => ['lset', key(g), g.pick(['0', '-1', '9', 'x']), value(g)]],
  // Blocking pops: with data present they answer at once; otherwise they time out after 10 ms on both.
  [3, (g) => [g.pick(['blpop', 'brpop']), ...g.several(() => key(g), 1, 2), g.pick(['0.01', '0.01', 'x', '-1'])]],

  // hashes
  [5, (g) => ['hset', key(g), ...g.several(() => [g.pick(FIELDS), value(g)], 1, 3).flat(), ...(g.chance(0.1) ? ['odd'] : [])]],
  [4, (g) => ['hget', key(g), g.pick(FIELDS)]],
  [3, (g) => ['hgetall', key(g)]],
  [2, (g) => ['hdel', key(g), ...g.several(() => g.pick(FIELDS), 1, 2)]],
  [2, (g) => ['hexists', key(g), g.pick(FIELDS)]],
  [2, (g) => ['hlen', key(g)]],
  [2, (g) => [g.pick(['hkeys', 'hvals']), key(g)]],
  [3, (g) => ['hincrby', key(g), g.pick(FIELDS), g.pick(INTEGERS)]],
  [1, (g) => ['hmget', key(g), ...g.several(() => g.pick(FIELDS), 1, 3)]],
  [1, (g) => ['hsetnx', key(g), g.pick(FIELDS), value(g)]],

  // sets
  [3, (g) => ['sadd', key(g), ...g.several(() => g.pick(MEMBERS), 1, 3)]],
  [2, (g) => ['srem', key(g), ...g.several(() => g.pick(MEMBERS), 1, 2)]],
  [2, (g) => ['smembers', key(g)]],
  [1, (g) => ['sismember', key(g), g.pick(MEMBERS)]],
  [1, (g) => ['scard', key(g)]],

  // sorted sets
  [
    6,
    (g) => [
      'zadd',
      key(g),
      ...g.several(() => g.pick(['NX', 'XX', 'CH', 'GT', 'LT', 'INCR']), 0, g.chance(0.7) ? 0 : 2),
      ...g.several(() => [g.pick(SCORES), g.pick(MEMBERS)], 1, 3).flat(),
    ],
  ],
  [
    5,
    (g) => {
      const kind = g.pick(['rank', 'rank', 'score', 'lex']);
      const [min, max] =
        kind === 'rank'
          ? [g.pick(INTEGERS.slice(0, 8)), g.pick(['-1', '0', '2', '-2', '10'])]
          : kind === 'score'
            ? [g.pick(BOUNDS), g.pick(BOUNDS)]
            : [g.pick(LEX_BOUNDS), g.pick(LEX_BOUNDS)];
      const options = [
        ...(kind === 'score' ? ['BYSCORE'] : kind === 'lex' ? ['BYLEX'] : []),
        ...(g.chance(0.3) ? ['REV'] : []),
        ...(g.chance(0.4) ? ['WITHSCORES'] : []),
        ...(g.chance(0.25) ? ['LIMIT', g.pick(['0', '1', '-1']), g.pick(['1', '2', '-1', '0'])] : []),
      ];
      return ['zrange', key(g), min, max, ...options];
    },
  ],
  [2, (g) => ['zrevrange', key(g), g.pick(['0', '1', '-2']), g.pick(['-1', '1']), ...(g.chance(0.5) ? ['WITHSCORES'] : [])]],
  [
    2,
    (g) => [
      g.pick(['zrangebyscore', 'zrevrangebyscore']),
      key(g),
      g.pick(BOUNDS),
      g.pick(BOUNDS),
      ...(g.chance(0.5) ? ['WITHSCORES'] : []),
    ],
  ],
  [3, (g) => ['zscore', key(g), g.pick(MEMBERS)]],
  [2, (g) => ['zcard', key(g)]],
  [2, (g) => ['zrem', key(g), ...g.several(() => g.pick(MEMBERS), 1, 2)]],
  [2, (g) => ['zincrby', key(g), g.pick(SCORES), g.pick(MEMBERS)]],
  [1, (g) => ['zrank', key(g), g.pick(MEMBERS)]],
  [1, (g) => ['zcount', key(g), g.pick(BOUNDS), g.pick(BOUNDS)]],
  [3, (g) => [g.pick(['zpopmin', 'zpopmax']), key(g), ...(g.chance(0.5) ? [g.pick(['0', '1', '2', '-1', 'x'])] : [])]],
  [2, (g) => [g.pick(['bzpopmin', 'bzpopmax']), ...g.several(() => key(g), 1, 2), g.pick(['0.01', '0.01', 'x'])]],

  // connection, and commands that do not exist or have the wrong arity
  [1, (g) => ['ping', ...g.several(() => value(g), 0, 2)]],
  [1, (g) => ['echo', value(g)]],
  [2, (g) => [g.pick(['get', 'set', 'lpush', 'hset', 'zadd', 'incr', 'keys', 'ttl', 'blpop', 'expire', 'lpop', 'dbsize', 'hgetall'])]],
  [1, (g) => [g.pick(['nosuchcommand', 'GETX', 'hello world']), ...g.several(() => value(g), 0, 3)]],
  [1, (g) => [g.pick(['client', 'config']), g.pick(['nope', 'GETNAME', 'get'])]],
];

const TOTAL_WEIGHT = GENERATORS.reduce((sum, [weight]) => sum + weight, 0);

export function nextCommand(g: Generator): string[] {
  let roll = g.int(0, TOTAL_WEIGHT - 1);
  for (const [weight, generate] of GENERATORS) {
    if (roll < weight) {
      const args = generate(g);
      return [g.name(args[0]!), ...args.slice(1)];
    }
    roll -= weight;
  }
  throw new Error('unreachable');
}
