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

function cgroup(entered: number[], refuse: boolean): RunCgroup {
  return {
    version: 2,
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

function options(runner: ProcessRunner, group: RunCgroup, stdin?: string): SuperviseOptions {
  return {
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
