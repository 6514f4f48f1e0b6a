import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeProcessRunner, type ProcessRunner } from '../../src/executor/process-runner.js';
import { formatRunHuman } from '../../src/executor/report.js';
import { createExecutorSession } from '../../src/executor/session.js';
import { hookScript, needsSandbox, sandboxMissing } from './helpers.js';

/**
 * The hook's budgets are the hook's own: its time starts when its process
 * does (sandbox set-up excluded) and leaves out the host's time serving its
 * slash commands; its disk budget counts what the sandbox writes, never the
 * host file system's free space.
 */
/** A Redis on a unix socket that answers PING at once and everything else 1.2 s late. */
async function slowRedis(name: string): Promise<{ socketPath: string; close(): void }> {
  const socketPath = join(tmpdir(), `vah-slow-redis-${name}-${process.pid}.sock`);
  rmSync(socketPath, { force: true });
  const server = createServer((socket) => {
    socket.on('data', (chunk) => {
      if (/PING/i.test(chunk.toString())) socket.write('+PONG\r\n');
      else setTimeout(() => socket.write('+OK\r\n'), 1200);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    close: () => {
      server.close();
      rmSync(socketPath, { force: true });
    },
  };
}

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('executor: budgets that belong to the hook'), () => {
  it('sandbox set-up is not charged to the hook: a slow start does not turn a short hook into a timeout', async () => {
    // bwrap itself starts 1.5 s late, as it would behind many other sandboxes on a loaded machine.
    const slowStart: ProcessRunner = {
      spawn: (request) =>
        nodeProcessRunner.spawn({
          ...request,
          command: '/bin/sh',
          args: ['-c', 'sleep 1.5; exec "$0" "$@"', request.command, ...request.args],
        }),
    };
    const session = await createExecutorSession({ timeoutMs: 1000, runner: slowStart });
    try {
      let startedCalls = 0;
      const result = await session.runHook(hookScript('on_blocking_start', 'sleep 0.3; echo ran'), {
        onProcessStart: () => startedCalls++,
      });
      expect(result).toMatchObject({ timedOut: false, exitCode: 0 });
      expect(result.stdout).toBe('ran\n');
      expect(startedCalls).toBe(1);
      // A hook that does overrun its own budget is still killed.
      const slow = await session.runHook(hookScript('on_blocking_start', 'sleep 3; echo never'));
      expect(slow.timedOut).toBe(true);
      expect(slow.stdout).toBe('');
    } finally {
      await session.close();
    }
  }, 30_000);

  it("the host's time serving a slash command is not charged to the hook", async () => {
    const session = await createExecutorSession({
      timeoutMs: 1000,
      // The host is slow to serve this store (a busy event loop, a slow memory store).
      onOperation: (operation) => {
        if (operation.kind !== 'memory' || operation.key !== 'slow:key') return;
        const until = performance.now() + 1500;
        while (performance.now() < until) {
          // busy: the host's own work
        }
      },
    });
    try {
      const result = await session.runHook(
        hookScript('on_blocking_start', '/sqlite-memory store --key slow:key --level agent --data 1\nsleep 0.2\necho done'),
      );
      expect(result).toMatchObject({ timedOut: false, exitCode: 0 });
      expect(result.stdout).toBe('done\n');
    } finally {
      await session.close();
    }
  }, 30_000);

  it("a slow Redis round trip is the host's time, not the hook's", async () => {
    const redis = await slowRedis('one');
    const session = await createExecutorSession({ timeoutMs: 1000, redisUrl: redis.socketPath });
    try {
      const result = await session.runHook(hookScript('on_blocking_start', 'redis-cli set k v >/dev/null\nsleep 0.2\necho done'));
      expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'done\n' });
    } finally {
      await session.close();
      redis.close();
    }
  }, 30_000);

  it('round trips served side by side are one stretch of host time: eight parallel ones do not buy eight times the budget', async () => {
    // Every SET answered 1.2 s late; the hook sends eight at once, then overruns its 2 s budget by itself.
    const redis = await slowRedis('parallel');
    const session = await createExecutorSession({ timeoutMs: 2000, redisUrl: redis.socketPath });
    try {
      const result = await session.runHook(
        hookScript(
          'on_blocking_start',
          'for i in 1 2 3 4 5 6 7 8; do redis-cli set "k$i" v >/dev/null & done\nwait\nsleep 2.5\necho finished',
        ),
      );
      expect(result.timedOut).toBe(true);
      expect(result.stdout).not.toContain('finished');
      // The report says what was left out of the budget.
      expect(formatRunHuman(result)).toMatch(
        /^Result: timed out after 2000 ms .* \(and \d+ ms the host spent serving its calls, not counted against the budget\)$/m,
      );
    } finally {
      await session.close();
      redis.close();
    }
  }, 30_000);

  it('a hook that keeps the host busy still meets a wall-clock ceiling (4 × its budget)', async () => {
    const session = await createExecutorSession({
      timeoutMs: 1000,
      onOperation: (operation) => {
        if (operation.kind !== 'memory' || operation.key !== 'slow:key') return;
        const until = performance.now() + 1500;
        while (performance.now() < until) {
          // busy
        }
      },
    });
    try {
      const result = await session.runHook(
        hookScript(
          'on_blocking_start',
          'for i in 1 2 3 4 5 6 7 8; do /sqlite-memory store --key slow:key --level agent --data 1; done\necho finished',
        ),
      );
      expect(result.timedOut).toBe(true);
      expect(result.stdout).not.toContain('finished');
    } finally {
      await session.close();
    }
  }, 60_000);

  it("the disk budget is the sandbox's own: the host filling its file system does not stop the hook, the hook filling its own does", async () => {
    const session = await createExecutorSession({ timeoutMs: 4000, limits: { diskBytes: 2 * 1024 * 1024 } });
    const hostFile = join(tmpdir(), `vah-host-fill-${process.pid}`);
    try {
      const running = session.runHook(hookScript('on_blocking_start', 'sleep 1; echo survived'));
      // Meanwhile the host (someone else) writes 16 MB on the same file system.
      setTimeout(() => writeFileSync(hostFile, Buffer.alloc(16 * 1024 * 1024, 1)), 200);
      const result = await running;
      expect(result.limitsHit).not.toContain('disk');
      expect(result).toMatchObject({ exitCode: 0, stdout: 'survived\n' });

      const filler = await session.runHook(
        hookScript(
          'on_blocking_start',
          'for i in 1 2 3 4 5 6 7 8; do head -c 1048576 /dev/zero > "fill-$i"; sleep 0.15; done; sleep 2; echo never',
        ),
      );
      expect(filler.limitsHit).toContain('disk');
      if (filler.sandbox.warnings.some((w) => /disk budget is watched/.test(w)))
        // No size-limited file system (not root): the sandbox's own bytes are counted and the hook is stopped.
        expect(filler.stdout).toBe('');
      // A size-limited tmpfs is the budget itself: the writes past it fail, whatever the host's disk holds.
      else expect(filler.stderr).toMatch(/No space left on device/);
    } finally {
      rmSync(hostFile, { force: true });
      await session.close();
    }
  }, 30_000);
});
