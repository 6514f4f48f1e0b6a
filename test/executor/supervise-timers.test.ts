import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { superviseProcess } from '../../src/executor/execute.js';
import { captureStream } from '../../src/executor/process-observers.js';
import type { ProcessRunner, SpawnedProcess } from '../../src/executor/process-runner.js';
import { DEFAULT_LIMITS } from '../../src/executor/sandbox.js';

// A CLI `run` exits when its event loop is empty: a timer the supervisor leaves
// behind after a run holds the finished command open until the timer fires.
// These tests count the timers that keep a process alive (ref'd ones).
const liveTimers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the supervisor leaves no timer behind', () => {
  it('a stream that ends during its grace period takes its grace timer with it', async () => {
    const stream = new PassThrough();
    const captured = captureStream(stream, DEFAULT_LIMITS, () => undefined);
    const before = liveTimers();
    const finished = captured.finished(60_000);
    stream.end('done\n');
    await finished;
    expect(liveTimers()).toBe(before);
    expect(captured.text()).toBe('done\n');
  });

  it('output and a start marker that arrive after the process exited arm nothing', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const startPipe = new PassThrough();
    const child: SpawnedProcess = {
      pid: undefined,
      stdout,
      stderr,
      extra: [startPipe],
      kill: () => undefined,
      // The process is gone at once; its pipes end a little later, as they can under load.
      exited: Promise.resolve({ code: 0, signal: null }),
      started: Promise.resolve(),
    };
    const runner: ProcessRunner = { spawn: () => child };
    const before = liveTimers();
    void later(5).then(() => startPipe.end());
    // After the supervisor's look for survivors (20 ms), inside its stream grace (200 ms).
    void later(60).then(() => {
      stdout.end('late\n');
      stderr.end();
    });
    const outcome = await superviseProcess({
      runner,
      clock: { now: () => performance.now() },
      request: { command: '/bin/true', args: [], env: {}, cwd: '/', extraPipes: 1 },
      timeoutMs: 30_000,
      limits: DEFAULT_LIMITS,
      containment: { kind: 'environment-marker', marker: `VAH_TEST_MARKER=${process.pid}-none` },
      startPipe: 0,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe('late\n');
    await later(0);
    expect(liveTimers()).toBe(before);
  });
});
