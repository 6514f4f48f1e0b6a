import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { join } from 'node:path';

import { encodeCommand } from '../../../src/executor/redis/resp.js';
import { RedisFakeServer, startRedisFake, type RedisFake } from '../../../src/executor/redis/server.js';
import { SUBSCRIPTION_OVERHEAD } from '../../../src/executor/redis/subscriptions.js';
import { RespTestClient, makeTempDir, show } from './helpers.js';

let temp: ReturnType<typeof makeTempDir>;
let fake: RedisFake;
/** A second fake with a tiny bulk cap, to test the cap without sending megabytes. */
let cappedFake: RedisFake;

beforeAll(async () => {
  temp = makeTempDir();
  fake = await startRedisFake({ socketPath: join(temp.dir, 'fake.sock') });
  cappedFake = await startRedisFake({ socketPath: join(temp.dir, 'capped.sock'), maxBulkLength: 1024 });
});

afterAll(async () => {
  await fake?.close();
  await cappedFake?.close();
  temp?.remove();
});

describe('malformed input', () => {
  it.each([
    ['garbage multibulk count', '*!!\r\n', 'invalid multibulk length'],
    ['a bulk header that is not $', '*1\r\n+PING\r\n', "expected '$', got '+'"],
    ['a negative bulk length', '*1\r\n$-3\r\n', 'invalid bulk length'],
    ['random binary', '*\u00ff\u0001\u00fe\r\n\u0002', 'invalid multibulk length'],
    ['unbalanced inline quotes', 'SET "oops\r\n', 'unbalanced quotes in request'],
  ])('answers %s with a protocol error and closes only that connection', async (_label, input, message) => {
    const bystander = await RespTestClient.connect(fake.socketPath);
    const offender = await RespTestClient.connect(fake.socketPath);
    try {
      offender.writeRaw(`PING\r\n${input}`);
      expect(await offender.repliesUntilClosed()).toEqual(['+PONG', `-ERR Protocol error: ${message}`, 'closed']);
      expect(show(await bystander.call('PING'))).toBe('+PONG');
    } finally {
      bystander.close();
      offender.close();
    }
  });

  it('waits on a header line with a NUL in it, as Redis does, until it grows past 64 KB', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    try {
      client.writeRaw('PING\r\nPING \u0000\r\n');
      expect(await client.repliesUntilClosed()).toEqual(['+PONG', 'still open']);
      client.writeRaw(Buffer.alloc(70 * 1024, 'a'));
      expect(await client.repliesUntilClosed()).toEqual(['-ERR Protocol error: too big inline request', 'closed']);
    } finally {
      client.close();
    }
  });

  it('rejects a bulk length over the cap before any payload arrives', async () => {
    const client = await RespTestClient.connect(cappedFake.socketPath);
    try {
      client.writeRaw('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1025\r\n');
      expect(await client.repliesUntilClosed()).toEqual(['-ERR Protocol error: invalid bulk length', 'closed']);
    } finally {
      client.close();
    }
  });

  it('accepts a bulk string exactly at the cap', async () => {
    const client = await RespTestClient.connect(cappedFake.socketPath);
    try {
      expect(show(await client.call('SET', 'k', Buffer.alloc(1024, 'v')))).toBe('+OK');
      expect(show(await client.call('STRLEN', 'k'))).toBe(':1024');
    } finally {
      client.close();
    }
  });

  it('rejects the default 64 MB cap plus one at once', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    try {
      client.writeRaw(`*2\r\n$4\r\nECHO\r\n$${64 * 1024 * 1024 + 1}\r\n`);
      expect(await client.repliesUntilClosed()).toEqual(['-ERR Protocol error: invalid bulk length', 'closed']);
    } finally {
      client.close();
    }
  });

  it('stores an 8 MB value sent in one go', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    try {
      const big = Buffer.alloc(8 * 1024 * 1024, 'x');
      expect(show(await client.call('SET', 'big', big))).toBe('+OK');
      expect(show(await client.call('STRLEN', 'big'))).toBe(`:${big.length}`);
      const reply = await client.call('GET', 'big');
      expect(reply.kind === 'bulk' && reply.value?.equals(big)).toBe(true);
      await client.call('DEL', 'big');
    } finally {
      client.close();
    }
  });
});

describe('shutdown', () => {
  it('does not wait for a client that never hangs up after a protocol error', async () => {
    const shutdownTemp = makeTempDir();
    const shortLived = await startRedisFake({ socketPath: join(shutdownTemp.dir, 'short.sock') });
    // allowHalfOpen: this client keeps its side open after the server's FIN, as a stuck hook might.
    const stubborn = connect({ path: shortLived.socketPath, allowHalfOpen: true });
    await new Promise((resolve) => stubborn.once('connect', resolve));
    const received: Buffer[] = [];
    stubborn.on('data', (chunk: Buffer) => received.push(chunk));
    stubborn.on('error', () => {});
    stubborn.write('*1\r\n$x\r\n');
    await new Promise((resolve) => stubborn.once('end', resolve));
    expect(Buffer.concat(received).toString()).toBe('-ERR Protocol error: invalid bulk length\r\n');
    // A close that waited for the stubborn client would never return: the test's own timeout would fail it.
    await shortLived.close();
    stubborn.destroy();
    shutdownTemp.remove();
  });
});

describe('load', () => {
  it('answers a pipelined flood of 10,000 commands sent in one write, in order', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    try {
      const count = 10_000;
      const commands: Buffer[] = [];
      for (let i = 0; i < count; i++) {
        commands.push(i % 2 === 0 ? encodeCommand(['RPUSH', 'flood', String(i)]) : Buffer.from(`INCR flood:counter\r\n`));
      }
      client.writeRaw(Buffer.concat(commands));
      for (let i = 0; i < count; i++) {
        const reply = show(await client.nextReply());
        const expected = i % 2 === 0 ? `:${i / 2 + 1}` : `:${(i + 1) / 2}`;
        if (reply !== expected) expect.fail(`reply #${i} was ${reply}, expected ${expected}`);
      }
      const all = await client.call('LRANGE', 'flood', '0', '-1');
      expect(all.kind === 'array' && all.items?.map(show)).toEqual(Array.from({ length: count / 2 }, (_, i) => `$${i * 2}`));
      await client.call('DEL', 'flood', 'flood:counter');
    } finally {
      client.close();
    }
  });

  it('serves 300 concurrent clients without losing or mixing up writes', async () => {
    const clients = await Promise.all(Array.from({ length: 300 }, () => RespTestClient.connect(fake.socketPath)));
    try {
      // The server sees a connection a moment after the client does.
      const deadline = Date.now() + 2000;
      while (fake.clientCount < 300 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(fake.clientCount).toBeGreaterThanOrEqual(300);
      await Promise.all(
        clients.map(async (client, index) => {
          for (let round = 0; round < 5; round++) {
            // Pipeline a write and its read-backs so requests from all clients interleave.
            client.send(['SET', `client:${index}`, `value-${index}-${round}`]);
            client.send(['RPUSH', `log:${index}`, String(round)]);
            client.send(['GET', `client:${index}`]);
            const replies = [await client.nextReply(), await client.nextReply(), await client.nextReply()].map(show);
            expect(replies).toEqual(['+OK', `:${round + 1}`, `$value-${index}-${round}`]);
          }
          expect(show(await client.call('LRANGE', `log:${index}`, '0', '-1'))).toBe('[$0, $1, $2, $3, $4]');
        }),
      );
      expect(show(await clients[0]!.call('EVAL', 'x', '0'))).toMatch(/^-ERR unknown command 'EVAL'/);
      const keys = await clients[0]!.call('KEYS', 'client:*');
      expect(keys.kind === 'array' && keys.items?.length).toBe(300);
    } finally {
      for (const client of clients) client.close();
    }
  });
});

describe('commands with input-sized argument lists', () => {
  it('KEYS, SCAN and PUBLISH stop a glob match that would take the host seconds, with an error that says so', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    const subscriber = await RespTestClient.connect(fake.socketPath);
    try {
      // One star before a long literal: every start position compares the literal again, O(pattern × key): 11 s here.
      const longKey = 'a'.repeat(80_000);
      const costly = `*${'a'.repeat(40_000)}b`;
      expect(show(await client.call('SET', longKey, 'x'))).toBe('+OK');
      const tooCostly =
        /^-ERR pattern too costly to match \(the executor's Redis takes at most 100000000 steps of glob matching a command\)$/;
      expect(show(await client.call('KEYS', costly))).toMatch(tooCostly);
      expect(show(await client.call('SCAN', '0', 'MATCH', costly))).toMatch(tooCostly);
      expect(show(await subscriber.call('PSUBSCRIBE', costly))).toMatch(/^\[\$psubscribe, /);
      expect(show(await client.call('PUBLISH', longKey, 'm'))).toMatch(tooCostly);
      // Ordinary patterns are matched as before.
      expect(show(await client.call('KEYS', 'a*a'))).toBe(`[$${longKey}]`);
      expect(show(await client.call('PUBLISH', 'short', 'm'))).toBe(':0');
    } finally {
      client.close();
      subscriber.close();
    }
  });

  it('MGET, HMGET and EXEC that repeat one value past the reply bound are refused, not built (200 copies of 1 MiB: 2 GB in the host)', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    try {
      const value = 'v'.repeat(1024 * 1024);
      expect(show(await client.call('SET', 'big', value))).toBe('+OK');
      expect(show(await client.call('HSET', 'h', 'f', value))).toBe(':1');
      const tooLarge = /^-ERR reply too large \(\d+ bytes of values; the executor's Redis answers at most 128 MiB a command\)/;
      expect(show(await client.call('MGET', ...Array<string>(200).fill('big')))).toMatch(tooLarge);
      expect(show(await client.call('HMGET', 'h', ...Array<string>(200).fill('f')))).toMatch(tooLarge);
      expect(show(await client.call('MULTI'))).toBe('+OK');
      for (let i = 0; i < 200; i++) expect(show(await client.call('GET', 'big'))).toBe('+QUEUED');
      expect(show(await client.call('INCR', 'counter'))).toBe('+QUEUED');
      expect(show(await client.call('EXEC'))).toMatch(
        /^-ERR reply too large \(\d+ bytes of values; the executor's Redis answers at most 128 MiB a command\): the transaction stopped after command 12\d of 201$/,
      );
      // What stays under the bound is answered as before.
      const mget = await client.call('MGET', 'big', 'big', 'absent');
      expect(mget.kind === 'array' && mget.items?.length).toBe(3);
    } finally {
      client.close();
    }
  });

  it('ZADD, ZREM and ZPOPMIN of 32,000 to 50,000 members each on a sorted set of 384,000 (a splice per member held the event loop for minutes)', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    try {
      // Descending scores: each member goes before every one already there.
      for (let round = 0; round < 12; round++) {
        const pairs = Array.from({ length: 32_000 }, (_, i) => {
          const n = round * 32_000 + i;
          return [String(384_000 - n), `m${n}`];
        }).flat();
        client.send(['ZADD', 'ranked', ...pairs]);
        expect(show(await client.nextReply())).toBe(':32000');
      }
      expect(show(await client.call('ZRANGE', 'ranked', '0', '1', 'WITHSCORES'))).toBe('[$m383999, $1, $m383998, $2]');
      const lowest = Array.from({ length: 50_000 }, (_, i) => `m${383_999 - i}`);
      client.send(['ZREM', 'ranked', ...lowest, 'absent']);
      expect(show(await client.nextReply())).toBe(':50000');
      expect(show(await client.call('ZPOPMIN', 'ranked', '50000'))).toMatch(/^\[\$m333999, \$50001, /);
      expect(show(await client.call('ZCARD', 'ranked'))).toBe(':284000');
      expect(show(await client.call('ZRANK', 'ranked', 'm0'))).toBe(':283999');
      expect(show(await client.call('ZADD', 'ranked', 'INCR', '-1000000', 'm0'))).toBe('$-616000');
      expect(show(await client.call('ZRANGE', 'ranked', '0', '0'))).toBe('[$m0]');
      expect(show(await client.call('ZPOPMAX', 'ranked', '1'))).toBe('[$m1, $383999]');
    } finally {
      client.close();
    }
  });

  it('LTRIM keeps 250,000 items of a list (no spread of the list into one call)', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    try {
      // A command takes at most 65,536 arguments; the list grows past that a command at a time.
      const values = Array.from({ length: 50_000 }, (_, i) => String(i));
      for (let round = 1; round <= 4; round++) {
        client.send(['RPUSH', 'many', ...values]);
        expect(show(await client.nextReply())).toBe(`:${round * 50_000}`);
      }
      client.send(['LPUSH', 'many', ...values]);
      expect(show(await client.nextReply())).toBe(':250000');
      expect(show(await client.call('LRANGE', 'many', '49999', '50000'))).toBe('[$0, $0]');
      expect(show(await client.call('LTRIM', 'many', '1', '-2'))).toBe('+OK');
      expect(show(await client.call('LLEN', 'many'))).toBe(':249998');
      expect(show(await client.call('LRANGE', 'many', '0', '0'))).toBe('[$49998]');
    } finally {
      client.close();
    }
  });

  it('LREM removes 400,000 equal items in one pass (a splice each held the event loop for a minute)', async () => {
    const client = await RespTestClient.connect(fake.socketPath);
    try {
      // 'b' first, so no removal is at the head (where V8 trims in place): each splice moved the rest of the list.
      client.send(['RPUSH', 'equal', 'b']);
      await client.nextReply();
      const values = Array.from({ length: 50_000 }, () => 'a');
      for (let round = 1; round <= 8; round++) {
        client.send(['RPUSH', 'equal', ...values]);
        await client.nextReply();
      }
      client.send(['RPUSH', 'equal', 'c']);
      await client.nextReply();
      expect(show(await client.call('LREM', 'equal', '399998', 'a'))).toBe(':399998');
      expect(show(await client.call('LRANGE', 'equal', '0', '-1'))).toBe('[$b, $a, $a, $c]');
      expect(show(await client.call('LREM', 'equal', '-1', 'a'))).toBe(':1');
      expect(show(await client.call('LREM', 'equal', '0', 'a'))).toBe(':1');
      expect(show(await client.call('LRANGE', 'equal', '0', '-1'))).toBe('[$b, $c]');
    } finally {
      client.close();
    }
  });
});

describe('bounds shared by all the connections of a fake', () => {
  const MiB = 1024 * 1024;

  async function startOwnFake(name: string): Promise<RedisFakeServer> {
    const own = new RedisFakeServer({ socketPath: join(temp.dir, name) });
    await own.listen();
    return own;
  }

  /** `count` replies, rendered; a subscription reply echoes its name, so only the start is kept. */
  async function replies(client: RespTestClient, count: number): Promise<string[]> {
    const shown: string[] = [];
    for (let i = 0; i < count; i++) shown.push(show(await client.nextReply()).slice(0, 200));
    return shown;
  }

  it('SUBSCRIBE and PSUBSCRIBE past the session bound on names held are refused with an error, and subscribe nothing (60,000 names of 1 KB ×10: 1 GB in the host)', async () => {
    const own = await startOwnFake('subscriptions.sock');
    const first = await RespTestClient.connect(own.socketPath);
    const second = await RespTestClient.connect(own.socketPath);
    try {
      const cost = (name: string): number => name.length + SUBSCRIPTION_OVERHEAD;
      const refused =
        /^-ERR too many subscriptions \(\d+ bytes of channel and pattern names; the executor's Redis holds at most 64 MiB of them, all connections together\)$/;
      // The attack: 60,000 channels of 1 KB a command, new names each time, on one connection.
      const round = (r: number): string[] => Array.from({ length: 60_000 }, (_, i) => `${r}:${i}:`.padEnd(1024, 'c'));
      first.send(['SUBSCRIBE', ...round(0)]);
      const accepted = await replies(first, 60_000);
      expect(accepted[59_999]).toMatch(/^\[\$subscribe, \$0:59999:c/);
      const held = round(0).reduce((sum, name) => sum + cost(name), 0);
      expect(own.subscriptionBytes).toBe(held);
      for (let r = 1; r <= 2; r++) {
        first.send(['SUBSCRIBE', ...round(r)]);
        expect(await replies(first, 1)).toEqual([expect.stringMatching(refused)]);
        expect(own.subscriptionBytes).toBe(held);
      }
      // The connection stays usable, and still holds what it had.
      expect(show(await first.call('PING'))).toBe('[$pong, $]');
      expect(show(await first.call('SUBSCRIBE', '0:1:'.padEnd(1024, 'c')))).toMatch(/^\[\$subscribe, \$0:1:c+, :60000\]$/);

      // Another connection shares the bound: 4 MiB of patterns are too many now.
      const patterns = Array.from({ length: 4 }, (_, i) => `p${i}*`.padEnd(MiB, 'p'));
      second.send(['PSUBSCRIBE', ...patterns]);
      expect(await replies(second, 1)).toEqual([expect.stringMatching(refused)]);
      expect(own.subscriptionBytes).toBe(held);
      // It subscribed to nothing: PING answers as outside pub/sub.
      expect(show(await second.call('PING'))).toBe('+PONG');

      // UNSUBSCRIBE gives the bytes back, and the patterns fit then.
      first.send(['UNSUBSCRIBE', ...round(0).slice(0, 10_000)]);
      await replies(first, 10_000);
      const afterUnsubscribe =
        held -
        round(0)
          .slice(0, 10_000)
          .reduce((sum, name) => sum + cost(name), 0);
      expect(own.subscriptionBytes).toBe(afterUnsubscribe);
      second.send(['PSUBSCRIBE', ...patterns]);
      expect(await replies(second, 4)).toEqual(patterns.map((_, i) => expect.stringMatching(new RegExp(`^\\[\\$psubscribe, \\$p${i}\\*`))));
      const patternBytes = patterns.reduce((sum, name) => sum + cost(name), 0);
      expect(own.subscriptionBytes).toBe(afterUnsubscribe + patternBytes);
      // A name subscribed twice is held once.
      second.send(['PSUBSCRIBE', patterns[0]!]);
      await replies(second, 1);
      expect(own.subscriptionBytes).toBe(afterUnsubscribe + patternBytes);
      // PUNSUBSCRIBE (of a name held and one not), RESET, and closing the connection give them back too.
      second.send(['PUNSUBSCRIBE', patterns[0]!, 'not-held']);
      await replies(second, 2);
      expect(own.subscriptionBytes).toBe(afterUnsubscribe + patternBytes - cost(patterns[0]!));
      expect(show(await second.call('RESET'))).toBe('+RESET');
      expect(own.subscriptionBytes).toBe(afterUnsubscribe);
      first.close();
      await first.closed;
      const deadline = Date.now() + 2000;
      while (own.subscriptionBytes > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(own.subscriptionBytes).toBe(0);
    } finally {
      first.close();
      second.close();
      await own.close();
    }
  }, 60_000);
});
