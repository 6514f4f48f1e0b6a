/**
 * The output the Redis fake has written and its clients have not read, all
 * connections together (HOST_LIMITS.redisUnsentOutputBytes): each connection
 * is held to the high-water mark and one reply, but a hook may open many.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';

import { HOST_LIMITS } from '../../../src/executor/host-limits.js';
import { RedisFakeServer, type CommandTraceEntry } from '../../../src/executor/redis/server.js';
import { RespTestClient, makeTempDir, show } from './helpers.js';

const MiB = 1024 * 1024;
let temp: ReturnType<typeof makeTempDir>;

beforeAll(() => {
  temp = makeTempDir();
});

afterAll(() => {
  temp?.remove();
});

async function startOwnFake(name: string, onCommand: (entry: CommandTraceEntry) => void): Promise<RedisFakeServer> {
  const own = new RedisFakeServer({ socketPath: join(temp.dir, name), onCommand });
  await own.listen();
  return own;
}

describe('unsent output, all connections together', () => {
  it('replies left unread on many connections add up to the session bound at most: past it, a connection holding the most is dropped (30 GETs of 32 MiB: 1.16 GB in the host)', async () => {
    const traced: CommandTraceEntry[] = [];
    // The 32 MiB replies are not kept, only that they were sent.
    const own = await startOwnFake('unsent.sock', (entry) => traced.push(entry.command[0] === 'GET' ? { ...entry, reply: null } : entry));
    const writer = await RespTestClient.connect(own.socketPath);
    const readers = await Promise.all(Array.from({ length: 10 }, () => RespTestClient.connect(own.socketPath)));
    try {
      expect(show(await writer.call('SET', 'k', Buffer.alloc(32 * MiB, 'v')))).toBe('+OK');
      // Each asks for 32 MiB and reads nothing: all but what the kernel takes waits in the host.
      for (const reader of readers) {
        reader.socket.pause();
        reader.send(['GET', 'k']);
      }
      const deadline = Date.now() + 10_000;
      while (traced.filter((entry) => entry.command[0] === 'GET').length < readers.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const limit = HOST_LIMITS.redisUnsentOutputBytes;
      const drops = traced.filter((entry) => entry.push && JSON.stringify(entry.reply).includes('left unread'));
      expect(drops.length).toBeGreaterThan(0);
      expect(drops[0]!.reply).toEqual({
        error: expect.stringMatching(
          /^ERR disconnected: replies left unread on all connections passed 256 MiB \(this one had \d+ bytes of them\)$/,
        ) as string,
      });
      // What is counted: under the bound, and what the readers that were kept hold.
      expect(own.unsentOutputBytes).toBeLessThanOrEqual(limit);
      expect(own.unsentOutputBytes).toBeGreaterThan((readers.length - drops.length - 1) * 31 * MiB);

      // Filled to just under the bound, then a reply of 1 MiB passes it: a connection holding 32 MiB goes, not the one writing.
      const gets = async (key: string): Promise<CommandTraceEntry> => {
        while (!traced.some((entry) => entry.command.join(' ') === `GET ${key}`) && Date.now() < deadline + 10_000) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        return traced.find((entry) => entry.command.join(' ') === `GET ${key}`)!;
      };
      const fillBytes = limit - own.unsentOutputBytes - 1024;
      expect(show(await writer.call('SET', 'fill', Buffer.alloc(fillBytes, 'f')))).toBe('+OK');
      expect(show(await writer.call('SET', 'small', Buffer.alloc(MiB, 's')))).toBe('+OK');
      const [filler, small] = await Promise.all([RespTestClient.connect(own.socketPath), RespTestClient.connect(own.socketPath)]);
      readers.push(filler, small);
      filler.socket.pause();
      filler.send(['GET', 'fill']);
      await gets('fill');
      expect(traced.filter((entry) => entry.push).length).toBe(drops.length);
      small.socket.pause();
      small.send(['GET', 'small']);
      const smallGet = await gets('small');
      const evicted = traced.filter((entry) => entry.push).slice(drops.length);
      expect(evicted).toHaveLength(1);
      expect(evicted[0]!.client).not.toBe(smallGet.client);
      expect(JSON.stringify(evicted[0]!.reply)).toMatch(/this one had 33\d{6} bytes/);
      drops.push(evicted[0]!);
      expect(own.unsentOutputBytes).toBeLessThanOrEqual(limit);

      // The readers kept get their whole reply once they read; the others find their connection closed.
      const outcomes = await Promise.all(
        readers.map(async (reader) => {
          reader.socket.resume();
          const reply = await reader.nextReplyWithin(10_000);
          return reply === 'closed' ? 'closed' : reply !== 'timeout' && reply.kind === 'bulk' ? reply.value?.length : reply;
        }),
      );
      expect(outcomes.filter((outcome) => outcome === 'closed')).toHaveLength(drops.length);
      expect(outcomes.filter((outcome) => outcome === 32 * MiB)).toHaveLength(readers.length - 2 - drops.length);
      expect(outcomes.slice(-2)).toEqual([fillBytes, MiB]);
      while (own.unsentOutputBytes > 0 && Date.now() < deadline + 10_000) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(own.unsentOutputBytes).toBe(0);
      expect(show(await writer.call('PING'))).toBe('+PONG');

      // A connection closing after QUIT counts what it has left to send until its socket is gone
      // (QUIT runs only under the high-water mark: a reply above it stops the connection's requests).
      expect(show(await writer.call('DEL', 'fill'))).toBe(':1');
      expect(show(await writer.call('SET', 'three', Buffer.alloc(3 * MiB, 't')))).toBe('+OK');
      const quitter = await RespTestClient.connect(own.socketPath);
      readers.push(quitter);
      quitter.socket.pause();
      quitter.send(['GET', 'three']);
      quitter.send(['QUIT']);
      while (!traced.some((entry) => entry.command[0] === 'QUIT') && Date.now() < deadline + 20_000) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(own.unsentOutputBytes).toBeGreaterThan(2 * MiB);
      quitter.socket.resume();
      const last = await quitter.nextReply();
      expect(last.kind === 'bulk' && last.value?.length).toBe(3 * MiB);
      expect(show(await quitter.nextReply())).toBe('+OK');
      await quitter.closed;
      while (own.unsentOutputBytes > 0 && Date.now() < deadline + 20_000) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(own.unsentOutputBytes).toBe(0);
    } finally {
      writer.close();
      for (const reader of readers) reader.close();
      await own.close();
    }
  }, 60_000);
});
