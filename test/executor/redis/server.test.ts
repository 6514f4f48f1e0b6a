import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { bulk, error, integer } from '../../../src/executor/redis/resp.js';
import {
  MONITOR_SHOWN_BYTES,
  startRedisFake,
  type CommandTraceEntry,
  type RedisFake,
  type RedisFakeOptions,
} from '../../../src/executor/redis/server.js';
import { RespTestClient, makeTempDir, show } from './helpers.js';

let temp: ReturnType<typeof makeTempDir>;
const cleanups: (() => Promise<void> | void)[] = [];

beforeEach(() => {
  temp = makeTempDir();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  temp.remove();
});

async function fakeWith(options: Partial<RedisFakeOptions> = {}): Promise<RedisFake> {
  const fake = await startRedisFake({ socketPath: join(temp.dir, `fake-${cleanups.length}.sock`), ...options });
  cleanups.push(() => fake.close());
  return fake;
}

async function clientOf(fake: RedisFake): Promise<RespTestClient> {
  const client = await RespTestClient.connect(fake.socketPath);
  cleanups.push(() => client.close());
  return client;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('tracing', () => {
  it('reports every command with its arguments, decoded reply and client', async () => {
    const entries: CommandTraceEntry[] = [];
    let clock = 1000;
    const fake = await fakeWith({ now: () => clock, onCommand: (entry) => entries.push(entry) });
    const client = await clientOf(fake);
    await client.call('SET', 'swarm:t:a:confidence', '0.85');
    clock = 1500;
    await client.call('GET', 'swarm:t:a:confidence');
    await client.call('LPUSH', 'q', 'é');
    await client.call('INCR', 'swarm:t:a:confidence');
    await client.call('AUTH', 'secret-password');
    expect(entries.map(({ t, client: id, db, command, reply }) => ({ t, id, db, command, reply }))).toEqual([
      { t: 1000, id: 1, db: 0, command: ['SET', 'swarm:t:a:confidence', '0.85'], reply: 'OK' },
      { t: 1500, id: 1, db: 0, command: ['GET', 'swarm:t:a:confidence'], reply: '0.85' },
      { t: 1500, id: 1, db: 0, command: ['LPUSH', 'q', 'é'], reply: 1 },
      { t: 1500, id: 1, db: 0, command: ['INCR', 'swarm:t:a:confidence'], reply: { error: 'ERR value is not an integer or out of range' } },
      {
        t: 1500,
        id: 1,
        db: 0,
        command: ['AUTH', '(redacted)'],
        reply: { error: expect.stringContaining('without any password configured') as unknown as string },
      },
    ]);
  });

  it('reports a blocking command when it is answered, with how long it waited', async () => {
    const entries: CommandTraceEntry[] = [];
    const fake = await fakeWith({ onCommand: (entry) => entries.push(entry) });
    const waiter = await clientOf(fake);
    const producer = await clientOf(fake);
    const popped = waiter.call('BLPOP', 'jobs', '5');
    await until(() => fake.store.blockedClientCount === 1, 'the BLPOP to block');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await producer.call('RPUSH', 'jobs', 'job-1');
    expect(show(await popped)).toBe('[$jobs, $job-1]');
    const blpop = entries.find((entry) => entry.command[0] === 'BLPOP');
    expect(blpop?.reply).toEqual(['jobs', 'job-1']);
    expect(blpop?.durationMs).toBeGreaterThanOrEqual(25);
    expect(entries.map((entry) => entry.command[0])).toEqual(['RPUSH', 'BLPOP']);
  });

  it('still reports a blocking command whose client went away unanswered', async () => {
    const entries: CommandTraceEntry[] = [];
    const fake = await fakeWith({ onCommand: (entry) => entries.push(entry) });
    const waiter = await clientOf(fake);
    waiter.send(['BLPOP', 'swarm:t:gate-passed', '0']);
    await until(() => fake.store.blockedClientCount === 1, 'the BLPOP to block');
    waiter.close();
    await until(() => entries.length === 1, 'the trace entry');
    expect(entries[0]).toMatchObject({ command: ['BLPOP', 'swarm:t:gate-passed', '0'], reply: null, disconnected: true });
  });
});

describe('extra commands', () => {
  it('dispatches to executor handlers with UTF-8 arguments, in order even when asynchronous', async () => {
    const memory = new Map<string, string>();
    const seen: { args: string[]; clientId: number }[] = [];
    const fake = await fakeWith({
      extraCommands: {
        'VAH.MEMORY': async (args, ctx) => {
          seen.push({ args, clientId: ctx.clientId });
          await new Promise((resolve) => setTimeout(resolve, 20));
          const [action, key, data] = args;
          if (action === 'store' && key && data !== undefined) {
            memory.set(key, data);
            return integer(1);
          }
          if (action === 'retrieve' && key) return bulk(memory.get(key) ?? null);
          return error(`unknown VAH.MEMORY action '${action ?? ''}'`);
        },
      },
    });
    const client = await clientOf(fake);
    client.send(['vah.memory', 'store', 'agent:coder', '{"note":"héllo 🚀"}']);
    client.send(['VAH.MEMORY', 'retrieve', 'agent:coder']);
    client.send(['PING']);
    client.send(['VAH.MEMORY', 'bogus']);
    const replies = [await client.nextReply(), await client.nextReply(), await client.nextReply(), await client.nextReply()];
    expect(replies.map(show)).toEqual([
      ':1',
      `$${Buffer.from('{"note":"héllo 🚀"}').toString('latin1')}`,
      '+PONG',
      "-ERR unknown VAH.MEMORY action 'bogus'",
    ]);
    expect(seen[0]).toEqual({ args: ['store', 'agent:coder', '{"note":"héllo 🚀"}'], clientId: 1 });
  });

  it('runs asynchronous extra commands inside MULTI/EXEC in order', async () => {
    const log: string[] = [];
    const fake = await fakeWith({
      extraCommands: {
        'VAH.SLOW': async (args) => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          log.push(args[0] ?? '');
          return bulk(`slow ${args[0] ?? ''}`);
        },
      },
    });
    const client = await clientOf(fake);
    for (const command of [['MULTI'], ['VAH.SLOW', 'one'], ['INCR', 'n'], ['VAH.SLOW', 'two']]) await client.call(...command);
    expect(show(await client.call('EXEC'))).toBe('[$slow one, :1, $slow two]');
    expect(log).toEqual(['one', 'two']);
  });

  it('can serve the extra commands alone, for a control socket', async () => {
    const fake = await fakeWith({ dataCommands: false, extraCommands: { 'VAH.EVENTBUS': (args) => integer(args.length) } });
    const client = await clientOf(fake);
    expect(show(await client.call('VAH.EVENTBUS', 'publish', '--type', 'a.b'))).toBe(':3');
    expect(show(await client.call('PING'))).toBe('+PONG');
    expect(show(await client.call('SET', 'k', 'v'))).toBe("-ERR unknown command 'SET', with args beginning with: 'k' 'v' ");
  });

  it('turns a throwing handler into an error reply and keeps serving', async () => {
    const fake = await fakeWith({
      extraCommands: {
        BROKEN: () => {
          throw new Error('boom');
        },
      },
    });
    const client = await clientOf(fake);
    expect(show(await client.call('BROKEN'))).toBe('-ERR internal error in the Redis fake: boom');
    expect(show(await client.call('PING'))).toBe('+PONG');
  });
});

describe('blocking commands', () => {
  it('serves the client that blocked first, one element each', async () => {
    const fake = await fakeWith();
    const producer = await clientOf(fake);
    const waiters = [await clientOf(fake), await clientOf(fake), await clientOf(fake)];
    const served: Promise<string>[] = [];
    for (const [index, waiter] of waiters.entries()) {
      served.push(waiter.call(index === 1 ? 'BRPOP' : 'BLPOP', 'swarm:t:done', '0').then(show));
      await until(() => fake.store.blockedClientCount === index + 1, `waiter ${index} to block`);
    }
    expect(show(await producer.call('RPUSH', 'swarm:t:done', 'coder-1', 'coder-2'))).toBe(':2');
    expect(show(await producer.call('RPUSH', 'swarm:t:done', 'coder-3'))).toBe(':1');
    expect(await Promise.all(served)).toEqual(['[$swarm:t:done, $coder-1]', '[$swarm:t:done, $coder-2]', '[$swarm:t:done, $coder-3]']);
  });

  it('forgets a blocked client that disconnects, so data goes to the next one', async () => {
    const fake = await fakeWith();
    const leaver = await clientOf(fake);
    const stayer = await clientOf(fake);
    const producer = await clientOf(fake);
    leaver.send(['BRPOP', 'q', '0']);
    await until(() => fake.store.blockedClientCount === 1, 'the first BRPOP');
    const served = stayer.call('BRPOP', 'q', '0');
    await until(() => fake.store.blockedClientCount === 2, 'the second BRPOP');
    leaver.close();
    await until(() => fake.store.blockedClientCount === 1, 'the leaver to be removed');
    expect(show(await producer.call('LPUSH', 'q', 'only'))).toBe(':1');
    expect(show(await served)).toBe('[$q, $only]');
    expect(show(await producer.call('LLEN', 'q'))).toBe(':0');
  });

  it('times out with a null array and then runs the client’s pipelined commands', async () => {
    const fake = await fakeWith();
    const client = await clientOf(fake);
    client.send(['BLPOP', 'nothing', '0.05']);
    client.send(['ECHO', 'after']);
    const started = Date.now();
    expect(show(await client.nextReply())).toBe('*(nil)');
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(show(await client.nextReply())).toBe('$after');
  });

  it('blocks on a timeout past 24.8 days (setTimeout fired it after 1 ms: BLPOP k 3000000 answered nil at once)', async () => {
    const fake = await fakeWith();
    const client = await clientOf(fake);
    const producer = await clientOf(fake);
    client.send(['BLPOP', 'q', '3000000']);
    await until(() => fake.store.blockedClientCount === 1, 'the BLPOP to park');
    // A PING on the same connection queues behind the parked BLPOP, and the producer's round trip lets the fake's timers run.
    expect(show(await producer.call('PING'))).toBe('+PONG');
    expect(fake.store.blockedClientCount).toBe(1);
    expect(show(await producer.call('RPUSH', 'q', 'late'))).toBe(':1');
    expect(show(await client.nextReply())).toBe('[$q, $late]');
  });

  it('answers a blocking pop inside MULTI at once, as Redis does', async () => {
    const fake = await fakeWith();
    const client = await clientOf(fake);
    for (const command of [['MULTI'], ['BLPOP', 'q', '0'], ['RPUSH', 'q', 'x'], ['BLPOP', 'q', '0']]) await client.call(...command);
    expect(show(await client.call('EXEC'))).toBe('[*(nil), :1, [$q, $x]]');
  });
});

describe('connection commands', () => {
  it('selects databases, names clients and runs transactions', async () => {
    const fake = await fakeWith();
    const client = await clientOf(fake);
    const transcript: string[] = [];
    for (const command of [
      ['SELECT', '2'],
      ['SET', 'k', 'in-2'],
      ['SELECT', '16'],
      ['CLIENT', 'SETNAME', 'hook-runner'],
      ['CLIENT', 'GETNAME'],
      ['CLIENT', 'SETNAME', 'has space'],
      ['MULTI'],
      ['INCR', 'n'],
      ['GET', 'k'],
      ['EXEC'],
      ['MULTI'],
      ['GET'],
      ['EXEC'],
      ['EXEC'],
      ['QUIT'],
    ]) {
      transcript.push(show(await client.call(...command)));
    }
    expect(transcript).toEqual([
      '+OK',
      '+OK',
      '-ERR DB index is out of range',
      '+OK',
      '$hook-runner',
      '-ERR Client names cannot contain spaces, newlines or special characters.',
      '+OK',
      '+QUEUED',
      '+QUEUED',
      '[:1, $in-2]',
      '+OK',
      "-ERR wrong number of arguments for 'get' command",
      '-EXECABORT Transaction discarded because of previous errors.',
      '-ERR EXEC without MULTI',
      '+OK',
    ]);
    await client.closed;
    expect(fake.store.snapshot(2)).toEqual({
      k: { type: 'string', value: 'in-2', ttlMs: null },
      n: { type: 'string', value: '1', ttlMs: null },
    });
  });

  it('delivers PUBLISH to channel and pattern subscribers and restricts subscribed clients', async () => {
    const fake = await fakeWith();
    const subscriber = await clientOf(fake);
    const publisher = await clientOf(fake);
    subscriber.send(['SUBSCRIBE', 'mesh:events', 'mesh:other']);
    expect(show(await subscriber.nextReply())).toBe('[$subscribe, $mesh:events, :1]');
    expect(show(await subscriber.nextReply())).toBe('[$subscribe, $mesh:other, :2]');
    expect(show(await subscriber.call('PSUBSCRIBE', 'mesh:*'))).toBe('[$psubscribe, $mesh:*, :3]');
    expect(show(await publisher.call('PUBLISH', 'mesh:events', '{"type":"peer_connect"}'))).toBe(':2');
    expect(show(await subscriber.nextReply())).toBe('[$message, $mesh:events, ${"type":"peer_connect"}]');
    expect(show(await subscriber.nextReply())).toBe('[$pmessage, $mesh:*, $mesh:events, ${"type":"peer_connect"}]');
    expect(show(await publisher.call('PUBSUB', 'NUMSUB', 'mesh:events', 'none'))).toBe('[$mesh:events, :1, $none, :0]');
    expect(show(await subscriber.call('GET', 'k'))).toBe(
      "-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
    );
    expect(show(await subscriber.call('PING'))).toBe('[$pong, $]');
    expect(show(await publisher.call('PUBLISH', 'nobody', 'x'))).toBe(':0');
  });

  it('feeds MONITOR clients in redis-server’s format', async () => {
    let clock = 1_700_000_000_123;
    const fake = await fakeWith({ now: () => clock });
    const monitor = await clientOf(fake);
    const client = await clientOf(fake);
    expect(show(await monitor.call('MONITOR'))).toBe('+OK');
    clock += 1;
    await client.call('SET', 'swarm:x', 'a "quoted"\n value');
    expect(show(await monitor.nextReply())).toBe(
      `+1700000000.124000 [0 unix:${fake.socketPath}] "SET" "swarm:x" "a \\"quoted\\"\\n value"`,
    );
  });

  it('shows at most 8 KiB of a command in a MONITOR line (two 60 MB ECHOs held the event loop 35 s, quoted a byte at a time)', async () => {
    const fake = await fakeWith({ now: () => 1_700_000_000_000 });
    const monitor = await clientOf(fake);
    const client = await clientOf(fake);
    expect(show(await monitor.call('MONITOR'))).toBe('+OK');
    const big = Buffer.alloc(1024 * 1024, 0xff);
    await client.call('ECHO', big);
    const prefix = `+1700000000.000000 [0 unix:${fake.socketPath}] "ECHO" "`;
    expect(show(await monitor.nextReply())).toBe(`${prefix}${'\\xff'.repeat(MONITOR_SHOWN_BYTES - 4)}"... (1048576 bytes)`);
    await client.call('DEL', ...Array.from({ length: 20_000 }, (_, i) => `key:${i}`));
    const line = show(await monitor.nextReply());
    expect(line).toMatch(/"DEL" "key:0" "key:1" .*\.\.\. \(\d+ more arguments\)$/);
    expect(line.length).toBeLessThan(MONITOR_SHOWN_BYTES * 4 + 200);
  });

  it('answers HELLO 2 and refuses RESP3 like a server without it', async () => {
    const fake = await fakeWith();
    const client = await clientOf(fake);
    expect(show(await client.call('HELLO', '2', 'SETNAME', 'x'))).toBe(
      '[$server, $redis, $version, $7.0.15, $proto, :2, $id, :1, $mode, $standalone, $role, $master, $modules, []]',
    );
    expect(show(await client.call('HELLO', '3'))).toBe('-NOPROTO unsupported protocol version');
    expect(show(await client.call('COMMAND', 'DOCS'))).toBe('[]');
    expect(show(await client.call('COMMAND', 'NOPE'))).toBe("-ERR unknown subcommand 'NOPE'. Try COMMAND HELP.");
  });
});

describe('lifecycle', () => {
  it('close() ends every connection, releases blocked clients and removes the socket', async () => {
    const fake = await startRedisFake({ socketPath: join(temp.dir, 'closing.sock') });
    const blocked = await RespTestClient.connect(fake.socketPath);
    const idle = await RespTestClient.connect(fake.socketPath);
    // Settled at once into a value: the rejection comes while close() is awaited.
    const pending = blocked.call('BLPOP', 'never', '0').then(
      () => 'replied',
      (reason: unknown) => (reason instanceof Error ? reason.message : String(reason)),
    );
    await until(() => fake.store.blockedClientCount === 1, 'the BLPOP');
    await fake.close();
    expect(await pending).toBe('connection closed');
    await idle.closed;
    expect(fake.store.blockedClientCount).toBe(0);
    expect(existsSync(fake.socketPath)).toBe(false);
    await expect(RespTestClient.connect(fake.socketPath)).rejects.toThrow();
  });

  it('lets other uids connect by default (sandboxed hooks may not run as root)', async () => {
    const fake = await fakeWith();
    expect(statSync(fake.socketPath).mode & 0o777).toBe(0o666);
    const restricted = await fakeWith({ socketMode: 0o600 });
    expect(statSync(restricted.socketPath).mode & 0o777).toBe(0o600);
  });

  it('replaces a stale socket file but never deletes another kind of file', async () => {
    const socketPath = join(temp.dir, 'reused.sock');
    // A process that exits without closing its server leaves the socket file behind, as a crashed run would.
    const crashed = spawnSync(process.execPath, [
      '-e',
      "require('net').createServer().listen(process.argv[1], () => process.exit(0))",
      socketPath,
    ]);
    expect(crashed.status).toBe(0);
    expect(lstatSync(socketPath).isSocket()).toBe(true);
    const second = await startRedisFake({ socketPath });
    cleanups.push(() => second.close());
    const client = await clientOf(second);
    expect(show(await client.call('PING'))).toBe('+PONG');

    const regularFile = join(temp.dir, 'notes.txt');
    writeFileSync(regularFile, 'keep me');
    await expect(startRedisFake({ socketPath: regularFile })).rejects.toThrow();
    expect(existsSync(regularFile)).toBe(true);
  });
});
