import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RunCgroup } from '../../src/executor/cgroup.js';
import { superviseProcess, type SuperviseOptions } from '../../src/executor/execute.js';
import type { ProcessRunner, SpawnedProcess, SpawnRequest } from '../../src/executor/process-runner.js';
import { DEFAULT_LIMITS } from '../../src/executor/sandbox.js';

// The trampoline waits at a gate (a `read` on its stdin) until the supervisor
// has moved it into the run's control group; only then may it start bwrap.
// The move is made synchronously, right after the spawn, so the trampoline
// never waits for the event loop. A fake process stands for the trampoline.

interface Seen {
  request?: SpawnRequest;
  /** What reached the trampoline's stdin, and whether the pid was in the group by then. */
  stdin: string;
  enteredBeforeStdin: boolean | undefined;
  killed: string[];
}

function fakeTrampoline(seen: Seen, entered: number[]): ProcessRunner {
  return {
    spawn(request) {
      seen.request = request;
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let exit!: (value: { code: number | null; signal: NodeJS.Signals | null }) => void;
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => (exit = resolve));
      stdin.on('data', (chunk: Buffer) => {
        seen.enteredBeforeStdin ??= entered.includes(4242);
        seen.stdin += chunk.toString();
      });
      stdin.on('finish', () => {
        stdout.end();
        stderr.end();
        exit({ code: 0, signal: null });
      });
      const child: SpawnedProcess = {
        pid: 4242,
        stdin,
        stdout,
        stderr,
        extra: [],
        kill: (signal) => {
          seen.killed.push(signal ?? 'SIGTERM');
          stdout.end();
          stderr.end();
          exit({ code: null, signal: 'SIGKILL' });
        },
        exited,
        started: Promise.resolve(),
      };
      return child;
    },
  };
}

/** A trampoline that moves itself in and exits with `code`, after writing the start marker or not. */
function selfMovingTrampoline(seen: Seen, end: { marker: boolean; code: number }): ProcessRunner {
  return {
    spawn(request) {
      seen.request = request;
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const start = new PassThrough();
      stdin.on('data', (chunk: Buffer) => (seen.stdin += chunk.toString()));
      let exit!: (value: { code: number | null; signal: NodeJS.Signals | null }) => void;
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => (exit = resolve));
      setImmediate(() => {
        if (end.marker) start.write('.');
        // The exit is seen before the marker's pipe ends, as it may be with a real process.
        exit({ code: end.code, signal: null });
        setImmediate(() => {
          start.end();
          stdout.end();
          stderr.end();
        });
      });
      return {
        pid: 4243,
        stdin,
        stdout,
        stderr,
        extra: [start],
        kill: (signal) => void seen.killed.push(signal ?? 'SIGTERM'),
        exited,
        started: Promise.resolve(),
      };
    },
  };
}

function cgroup(entered: number[], refuse: boolean, selfEntry?: string): RunCgroup {
  return {
    version: selfEntry === undefined ? 2 : 1,
    ...(selfEntry === undefined ? {} : { selfEntry }),
    path: '/sys/fs/cgroup/vah-test',
    enter: (pid) => {
      if (refuse) throw new Error('EACCES');
      entered.push(pid);
    },
    processes: () => [],
    oomKilled: () => Promise.resolve(false),
    remove: () => Promise.resolve(),
  };
}

function options(runner: ProcessRunner, group: RunCgroup, stdin?: string, startPipe?: number): SuperviseOptions {
  return {
    ...(startPipe === undefined ? {} : { startPipe }),
    runner,
    clock: { now: () => performance.now() },
    request: { command: '/usr/bin/bwrap', args: ['--', '/bin/true'], env: {}, cwd: '/' },
    timeoutMs: 30_000,
    limits: DEFAULT_LIMITS,
    containment: { kind: 'environment-marker', marker: `VAH_TEST_MARKER=${process.pid}-gate` },
    cgroup: group,
    ...(stdin === undefined ? {} : { stdin }),
  };
}

describe('the control-group gate', () => {
  it('moves the trampoline into the group before letting it go, and passes the hook its stdin after the gate line', async () => {
    const seen: Seen = { stdin: '', enteredBeforeStdin: undefined, killed: [] };
    const entered: number[] = [];
    const running = superviseProcess(options(fakeTrampoline(seen, entered), cgroup(entered, false), '{"tool":"Bash"}'));
    // Moved in the same turn as the spawn: the trampoline does not wait for the event loop.
    expect(entered).toEqual([4242]);
    const outcome = await running;
    expect(outcome.startError).toBeUndefined();
    expect(entered).toEqual([4242]);
    expect(seen.enteredBeforeStdin).toBe(true);
    expect(seen.stdin).toBe('\n{"tool":"Bash"}');
    // The trampoline's script waits at the gate before anything else, and bwrap is what it goes on to.
    expect(seen.request?.command).toBe('/bin/bash');
    expect(seen.request?.args.slice(0, 2)).toEqual(['--norc', '-c']);
    expect(seen.request?.args[2]).toMatch(/^read -r _ \|\| :; /);
    expect(seen.request?.args[3]).toBe('/usr/bin/bwrap');
    expect(seen.request?.stdinPipe).toBe(true);
    expect(seen.killed).toEqual([]);
  });

  it('kills the waiting trampoline and reports the problem when the group refuses it, without opening the gate', async () => {
    const seen: Seen = { stdin: '', enteredBeforeStdin: undefined, killed: [] };
    const entered: number[] = [];
    const outcome = await superviseProcess(options(fakeTrampoline(seen, entered), cgroup(entered, true)));
    expect(outcome.startError).toBe('could not move the sandbox into its control group /sys/fs/cgroup/vah-test');
    expect(outcome.exitCode).toBeNull();
    expect(seen.killed).toEqual(['SIGKILL']);
    expect(seen.stdin).toBe('');
  });
});

// cgroup v1: the trampoline moves itself in by writing 0 to the group's `tasks` (handed to the
// sandbox's user): a thread moving itself takes no machine-wide lock (0.1 ms on this kernel, 6.18), where a move by
// PID waits for an RCU grace period. Its failure is told from the hook's exit by the start marker.
describe('the control group entered by the trampoline itself', () => {
  const tasks = '/sys/fs/cgroup/memory/vah-test/tasks';

  it('writes 0 to the tasks file before anything else, with no gate: the hook gets its stdin as it is', async () => {
    const seen: Seen = { stdin: '', enteredBeforeStdin: undefined, killed: [] };
    const entered: number[] = [];
    const outcome = await superviseProcess(
      options(selfMovingTrampoline(seen, { marker: true, code: 0 }), cgroup(entered, false, tasks), '{"tool":"Bash"}', 0),
    );
    expect(outcome.startError).toBeUndefined();
    expect(outcome.exitCode).toBe(0);
    expect(entered).toEqual([]);
    expect(seen.request?.args[2]).toMatch(/^\{ printf 0 >\/sys\/fs\/cgroup\/memory\/vah-test\/tasks; \} 2>\/dev\/null \|\| exit 124; /);
    expect(seen.request?.args[2]).not.toContain('read -r _');
    expect(seen.stdin).toBe('{"tool":"Bash"}');
  });

  it('opens no stdin pipe when the hook is given no stdin', async () => {
    const seen: Seen = { stdin: '', enteredBeforeStdin: undefined, killed: [] };
    await superviseProcess(options(selfMovingTrampoline(seen, { marker: true, code: 0 }), cgroup([], false, tasks), undefined, 0));
    expect(seen.request?.stdinPipe).toBeUndefined();
  });

  it('reports a trampoline that could not move itself: status 124 before the start marker', async () => {
    const seen: Seen = { stdin: '', enteredBeforeStdin: undefined, killed: [] };
    const outcome = await superviseProcess(
      options(selfMovingTrampoline(seen, { marker: false, code: 124 }), cgroup([], false, tasks), undefined, 0),
    );
    expect(outcome.startError).toBe('could not move the sandbox into its control group /sys/fs/cgroup/vah-test');
    expect(outcome.exitCode).toBeNull();
  });

  it("takes a 124 after the start marker for the hook's own (`timeout`'s)", async () => {
    const seen: Seen = { stdin: '', enteredBeforeStdin: undefined, killed: [] };
    const outcome = await superviseProcess(
      options(selfMovingTrampoline(seen, { marker: true, code: 124 }), cgroup([], false, tasks), undefined, 0),
    );
    expect(outcome.startError).toBeUndefined();
    expect(outcome.exitCode).toBe(124);
  });

  it('waits at the gate as before where there is no start marker to tell the failure apart', async () => {
    const seen: Seen = { stdin: '', enteredBeforeStdin: undefined, killed: [] };
    const entered: number[] = [];
    await superviseProcess(options(fakeTrampoline(seen, entered), cgroup(entered, false, tasks)));
    expect(entered).toEqual([4242]);
    expect(seen.request?.args[2]).toMatch(/^read -r _ \|\| :; /);
  });
});
