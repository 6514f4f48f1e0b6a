/**
 * Differential test: the same seeded random command sequences go to a real
 * redis-server and to the fake, and every reply must be identical (after
 * sorting the replies whose order Redis leaves unspecified).
 *
 * Reproduce one run with REDIS_DIFF_SEED=<seed> npx vitest run test/executor/redis/differential.test.ts
 * (or hunt longer with REDIS_DIFF_SEED=1-500).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';

import { startRedisFake, type RedisFake } from '../../../src/executor/redis/server.js';
import { type DecodedReply } from '../../../src/executor/redis/reply-decoder.js';
import { RespTestClient, hasRedisServer, makeTempDir, show, startRealRedis, warnIfMissing, type RealRedis } from './helpers.js';

warnIfMissing('redis-server', hasRedisServer, 'the differential tests against a real Redis');

/** mulberry32: small, fast, and the same sequence on every platform. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Generator {
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

function nextCommand(g: Generator): string[] {
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

/** Replies whose element order Redis leaves to its hash tables. */
const UNORDERED = new Set(['keys', 'smembers']);

function canonical(command: string[], reply: DecodedReply): string {
  const name = command[0]!.toLowerCase();
  if (UNORDERED.has(name) && reply.kind === 'array' && reply.items) {
    return `[${reply.items.map(show).sort().join(', ')}]`;
  }
  return show(reply);
}

/** TTLs are read a few ms apart on the two servers. */
function sameTtl(command: string[], real: DecodedReply, fake: DecodedReply): boolean {
  const name = command[0]!.toLowerCase();
  if ((name !== 'ttl' && name !== 'pttl') || real.kind !== 'integer' || fake.kind !== 'integer') return false;
  const tolerance = name === 'ttl' ? 1n : 250n;
  const difference = real.value - fake.value;
  return real.value >= 0n && fake.value >= 0n && difference <= tolerance && difference >= -tolerance;
}

/** REDIS_DIFF_SEED takes one seed, a list (`3,9`) or a range (`1-500`) for longer local hunts. */
function seedsFromEnvironment(spec: string | undefined): number[] {
  if (!spec) return [1, 2, 3, 4, 5, 6, 7, 8];
  return spec.split(',').flatMap((part) => {
    const [from, to] = part.split('-').map(Number) as [number, number | undefined];
    return to === undefined ? [from] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

const SEEDS = seedsFromEnvironment(process.env.REDIS_DIFF_SEED);
const COMMANDS_PER_SEED = 600;

describe.skipIf(!hasRedisServer)('the fake against a real redis-server', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let real: RealRedis;
  let fake: RedisFake;

  beforeAll(async () => {
    temp = makeTempDir();
    real = await startRealRedis(temp.dir);
    fake = await startRedisFake({ socketPath: join(temp.dir, 'fake.sock') });
  });

  afterAll(async () => {
    await fake?.close();
    await real?.stop();
    temp?.remove();
  });

  it.each(SEEDS)('replies identically to a random command sequence (seed %i)', async (seed) => {
    const realClient = await RespTestClient.connect(real.socketPath);
    const fakeClient = await RespTestClient.connect(fake.socketPath);
    try {
      await realClient.call('flushall');
      await fakeClient.call('flushall');
      const g = new Generator(seededRandom(seed));
      const history: string[] = [];
      for (let i = 0; i < COMMANDS_PER_SEED; i++) {
        const command = nextCommand(g);
        history.push(JSON.stringify(command));
        const [realReply, fakeReply] = await Promise.all([realClient.call(...command), fakeClient.call(...command)]);
        if (sameTtl(command, realReply, fakeReply)) continue;
        const expected = canonical(command, realReply);
        const actual = canonical(command, fakeReply);
        if (expected !== actual) {
          const context = history.slice(-12).join('\n  ');
          expect.fail(
            `seed ${seed}, command #${i}: ${JSON.stringify(command)}\n` +
              `  redis-server: ${expected}\n  fake:         ${actual}\n` +
              `last commands:\n  ${context}\n` +
              `reproduce: REDIS_DIFF_SEED=${seed} npx vitest run test/executor/redis/differential.test.ts`,
          );
        }
      }
      // The final state must match too, key by key.
      const realKeys = await realClient.call('keys', '*');
      const fakeKeys = await fakeClient.call('keys', '*');
      expect(canonical(['keys'], fakeKeys)).toBe(canonical(['keys'], realKeys));
    } finally {
      realClient.close();
      fakeClient.close();
    }
  });

  it('wakes blocked clients in the same order and with the same data', async () => {
    const transcript = async (socketPath: string): Promise<string[]> => {
      const producer = await RespTestClient.connect(socketPath);
      const commands = [
        ['blpop', 'q1', 'q2', '2'],
        ['brpop', 'q2', '2'],
        ['bzpopmin', 'z1', 'q1', '2'],
        ['blpop', 'q1', '2'],
        ['blpop', 'q3', '2'],
        ['brpop', 'q3', '2'],
        ['blpop', 'q3', '2'],
      ];
      const waiters = await Promise.all(commands.map(() => RespTestClient.connect(socketPath)));
      try {
        await producer.call('del', 'q1', 'q2', 'q3', 'z1');
        const replies: Promise<DecodedReply>[] = [];
        for (const [index, waiter] of waiters.entries()) {
          replies.push(waiter.call(...commands[index]!));
          // Each waiter must be parked before the next one arrives: the order is what is tested.
          for (let polls = 0; ; polls++) {
            const info = show(await producer.call('info', 'clients'));
            if (info.includes(`blocked_clients:${index + 1}\r\n`)) break;
            if (polls > 500) throw new Error(`waiter ${index} never blocked: ${info}`);
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        }
        const pushes = [
          await producer.call('rpush', 'q2', 'a', 'b', 'c'),
          await producer.call('zadd', 'z1', '1', 'm', '2', 'n'),
          await producer.call('lpush', 'q1', 'x', 'y'),
          await producer.call('rpush', 'q3', 'first', 'second'),
          await producer.call('rpush', 'q3', 'third'),
        ];
        return [...pushes, ...(await Promise.all(replies))].map(show);
      } finally {
        producer.close();
        for (const waiter of waiters) waiter.close();
      }
    };
    const [realTranscript, fakeTranscript] = [await transcript(real.socketPath), await transcript(fake.socketPath)];
    expect(fakeTranscript).toEqual(realTranscript);
    // And the order itself is the one Redis documents: first blocked, first served.
    expect(realTranscript.slice(5)).toEqual([
      '[$q2, $a]',
      '[$q2, $c]',
      '[$z1, $m, $1]',
      '[$q1, $y]',
      '[$q3, $first]',
      '[$q3, $second]',
      '[$q3, $third]',
    ]);
  });

  /**
   * Connection-level behaviour the random sequences do not reach: transactions,
   * pub/sub, AUTH/HELLO/CLIENT/SELECT/CONFIG. Steps name the client that sends;
   * `read` takes a pushed message without sending anything.
   */
  it('matches Redis on a scripted session of transactions, pub/sub and connection commands', async () => {
    type Step = [client: number, command: string[] | 'read'];
    const steps: Step[] = [
      ...[['MULTI'], ['SET', 'a', '1'], ['INCR', 'a'], ['LPUSH', 'a', 'x'], ['GET', 'a'], ['EXEC']].map((c): Step => [0, c]),
      ...[['MULTI'], ['GET'], ['SET', 'b', '1'], ['EXEC'], ['EXISTS', 'b']].map((c): Step => [0, c]),
      ...[['MULTI'], ['MULTI'], ['NOSUCH', 'x'], ['DISCARD'], ['DISCARD'], ['EXEC']].map((c): Step => [0, c]),
      ...[['MULTI'], ['BLPOP', 'empty', '0'], ['RPUSH', 'q', 'v'], ['BRPOP', 'q', '0'], ['EXEC']].map((c): Step => [0, c]),
      ...[
        ['CLIENT', 'SETNAME', 'hook'],
        ['CLIENT', 'GETNAME'],
        ['CLIENT', 'SETNAME', 'a b'],
        ['CLIENT', 'SETNAME', ''],
        ['CLIENT', 'GETNAME'],
        ['CLIENT', 'NOPE'],
        ['CLIENT'],
        ['CLIENT', 'SETNAME'],
        ['AUTH', 'pw'],
        ['AUTH', 'default', 'pw'],
        ['AUTH', 'someone', 'pw'],
        ['AUTH', 'a', 'b', 'c'],
        ['HELLO', '1'],
        ['HELLO', 'x'],
        ['HELLO', '2', 'BOGUS'],
        ['HELLO', '2', 'AUTH', 'default', 'pw', 'SETNAME', 'n1'],
        ['CLIENT', 'GETNAME'],
        ['SELECT', '15'],
        ['SET', 'k', 'v'],
        ['DBSIZE'],
        ['SELECT', '0'],
        ['DBSIZE'],
        ['FLUSHALL', 'ASYNC'],
        ['SELECT', '15'],
        ['DBSIZE'],
        ['SELECT', '0'],
        ['PING'],
        ['PING', 'a'],
        ['PING', 'a', 'b'],
        ['ECHO'],
        ['CONFIG', 'GET', 'appendonly'],
        ['CONFIG', 'SET', 'nosuch', 'x'],
        ['CONFIG', 'NOPE'],
      ].map((c): Step => [0, c]),
      [1, ['SUBSCRIBE', 'c1', 'c2']],
      [1, 'read'],
      [1, ['PSUBSCRIBE', 'c*']],
      [1, ['PING']],
      [1, ['PING', 'x']],
      [1, ['GET', 'k']],
      [0, ['PUBLISH', 'c1', 'hello']],
      [1, 'read'],
      [1, 'read'],
      [0, ['PUBLISH', 'c3', 'pattern only']],
      [1, 'read'],
      [0, ['PUBSUB', 'NUMSUB', 'c1', 'c3']],
      [0, ['PUBSUB', 'NUMPAT']],
      [0, ['PUBSUB', 'CHANNELS', 'c1']],
      [1, ['UNSUBSCRIBE', 'c1']],
      [1, ['PUNSUBSCRIBE']],
      [1, ['UNSUBSCRIBE']],
      [1, ['UNSUBSCRIBE']],
      [1, ['GET', 'k']],
      [0, ['PUBLISH', 'c2', 'nobody']],
      [1, ['QUIT']],
    ];
    const transcript = async (socketPath: string): Promise<string[]> => {
      const clients = [await RespTestClient.connect(socketPath), await RespTestClient.connect(socketPath)];
      try {
        await clients[0]!.call('FLUSHALL');
        const lines: string[] = [];
        for (const [index, command] of steps) {
          const client = clients[index]!;
          const reply = command === 'read' ? await client.nextReply() : await client.call(...command);
          // The connection id in HELLO differs between servers by nature.
          lines.push(`${index} ${JSON.stringify(command)} => ${show(reply).replace(/\$id, :\d+/, '$id, :ID')}`);
        }
        return lines;
      } finally {
        for (const client of clients) client.close();
      }
    };
    const realTranscript = await transcript(real.socketPath);
    expect(await transcript(fake.socketPath)).toEqual(realTranscript);
  });

  it.each([
    ['invalid multibulk length', '*x\r\n'],
    ['non-$ bulk header', '*1\r\n:1\r\n'],
    ['negative bulk length', '*1\r\n$-1\r\n'],
    ['unbalanced quotes', 'PING\r\nSET "a b\r\nPING\r\n'],
    ['quote followed by text', "ECHO 'a'b\r\n"],
    ['empty multibulk then a command', '*0\r\n*-1\r\nPING\r\n'],
    ['inline escapes', "ECHO \"\\x41\\x4z\\t\\\\\" '\\'q'\r\n"],
    ['NUL in an inline command', 'ECHO a\u0000b c\r\n'],
    ['trailing garbage instead of CRLF after a bulk', '*2\r\n$4\r\nECHO\r\n$1\r\naXY*1\r\n$4\r\nPING\r\n'],
  ])('answers malformed or unusual input like Redis: %s', async (_label, input) => {
    const exchange = async (socketPath: string): Promise<string> => {
      const client = await RespTestClient.connect(socketPath);
      try {
        // One write: bytes still unread when Redis closes the socket would reset the
        // connection and lose its error reply, at random.
        client.writeRaw(`${input}*1\r\n$4\r\nPING\r\n`);
        const replies = await client.repliesUntilClosed(150);
        return replies.join(' | ');
      } finally {
        client.close();
      }
    };
    const realExchange = await exchange(real.socketPath);
    expect(await exchange(fake.socketPath)).toBe(realExchange);
  });
});
