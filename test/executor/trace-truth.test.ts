/**
 * The trace must not lie (issue 16, point 3). Three tricks that made the old
 * byte-observing proxy lose track — a frame over 1 MiB, inline commands with
 * quotes, one request with several replies — replayed on one connection each;
 * the trace, now taken from the fake's own dispatch, must show each command
 * with its own reply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutorSession, type ExecutorSession } from '../../src/executor/session.js';
import type { RedisOperation } from '../../src/executor/trace.js';
import { hookScript, needsSandbox, sandboxMissing } from './helpers.js';

function redisOps(operations: readonly { kind: string }[]): RedisOperation[] {
  return operations.filter((op): op is RedisOperation => op.kind === 'redis');
}

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('the trace of the embedded Redis'), () => {
  let session: ExecutorSession;
  beforeAll(async () => {
    session = await createExecutorSession({ timeoutMs: 8000 });
  });
  afterAll(() => session.close());

  it('a SET and a DEL after a frame over 1 MiB, on the same connection, are in the trace', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          "{ printf '*3\\r\\n$3\\r\\nSET\\r\\n$3\\r\\nbig\\r\\n$2000000\\r\\n'; head -c 2000000 /dev/zero | tr '\\0' x; printf '\\r\\n';",
          "  printf '*3\\r\\n$3\\r\\nSET\\r\\n$5\\r\\nafter\\r\\n$1\\r\\n1\\r\\n'; printf '*2\\r\\n$3\\r\\nDEL\\r\\n$5\\r\\nafter\\r\\n'; } | redis-cli --pipe > /dev/null",
        ].join('\n'),
      ),
    );
    const ops = redisOps(result.operations).filter((op) => op.command[0] !== 'ECHO');
    expect(ops.map((op) => [op.command, op.reply])).toEqual([
      [['SET', 'big', '(2000000 bytes, not shown)'], 'OK'],
      [['SET', 'after', '1'], 'OK'],
      [['DEL', 'after'], 1],
    ]);
  });

  it('inline commands are traced as the server read them (quotes and all)', async () => {
    const result = await session.runHook(
      hookScript('pre', `printf 'SET "two words" "a\\\\x41b"\\r\\nGET "two words"\\r\\n' | redis-cli --pipe > /dev/null`),
    );
    const ops = redisOps(result.operations).filter((op) => op.command[0] !== 'ECHO');
    expect(ops.map((op) => [op.command, op.reply])).toEqual([
      [['SET', 'two words', 'aAb'], 'OK'],
      [['GET', 'two words'], 'aAb'],
    ]);
  });

  it('SUBSCRIBE a b c takes its three replies, and the next command gets its own', async () => {
    const result = await session.runHook(
      hookScript('pre', `printf 'SUBSCRIBE a b c\\r\\nPING\\r\\n' | timeout 1 redis-cli --pipe > /dev/null; redis-cli SET later 1`),
    );
    const ops = redisOps(result.operations).filter((op) => op.command[0] !== 'ECHO');
    expect(ops.map((op) => [op.command, op.reply])).toEqual([
      [
        ['SUBSCRIBE', 'a', 'b', 'c'],
        [
          ['subscribe', 'a', 1],
          ['subscribe', 'b', 2],
          ['subscribe', 'c', 3],
        ],
      ],
      [['PING'], ['pong', '']],
      [['SET', 'later', '1'], 'OK'],
    ]);
  });

  it('limitsHit and signal do not come from what the hook prints', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          'echo "CPU time limit exceeded" >&2',
          'echo "bash: fork: retry: Resource temporarily unavailable" >&2',
          'echo "File size limit exceeded" >&2; echo "Too many open files" >&2',
          'echo "Cannot allocate memory" >&2; echo "No space left on device" >&2',
          'exit 152',
        ].join('\n'),
      ),
    );
    expect(result.exitCode).toBe(152);
    expect(result.limitsHit).toEqual([]);
    expect(result.signal).toBeNull();
  });

  it('a file written to exactly the file-size limit and exit 153 claim neither file-size nor SIGXFSZ', async () => {
    const limited = await createExecutorSession({ timeoutMs: 5000, limits: { fileSizeBytes: 8 * 1024 * 1024 } });
    try {
      const result = await limited.runHook(hookScript('pre', 'head -c 8M /dev/zero > /tmp/f; echo rc=$?; exit 153'));
      expect(result.stdout).toBe('rc=0\n');
      expect(result.exitCode).toBe(153);
      expect(result.signal).toBeNull();
      expect(result.limitsHit).toEqual([]);
      expect(result.sandbox.warnings.join('\n')).toMatch(/exited 153 .*the cause of 153 is unconfirmed/);
    } finally {
      await limited.close();
    }
  });

  it('125 sleeping children hold the process slots without a refused fork: processes is not claimed', async () => {
    const result = await session.runHook(hookScript('pre', 'for i in $(seq 125); do sleep 2 & done; wait'));
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.limitsHit).toEqual([]);
  });
});
