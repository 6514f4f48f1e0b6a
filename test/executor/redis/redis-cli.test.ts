/** The real redis-cli against the fake, the way hooks call it: `redis-cli -s SOCKET ...`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';

import { startRedisFake, type CommandTraceEntry, type RedisFake } from '../../../src/executor/redis/server.js';
import { hasRedisCli, makeTempDir, runRedisCli, warnIfMissing } from './helpers.js';

warnIfMissing('redis-cli', hasRedisCli, 'the redis-cli interoperability tests');

describe.skipIf(!hasRedisCli)('redis-cli against the fake', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let fake: RedisFake;
  const trace: CommandTraceEntry[] = [];

  beforeAll(async () => {
    temp = makeTempDir();
    fake = await startRedisFake({ socketPath: join(temp.dir, 'fake.sock'), onCommand: (entry) => trace.push(entry) });
  });

  afterAll(async () => {
    await fake?.close();
    temp?.remove();
  });

  const cli = (...args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> => runRedisCli(fake.socketPath, args);

  it('sets and gets a JSON value the way the corpus hooks do', async () => {
    const json = '{"status":"active","agents":3,"note":"héllo"}';
    expect((await cli('setex', 'swarm:auth:state', '3600', json)).stdout).toBe('OK\n');
    expect((await cli('get', 'swarm:auth:state')).stdout).toBe(`${json}\n`);
    expect((await cli('ttl', 'swarm:auth:state')).stdout).toBe('3600\n');
    expect((await cli('keys', 'swarm:*')).stdout).toBe('swarm:auth:state\n');
  });

  it('pushes and ranges a list', async () => {
    expect((await cli('lpush', 'tasks', 'a', 'b', 'c')).stdout).toBe('3\n');
    expect((await cli('lrange', 'tasks', '0', '-1')).stdout).toBe('c\nb\na\n');
    expect((await cli('--no-raw', 'lrange', 'tasks', '0', '-1')).stdout).toBe('1) "c"\n2) "b"\n3) "a"\n');
  });

  it('prints (nil) when BLPOP times out', async () => {
    const started = Date.now();
    const result = await cli('--no-raw', 'blpop', 'never:filled', '1');
    expect(result.stdout).toBe('(nil)\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    // Piped (not a terminal) redis-cli prints nil as an empty line.
    expect((await cli('blpop', 'never:filled', '0.1')).stdout).toBe('\n');
  });

  it('serves a blocked BLPOP from a later LPUSH by another redis-cli', async () => {
    const waiting = cli('blpop', 'swarm:t1:gate', '5');
    const deadline = Date.now() + 3000;
    while (fake.store.blockedClientCount === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fake.store.blockedClientCount).toBe(1);
    expect((await cli('lpush', 'swarm:t1:gate', 'PROCEED')).stdout).toBe('1\n');
    expect((await waiting).stdout).toBe('swarm:t1:gate\nPROCEED\n');
  });

  // Expected outputs are what redis-cli 7.0 prints against a real redis-server 7.0.
  it('reports errors as redis-cli does for a real server', async () => {
    await cli('set', 'text', 'abc');
    expect((await cli('incr', 'text')).stdout).toBe('ERR value is not an integer or out of range\n\n');
    expect((await cli('--no-raw', 'lpush', 'text', 'x')).stdout).toBe(
      '(error) WRONGTYPE Operation against a key holding the wrong kind of value\n',
    );
    expect((await cli('bogus', 'arg')).stdout).toBe("ERR unknown command 'bogus', with args beginning with: 'arg' \n\n");
  });

  it('works with -n (SELECT) and --pass (AUTH) as against a passwordless Redis', async () => {
    expect((await cli('-n', '5', 'set', 'k', 'in-db-5')).stdout).toBe('OK\n');
    expect((await cli('-n', '5', 'get', 'k')).stdout).toBe('in-db-5\n');
    expect((await cli('get', 'k')).stdout).toBe('\n');
    // After a failed AUTH redis-cli skips its SELECT, so it reads database 0, as with a real server.
    const withPassword = await cli('--pass', 'secret', '--no-auth-warning', '-n', '5', 'get', 'k');
    expect(withPassword.stdout).toBe('\n');
    expect(withPassword.stderr).toContain('AUTH failed: ERR AUTH <password> called without any password configured');
    expect((await cli('--pass', 'secret', '--no-auth-warning', 'ping')).stdout).toBe('PONG\n');
  });

  it('runs commands read from standard input (interactive-style, with COMMAND DOCS first)', async () => {
    const result = await runRedisCli(fake.socketPath, [], { input: 'set piped 1\nincr piped\nget piped\n' });
    expect(result.stdout).toBe('OK\n2\n2\n');
    const commands = trace.map((entry) => entry.command.join(' '));
    expect(commands).toContain('COMMAND DOCS');
    expect(commands).toContain('incr piped');
  });
});
