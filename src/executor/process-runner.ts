import { spawn } from 'node:child_process';
import type { Duplex, Readable, Writable } from 'node:stream';

/**
 * The executor's only door to process creation, so tests can watch what
 * would be started without starting it, and the sandbox runner stays a
 * plain function of its inputs.
 */
export interface SpawnRequest {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  /** Host user and group to run as (only honoured when the executor is root). */
  uid?: number;
  gid?: number;
  /** Extra readable pipes after stdout/stderr, e.g. bwrap's `--info-fd 3`. */
  extraPipes?: number;
  /** Start a new process group, so the no-sandbox mode can kill what it started. */
  detached?: boolean;
  /** A pipe for standard input instead of /dev/null (the hook still sees end-of-file once it is closed). */
  stdinPipe?: boolean;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnedProcess {
  pid: number | undefined;
  stdin?: Writable;
  stdout: Readable;
  stderr: Readable;
  extra: Duplex[];
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the process has exited (its pipes may still hold data). */
  exited: Promise<ProcessExit>;
  /** Rejects when the process could not be started at all. */
  started: Promise<void>;
}

export interface ProcessRunner {
  spawn(request: SpawnRequest): SpawnedProcess;
}

export interface Clock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
}

/**
 * Milliseconds on a monotonic clock. process.hrtime, not performance.now():
 * the first use of `performance` loads Node's perf_hooks (~1.5 ms of a run's
 * start), and only differences of these values are ever taken.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export const systemClock: Clock = { now: monotonicMs };

export const nodeProcessRunner: ProcessRunner = {
  spawn(request) {
    const extraPipes = request.extraPipes ?? 0;
    const child = spawn(request.command, [...request.args], {
      cwd: request.cwd,
      env: request.env,
      stdio: [request.stdinPipe ? 'pipe' : 'ignore', 'pipe', 'pipe', ...Array.from({ length: extraPipes }, () => 'pipe' as const)],
      detached: request.detached ?? false,
      ...(request.uid === undefined ? {} : { uid: request.uid }),
      ...(request.gid === undefined ? {} : { gid: request.gid }),
    });
    const exited = new Promise<ProcessExit>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    const started = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
    started.catch(() => undefined);
    child.stdin?.on('error', () => undefined);
    return {
      pid: child.pid,
      ...(child.stdin ? { stdin: child.stdin } : {}),
      stdout: child.stdout!,
      stderr: child.stderr!,
      extra: child.stdio.slice(3, 3 + extraPipes) as Duplex[],
      kill: (signal) => {
        try {
          if (request.detached && child.pid !== undefined) process.kill(-child.pid, signal);
          else child.kill(signal);
        } catch {
          // Already gone.
        }
      },
      exited,
      started,
    };
  },
};
