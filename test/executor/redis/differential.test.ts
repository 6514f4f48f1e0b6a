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
import { Generator, nextCommand, seededRandom } from './command-generator.js';
import { RespTestClient, hasRedisServer, makeTempDir, show, startRealRedis, warnIfMissing, type RealRedis } from './helpers.js';

warnIfMissing('redis-server', hasRedisServer, 'the differential tests against a real Redis');

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
