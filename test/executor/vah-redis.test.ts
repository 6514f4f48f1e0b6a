import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../../src/executor/host.js';
import { findNativeHelper } from '../../src/executor/native-helper.js';
import { hasRedisCli, hasRedisServer, startRealRedis } from './helpers.js';

// src/executor/native/vah-redis.c against redis-cli itself, on a real redis-server: the
// same bytes on stdout and stderr and the same exit status, for the forms it
// serves and for those it hands on to redis-cli.

const helper = findNativeHelper('vah-redis');
const missing = !helper
  ? 'the build made no dist/libexec/vah-redis (no C compiler)'
  : !hasRedisServer || !hasRedisCli
    ? 'redis-server and redis-cli are needed'
    : undefined;
if (missing) console.warn(`vah-redis.test.ts: skipped: ${missing}.`);

// Each case starts from an empty database with a few keys set.
const SETUP = [
  ['SET', 'counter', '41'],
  ['RPUSH', 'list', 'a', '', 'b c', 'line\nbreak'],
  ['HSET', 'hash', 'f', 'v', 'g', 'w'],
  ['SET', 'binary', 'é\u0001x\u00ff'],
];

const CASES: string[][] = [
  ['PING'],
  ['ping', 'hello world'],
  ['SET', 'k', 'v'],
  ['GET', 'counter'],
  ['GET', 'missing'],
  ['INCR', 'counter'],
  ['INCRBYFLOAT', 'counter', '0.5'],
  ['LRANGE', 'list', '0', '-1'],
  ['HGETALL', 'hash'],
  ['GET', 'binary'],
  ['EXISTS', 'counter', 'missing', 'list'],
  ['MGET', 'counter', 'missing', 'list'],
  ['TYPE', 'list'],
  ['DEL', 'missing'],
  ['EVAL', "return {1,{2,'x'},false,'y',{}}", '0'],
  ['EVAL', "return redis.error_reply('custom failure')", '0'],
  ['NOSUCHCOMMAND', 'arg'],
  ['SET', 'only-key'],
  ['EXEC'],
  ['LPOP', 'list', '2'],
  ['SET', 'spaces and "quotes"', "it's\ttabbed\r\nand crlf"],
  ['-h', 'elsewhere.example', '-p', '6380', 'GET', 'counter'],
  ['--raw', 'LRANGE', 'list', '0', '1'],
  ['--no-auth-warning', 'PING'],
  // Handed to redis-cli: options it does not serve, no command at all.
  ['-n', '0', 'GET', 'counter'],
  ['--no-raw', 'LRANGE', 'list', '0', '-1'],
  ['--csv', 'HGETALL', 'hash'],
  ['-r', '2', 'INCR', 'counter'],
];

describe.skipIf(missing !== undefined)('vah-redis against redis-cli', () => {
  let redis: Awaited<ReturnType<typeof startRealRedis>>;
  const redisCli = findExecutable('redis-cli')!;
  beforeAll(async () => {
    redis = await startRealRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });

  const reset = (): void => {
    for (const command of [['FLUSHALL'], ...SETUP]) spawnSync(redisCli, ['-s', redis.socket, ...command], { stdio: 'ignore' });
  };
  const run = (command: string, args: string[], input = '') => {
    reset();
    const result = spawnSync(command, args, { input: Buffer.from(input) });
    return { status: result.status, stdout: result.stdout.toString('latin1'), stderr: result.stderr.toString('latin1') };
  };

  it.each(CASES.map((args) => [args.join(' '), args] as const))('%s', (_name, args) => {
    const expected = run(redisCli, ['-s', redis.socket, ...args]);
    const actual = run(helper!, [redisCli, redis.socket, ...args]);
    expect(actual).toEqual(expected);
  });

  it('reads stdin only where redis-cli would (-x is handed on)', () => {
    const expected = run(redisCli, ['-s', redis.socket, '-x', 'SET', 'fromstdin'], 'piped value\n');
    const actual = run(helper!, [redisCli, redis.socket, '-x', 'SET', 'fromstdin'], 'piped value\n');
    expect(actual).toEqual(expected);
  });

  it('hands a socket it cannot reach to redis-cli, whose message and status the caller gets', () => {
    const socket = `${redis.socket}.missing`;
    const expected = run(redisCli, ['-s', socket, 'PING']);
    const actual = run(helper!, [redisCli, socket, 'PING']);
    expect(actual).toEqual(expected);
    expect(actual.status).not.toBe(0);
  });

  it('carries a large value whole', () => {
    const big = 'x'.repeat(300_000);
    reset();
    // Over one argument's limit (128 KiB), so through stdin.
    spawnSync(redisCli, ['-s', redis.socket, '-x', 'SET', 'big'], { input: big });
    const result = spawnSync(helper!, [redisCli, redis.socket, 'GET', 'big'], { encoding: 'utf8', maxBuffer: 1 << 22 });
    expect(result.stdout).toBe(`${big}\n`);
  });
});
