/**
 * Bytes a Redis connection keeps after its command has run: a blocked
 * command's arguments, a client name, a config value. Each was held outside
 * every bound the fake keeps (1.5 GB from twenty connections); each test
 * fails if that works again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';

import { RedisFakeServer } from '../../../src/executor/redis/server.js';
import { RespTestClient, makeTempDir, show } from './helpers.js';

const MiB = 1024 * 1024;
let temp: ReturnType<typeof makeTempDir>;

beforeAll(() => {
  temp = makeTempDir();
});

afterAll(() => {
  temp?.remove();
});

async function startOwnFake(name: string): Promise<RedisFakeServer> {
  const own = new RedisFakeServer({ socketPath: join(temp.dir, name) });
  await own.listen();
  return own;
}

describe('bytes held past their command', () => {
  it('blocked clients hold their arguments within the input bound: twenty BLPOPs on a 30 MiB key each (0.75 GB held, counted nowhere) get the late ones dropped', async () => {
    const own = await startOwnFake('blocked-bytes.sock');
    const clients: RespTestClient[] = [];
    try {
      const key = (i: number): Buffer => Buffer.concat([Buffer.alloc(30 * MiB, 'k'), Buffer.from(String(i))]);
      for (let i = 0; i < 20; i++) {
        const client = await RespTestClient.connect(own.socketPath);
        clients.push(client);
        client.send(['BLPOP', key(i), '0']);
        // One at a time: the server has read and parked each before the next arrives.
        for (const deadline = Date.now() + 5000; own.store.blockedClientCount + clients.filter((c) => c.isClosed).length < i + 1; ) {
          if (Date.now() > deadline) throw new Error(`client ${i} was neither parked nor dropped`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      const parked = own.store.blockedClientCount;
      // 160 MiB hold five such keys; the rest were dropped as they passed it, and the input counted stays under the bound.
      expect(parked).toBe(5);
      expect(clients.filter((client) => client.isClosed)).toHaveLength(15);
      expect(own.inputBytes).toBeLessThanOrEqual(own.maxInputBytes);
      expect(own.inputBytes).toBeGreaterThan(5 * 30 * MiB);
      // A parked client that hangs up gives its bytes back, and so does one that is answered.
      clients[1]!.close();
      await clients[1]!.closed;
      for (const deadline = Date.now() + 5000; own.store.blockedClientCount > 4 && Date.now() < deadline; )
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect(own.inputBytes).toBeLessThan(4 * 31 * MiB);
      const pusher = await RespTestClient.connect(own.socketPath);
      expect(show(await pusher.call('RPUSH', key(0), 'v'))).toBe(':1');
      expect(show(await clients[0]!.nextReply())).toMatch(/^\[\$k+0, \$v\]$/);
      expect(own.store.blockedClientCount).toBe(3);
      expect(own.inputBytes).toBeLessThan(3 * 31 * MiB);
      pusher.close();
    } finally {
      for (const client of clients) client.close();
      await own.close();
    }
  }, 60_000);

  it('a client name and a CONFIG SET value past 4 KiB are refused: held outside the keyspace, twenty 60 MB names took 1.5 GB and CONFIG GET * of ten values 2 GB', async () => {
    const own = await startOwnFake('settings.sock');
    const client = await RespTestClient.connect(own.socketPath);
    try {
      const long = 'n'.repeat(4097);
      expect(show(await client.call('CLIENT', 'SETNAME', long))).toBe(
        "-ERR client name too long (4097 bytes; the executor's Redis keeps at most 4096)",
      );
      expect(show(await client.call('HELLO', '2', 'SETNAME', long))).toBe(
        "-ERR client name too long (4097 bytes; the executor's Redis keeps at most 4096)",
      );
      expect(show(await client.call('CLIENT', 'GETNAME'))).toBe('$(nil)');
      expect(show(await client.call('CLIENT', 'SETNAME', 'n'.repeat(4096)))).toBe('+OK');
      expect(show(await client.call('CONFIG', 'SET', 'save', '', 'appendonly', long))).toBe(
        "-ERR CONFIG SET failed (possibly related to argument 'appendonly') - value too long (4097 bytes; the executor's Redis keeps at most 4096)",
      );
      // Nothing of a refused CONFIG SET is applied.
      expect(show(await client.call('CONFIG', 'GET', 'appendonly'))).toBe('[$appendonly, $no]');
      expect(show(await client.call('CONFIG', 'SET', 'save', '3600 1'))).toBe('+OK');
    } finally {
      client.close();
      await own.close();
    }
  });
});
