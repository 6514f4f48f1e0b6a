import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlServer, type ControlServer } from '../../src/executor/control-server.js';
import { findExecutable } from '../../src/executor/host.js';
import { findNativeHelper } from '../../src/executor/native-helper.js';
import { toTraceValue } from '../../src/executor/redis-proxy.js';
import { asCommand, RespProtocolError, RespReplyDecoder } from '../../src/executor/redis/reply-decoder.js';
import { encodeCommand } from '../../src/executor/redis/resp.js';
import { controlShim, shellFunctions, slashCommandsIn } from '../../src/executor/shims.js';
import type { CommandOutcome } from '../../src/executor/slash-commands.js';
import { hasRedisCli, tempDir } from './helpers.js';

describe("RESP decoding on the executor's sockets", () => {
  it('reads commands split at every possible byte boundary', () => {
    const bytes = Buffer.concat([encodeCommand(['SET', 'key', 'välue\r\nwith crlf']), encodeCommand(['GET', 'key'])]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const decoder = new RespReplyDecoder({ inline: true });
      decoder.push(bytes.subarray(0, cut));
      const first = decoder.drain();
      decoder.push(bytes.subarray(cut));
      expect([...first, ...decoder.drain()].map(asCommand)).toEqual([
        ['SET', 'key', 'välue\r\nwith crlf'],
        ['GET', 'key'],
      ]);
    }
  });

  it('reads RESP2 and RESP3 replies, errors included, into trace values', () => {
    const decoder = new RespReplyDecoder();
    decoder.push(
      Buffer.from(
        '+OK\r\n-ERR wrong\r\n:42\r\n$-1\r\n*2\r\n$1\r\na\r\n:1\r\n_\r\n,3.5\r\n#t\r\n%1\r\n+k\r\n+v\r\n(123456789012345678901\r\n=7\r\ntxt:abc\r\n!3\r\nbad\r\n|1\r\n+a\r\n+b\r\n~1\r\n:2\r\n',
      ),
    );
    expect(decoder.drain().map((value) => toTraceValue(value))).toEqual([
      'OK',
      { error: 'ERR wrong' },
      42,
      null,
      ['a', 1],
      null,
      3.5,
      true,
      { map: [['k', 'v']] },
      '123456789012345678901',
      'abc',
      { error: 'bad' },
      [2],
    ]);
  });

  it('reads inline commands as a hand-written client sends them', () => {
    const decoder = new RespReplyDecoder({ inline: true });
    decoder.push(Buffer.from('PING\r\nset  a b\n'));
    expect(decoder.drain().map(asCommand)).toEqual([['PING'], ['set', 'a', 'b']]);
  });

  it('refuses oversized and malformed frames instead of buffering or crashing', () => {
    const big = new RespReplyDecoder({ maxBulkLength: 10 });
    big.push(Buffer.from('*1\r\n$11\r\n'));
    expect(() => big.drain()).toThrow(RespProtocolError);
    const bad = new RespReplyDecoder();
    bad.push(Buffer.from(':notanumber\r\n'));
    expect(() => bad.drain()).toThrow(RespProtocolError);
    const deep = new RespReplyDecoder({ maxDepth: 5 });
    deep.push(Buffer.from('*1\r\n'.repeat(10)));
    expect(() => deep.drain()).toThrow(RespProtocolError);
  });

  it('never throws anything but RespProtocolError on random bytes (seeded)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, inline) => {
        const decoder = new RespReplyDecoder({ maxBulkLength: 1000, maxElements: 1000, inline });
        decoder.push(Buffer.from(bytes));
        try {
          decoder.drain();
        } catch (error) {
          if (!(error instanceof RespProtocolError)) throw error;
        }
      }),
      { seed: 5, numRuns: 2000 },
    );
  });
});

describe('slash command discovery', () => {
  it('finds /name commands in command position and ignores paths', () => {
    const script = [
      '/performance analyze --x',
      'X=$(/neural predict)',
      'true && /fleet scale; /hooks post-edit "f"',
      'cat /etc/passwd /tmp/x.json',
      'ls /usr/bin',
      'echo "/not-a-command here"',
      'node /workspace/x.js',
      '/sqlite-memory store',
    ].join('\n');
    expect(slashCommandsIn(script)).toEqual(['fleet', 'hooks', 'neural', 'not-a-command', 'performance']);
  });
});

// The same call two ways, the script at /NAME (for exec, env, xargs) and the bash function BASH_ENV
// defines, each with the two clients: the one-process helper (src/executor/native/vah-redis.c, its
// --call form) and, where the build made none, redis-cli with the reply split by the shell.
const helper = findNativeHelper('vah-redis');
const clientMissing = {
  'redis-cli': hasRedisCli ? undefined : 'redis-cli is not installed',
  helper: helper ? undefined : 'the build made no dist/libexec/vah-redis (no C compiler)',
};
for (const [client, missing] of Object.entries(clientMissing))
  if (missing) console.warn(`protocol.test.ts: the control shim with ${client}: skipped: ${missing}.`);
const SHIM_CASES = (['script', 'function'] as const).flatMap((caller) =>
  (['redis-cli', 'helper'] as const).map((client) => [caller, client] as const),
);
describe.each(SHIM_CASES)('control shim over the control socket (%s, %s)', (caller, client) => {
  if (clientMissing[client]) {
    it.skip(clientMissing[client], () => undefined);
    return;
  }
  const clientOptions = {
    redisCli: findExecutable('redis-cli') ?? '/usr/bin/redis-cli',
    ...(client === 'helper' ? { redisHelper: helper! } : {}),
  };
  const { dir, remove } = tempDir('vah-shim-');
  let server: ControlServer;
  let next: CommandOutcome = { exitCode: 0, stdout: '', stderr: '' };
  const received: Array<{ command: string; args: string[] }> = [];
  const shim = join(dir, 'sqlite-memory');

  beforeAll(async () => {
    server = await startControlServer(join(dir, 'control.sock'), (command, args) => {
      received.push({ command, args });
      return Promise.resolve(next);
    });
    writeFileSync(shim, controlShim({ commandName: 'sqlite-memory', ...clientOptions, controlSocket: server.socketPath }), { mode: 0o755 });
    writeFileSync(
      join(dir, 'functions.bash'),
      shellFunctions({
        ...clientOptions,
        redisSocket: join(dir, 'redis.sock'),
        controlSocket: server.socketPath,
        commands: ['sqlite-memory'],
      }),
    );
    writeFileSync(
      join(dir, 'orphan.bash'),
      shellFunctions({
        ...clientOptions,
        redisSocket: join(dir, 'redis.sock'),
        controlSocket: join(dir, 'missing.sock'),
        commands: ['eventbus'],
      }),
    );
  });
  afterAll(async () => {
    await server.close();
    remove();
  });

  // Not spawnSync: the control server answers from this very event loop.
  const call = (args: string[], file = shim, prefix = '') =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const functions = file === shim ? 'functions.bash' : 'orphan.bash';
      const name = file === shim ? 'sqlite-memory' : 'eventbus';
      const child =
        caller === 'script'
          ? spawn('bash', [file, ...args])
          : spawn('bash', ['-c', `${prefix}/${name} "$@"`, 'hook', ...args], { env: { ...process.env, BASH_ENV: join(dir, functions) } });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
      });
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
      });
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });

  it.each<[string, CommandOutcome]>([
    ['a value with a trailing newline', { exitCode: 0, stdout: '{"a":1}\n', stderr: '' }],
    ['no trailing newline and several blank lines', { exitCode: 0, stdout: 'x\n\n\n', stderr: '' }],
    ['an empty reply with a status', { exitCode: 1, stdout: '', stderr: 'sqlite-memory: no entry\n' }],
    ['the separator byte inside the value', { exitCode: 0, stdout: 'a\x1fb\x1fc', stderr: '' }],
    ['unicode and a leading dash', { exitCode: 3, stdout: '-n ✓ émoji 🎉\n', stderr: 'warn ✓\n' }],
    ['a value larger than a pipe holds', { exitCode: 0, stdout: `${'x'.repeat(300_000)}\n`, stderr: '' }],
    ['the highest status and both streams', { exitCode: 255, stdout: 'out\n', stderr: 'err\n\n' }],
  ])('carries stdout, stderr and the exit status exactly: %s', async (_name, outcome) => {
    next = outcome;
    const result = await call(['retrieve', '--key', 'k']);
    expect({ exitCode: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual(outcome);
  });

  it('passes arguments through untouched, quotes and newlines included', async () => {
    next = { exitCode: 0, stdout: '', stderr: '' };
    received.length = 0;
    const args = ['store', '--key', 'a b', '--data', '{"x":"it\'s\nmultiline"}', '--', '-x', ''];
    expect((await call(args)).status).toBe(0);
    expect(received).toEqual([{ command: 'sqlite-memory', args }]);
  });

  it.skipIf(caller === 'function')('one script serves every command, named by the symlink it is called through', async () => {
    next = { exitCode: 0, stdout: 'ok\n', stderr: '' };
    received.length = 0;
    mkdirSync(join(dir, 'slash'), { recursive: true });
    const generic = join(dir, 'slash', 'command');
    writeFileSync(generic, controlShim({ ...clientOptions, controlSocket: server.socketPath }), { mode: 0o755 });
    symlinkSync(generic, join(dir, 'fleet'));
    const fleet = await new Promise<number | null>((resolve) => spawn(join(dir, 'fleet'), ['status', 'a b']).on('close', resolve));
    expect(fleet).toBe(0);
    expect(received).toEqual([{ command: 'fleet', args: ['status', 'a b'] }]);
  });

  it('fails with status 70 and says so when the executor does not answer', async () => {
    const orphan = join(dir, 'orphan');
    writeFileSync(orphan, controlShim({ commandName: 'eventbus', ...clientOptions, controlSocket: join(dir, 'missing.sock') }), {
      mode: 0o755,
    });
    const result = await call(['publish'], orphan);
    expect(result.status).toBe(70);
    expect(result.stderr).toContain('/eventbus: the executor did not answer');
  });

  it.skipIf(caller === 'script')("keeps the caller's set -x, -e and -u out of its own lines, and gives them back", async () => {
    next = { exitCode: 0, stdout: 'value\n', stderr: '' };
    const result = await call(['retrieve', '--key', 'k'], shim, 'set -xeu; ');
    expect(result.stdout).toBe('value\n');
    // Only the caller's line is traced, as for a program; not the function's inner lines.
    expect(result.stderr.trim().split('\n')).toEqual(['+ /sqlite-memory retrieve --key k']);
    next = { exitCode: 4, stdout: '', stderr: '' };
    const failed = await call(['retrieve'], shim, 'set -e; ');
    expect(failed.status).toBe(4);
  });
});

describe.skipIf(!hasRedisCli || !findExecutable('strace'))('a slash command or redis-cli call in a hook', () => {
  it.each([
    ['the real redis-cli', undefined],
    ['the helper', helper],
  ])('runs one process (%s), not a shim script and a subshell', (_client, redisHelper) => {
    if (redisHelper === undefined && _client === 'the helper') return;
    const { dir, remove } = tempDir('vah-fn-');
    try {
      const functions = join(dir, 'functions.bash');
      writeFileSync(
        functions,
        shellFunctions({
          ...(redisHelper ? { redisHelper } : {}),
          redisCli: findExecutable('redis-cli')!,
          redisSocket: join(dir, 'none.sock'),
          controlSocket: join(dir, 'none.sock'),
          commands: ['sqlite-memory'],
        }),
      );
      const execs = (script: string): string[] => {
        const traced = spawnSync('strace', ['-f', '-qq', '-e', 'trace=execve', '-e', 'signal=none', 'bash', '-c', script], {
          env: { ...process.env, BASH_ENV: functions },
          encoding: 'utf8',
        });
        return traced.stderr.split('\n').filter((line) => line.includes('execve(') && !line.includes('ENOENT'));
      };
      const baseline = execs(':').length;
      expect(execs('/sqlite-memory store --key k').length - baseline).toBe(1);
      // The helper hands a socket it cannot reach (this one) to redis-cli, so only redis-cli itself is counted here.
      if (!redisHelper) expect(execs('redis-cli PING').length - baseline).toBe(1);
    } finally {
      remove();
    }
  });
});
