/**
 * `--redis-url` is somebody's real server. Replays what a review did through
 * it — read the password, read another database, flush everything, make the
 * server connect out — against a real redis-server this test starts on a
 * loopback port with a password.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToJson } from '../../src/executor/report.js';
import { createExecutorSession, type ExecutorSession } from '../../src/executor/session.js';
import { hasRedisServer, hookScript, sandboxMissing } from './helpers.js';
import { perl, sampleHost } from './perl-hooks.js';

const missing = sandboxMissing ?? (hasRedisServer ? undefined : 'redis-server is not installed (apt-get install redis-server)');
if (missing) console.warn(`[redis-url filter tests] skipped: ${missing}`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(missing !== undefined)(`--redis-url: a filter in front of a real server${missing ? ` [skipped: ${missing}]` : ''}`, () => {
  const password = `pw-${process.pid}-${Math.random().toString(36).slice(2)}`;
  let port = 0;
  let server: ChildProcess;
  let session: ExecutorSession;
  const admin = (...args: string[]): string =>
    spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), '--no-auth-warning', '-a', password, ...args], {
      encoding: 'utf8',
    }).stdout.trim();

  beforeAll(async () => {
    port = await freePort();
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--requirepass', password, '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 300 && admin('PING') !== 'PONG'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(admin('PING')).toBe('PONG');
    admin('-n', '3', 'SET', 'other:secret', 'db3-only-value');
    admin('SET', 'keep:me', 'still-here');
    session = await createExecutorSession({ redisUrl: `redis://:${password}@127.0.0.1:${port}/0`, timeoutMs: 8000 });
  });
  afterAll(async () => {
    await session?.close();
    server?.kill('SIGKILL');
  });

  it('refuses the password, other databases, flushing, replication and scripts; data commands work', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          'redis-cli SET swarm:k value-one',
          'redis-cli GET swarm:k',
          'redis-cli CONFIG GET requirepass',
          'redis-cli -n 3 GET other:secret',
          "printf 'SELECT 3\\nGET other:secret\\n' | redis-cli",
          'redis-cli SWAPDB 0 3',
          'redis-cli MOVE swarm:k 3',
          'redis-cli COPY swarm:k copied DB 3',
          'redis-cli FLUSHALL',
          'redis-cli FLUSHDB',
          'redis-cli REPLICAOF 127.0.0.1 1',
          'redis-cli MIGRATE 127.0.0.1 1 keep:me 0 1000',
          `redis-cli EVAL "return redis.call('CONFIG','GET','requirepass')" 0`,
          'redis-cli CLIENT LIST',
          'redis-cli ACL WHOAMI',
          'redis-cli RESET',
          'redis-cli DBSIZE',
          'env',
        ].join('\n'),
      ),
    );
    const report = JSON.stringify(runToJson(result));
    expect(report).not.toContain(password);
    expect(Object.values(result.env).join('\n')).not.toContain(password);
    expect(result.stdout).not.toContain(password);
    expect(result.stdout).not.toContain('db3-only-value');
    expect(result.stdout).toContain('value-one');
    // Every administrative command came back as an error the hook could see.
    const refused = result.operations.filter(
      (op) => op.kind === 'redis' && typeof op.reply === 'object' && op.reply !== null && 'error' in op.reply,
    );
    const refusedNames = refused.map((op) => (op.kind === 'redis' ? op.command[0]!.toUpperCase() : ''));
    for (const name of [
      'CONFIG',
      'SELECT',
      'SWAPDB',
      'MOVE',
      'COPY',
      'FLUSHALL',
      'FLUSHDB',
      'REPLICAOF',
      'MIGRATE',
      'EVAL',
      'CLIENT',
      'ACL',
      'RESET',
    ])
      expect(refusedNames, name).toContain(name);
    expect(result.stdout).toMatch(/ERR .*allows data commands only/);
    // The server is as it was: nothing flushed, moved or swapped, still a primary, password unchanged.
    expect(admin('GET', 'keep:me')).toBe('still-here');
    expect(admin('-n', '3', 'GET', 'other:secret')).toBe('db3-only-value');
    expect(admin('-n', '3', 'EXISTS', 'swarm:k')).toBe('0');
    expect(admin('GET', 'swarm:k')).toBe('value-one');
    expect(admin('ROLE').split('\n')[0]).toBe('master');
    expect(admin('CONFIG', 'GET', 'requirepass').split('\n')[1]).toBe(password);
  });

  it('traces what the server ran, with the replies matched across SUBSCRIBE a b c', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          'redis-cli SET big "$(head -c 100000 /dev/zero | tr "\\0" x)" > /dev/null',
          '(sleep 0.5; redis-cli PUBLISH b hello > /dev/null) &',
          'timeout 1.5 redis-cli SUBSCRIBE a b c > /dev/null',
          'redis-cli SET after-subscribe 1 > /dev/null',
        ].join('\n'),
      ),
    );
    const redis = result.operations.filter((op) => op.kind === 'redis');
    const big = redis.find((op) => op.kind === 'redis' && op.command[0] === 'SET' && op.command[1] === 'big');
    expect(big && big.kind === 'redis' && big.command[2]).toBe('(100000 bytes, not shown)');
    const subscribe = redis.find((op) => op.kind === 'redis' && op.command[0] === 'SUBSCRIBE');
    expect(subscribe && subscribe.kind === 'redis' && subscribe.reply).toEqual([
      ['subscribe', 'a', 1],
      ['subscribe', 'b', 2],
      ['subscribe', 'c', 3],
    ]);
    const message = redis.find((op) => op.kind === 'redis' && op.push);
    expect(message && message.kind === 'redis' && message.reply).toEqual(['message', 'b', 'hello']);
    const after = redis.find((op) => op.kind === 'redis' && op.command[1] === 'after-subscribe');
    expect(after && after.kind === 'redis' && after.reply).toBe('OK');
  });

  it('does not buffer replies a hook leaves unread: the proxy stops reading the server until they drain', async () => {
    const sampler = sampleHost();
    const result = await session
      .runHook(
        hookScript(
          'pre',
          `timeout 3 ${perl(String.raw`
my $s = connect_to("/run/vah/redis.sock");
print $s frame("SET", "big", "b" x (4 * 1024 * 1024)); print reply($s), "\n";
print $s frame("GET", "big") for 1..150;
sleep 30;`)}`,
        ),
      )
      .finally(() => sampler.stop());
    admin('DEL', 'big');
    // 150 replies of 4 MiB are 600 MiB; the proxy holds a few MiB of them, the rest waits in the server.
    expect(result.stdout).toMatch(/^\+OK\nperl=124\n$/);
    expect(sampler.peakGrowth()).toBeLessThan(64 * 1024 * 1024);
  }, 20_000);
});
