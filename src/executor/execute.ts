import { statfs } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { isRunning, killProcess, pidNamespaceOf, processesInPidNamespace, processesWithEnvironmentMarker } from './host.js';
import type { Clock, ProcessExit, ProcessRunner, SpawnedProcess, SpawnRequest } from './process-runner.js';
import type { RunCgroup } from './cgroup.js';
import { fileAtSizeLimit, sampleProcessPeak } from './observe.js';
import { closeInheritedFds, type SandboxLimits } from './sandbox.js';
import { shellQuote } from './shims.js';

/**
 * Runs one prepared process (bwrap, or bash itself with --no-sandbox) to its
 * end: captures capped output, enforces the timeout and the disk budget,
 * works out which limits the hook ran into, and makes sure nothing it started
 * is still running afterwards.
 */

export type LimitName = 'cpu' | 'file-size' | 'processes' | 'open-files' | 'memory' | 'output' | 'disk';

export interface ExecutionOutcome {
  /** The hook's exit status; `null` when it was killed (timeout, output or disk limit). */
  exitCode: number | null;
  /** The signal that ended the hook's shell, when one did (from the 128+N convention). */
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Bytes the hook wrote to each stream, including what was dropped over the cap. */
  stdoutBytes: number;
  stderrBytes: number;
  limitsHit: LimitName[];
  /** The sandbox's PID namespace and its init's host PID, for anyone who wants to check by PID. */
  pidNamespace?: string;
  initPid?: number;
  /** Host PIDs that were still running after the hook ended and had to be killed. */
  survivors: number[];
  /** Set when the process could not be started at all. */
  startError?: string;
  /** Clock time at which the hook's own process started (the start marker, or the spawn without one). */
  processStartedAt?: number;
}

export interface SuperviseOptions {
  runner: ProcessRunner;
  clock: Clock;
  request: SpawnRequest;
  timeoutMs: number;
  limits: SandboxLimits;
  /** Host path whose free space is polled against the disk budget (only where no size-limited file system holds it). */
  diskWatchPath?: string;
  /** Whether the size-limited file system that holds the disk budget is full (asked once the hook has ended). */
  diskFull?: () => Promise<boolean>;
  /** `bwrap`: the PID namespace is the handle on every process; `marker`: an environment marker is the only one. */
  containment: { kind: 'pid-namespace'; infoPipe: number } | { kind: 'environment-marker'; marker: string };
  /**
   * Puts the process into a memory-limited control group before it starts
   * anything: the command waits at a gate (`read` on its stdin) until this
   * resolves, so no child can be forked outside the group.
   */
  cgroup?: RunCgroup;
  /** Kills the process when it fires (the executor is being interrupted). */
  abortSignal?: AbortSignal;
  /** Host directories the hook can write, searched for a file stopped at the file-size limit. */
  writableRoots?: readonly string[];
  /** Files the command finds open at these descriptors (bwrap's `--seccomp FD`). */
  openFiles?: ReadonlyArray<{ fd: number; path: string }>;
  /** Written to the process's standard input, which is then closed (Claude Code hands each hook its event this way). */
  stdin?: string;
  /**
   * Index in the process's extra pipes of the start marker (see sandbox.ts
   * `startMarker`): the time budget starts when the hook's own process does,
   * so sandbox set-up under load is never charged to the hook.
   */
  startPipe?: number;
  /** How long set-up may take before the start marker (default 60 s); past it the run is abandoned as not started. */
  setupTimeoutMs?: number;
  /** Milliseconds the host has spent serving this run so far (its slash commands); not charged to the hook's budget. */
  hostBusyMs?: () => number;
  /**
   * Wall-clock ceiling from the process start, whatever the host's share
   * (default 4 × timeoutMs): a hook that keeps the host busy cannot run for ever.
   */
  wallCeilingMs?: number;
  /** Bytes the sandbox's own writable places hold now; the disk budget is checked on its growth (instead of `diskWatchPath`). */
  diskUsage?: () => Promise<number | undefined>;
  /** Called once when the hook's own process has started. */
  onProcessStart?: () => void;
}

const SIGNALS_BY_NUMBER: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  15: 'SIGTERM',
  24: 'SIGXCPU',
  25: 'SIGXFSZ',
};

const DISK_POLL_MS = 100;
const PROCESS_SAMPLE_MS = 100;
/** Without a control group each sample scans /proc; less often, then. */
const PROCESS_SCAN_MS = 250;
/** CPU a process may burn between the sampler's last look and the kernel's signal. */
const CPU_SAMPLE_SLACK_S = 0.35;
/** bwrap and its init count against the process limit too, outside the namespace the sampler counts. */
const PROCESS_MARGIN = 3;
const SURVIVOR_GRACE_MS = 1000;
const STREAM_GRACE_MS = 200;

export async function superviseProcess(options: SuperviseOptions): Promise<ExecutionOutcome> {
  const { clock, limits } = options;
  const startedAt = clock.now();
  let child: SpawnedProcess;
  // A trampoline: descriptors this process inherited (and Node passes on) are closed before bwrap
  // starts, all but the pipes given on purpose; with a cgroup it also waits at the gate.
  const kept = Array.from({ length: options.request.extraPipes ?? 0 }, (_, index) => 3 + index);
  const request: SpawnRequest = {
    ...options.request,
    command: '/bin/bash',
    args: [
      '-c',
      `${options.cgroup ? 'read -r _ || :; ' : ''}${closeInheritedFds(kept)}; ` +
        `${(options.openFiles ?? []).map(({ fd, path }) => `exec ${fd}<${shellQuote(path)} || exit 125; `).join('')}exec "$0" "$@"`,
      options.request.command,
      ...options.request.args,
    ],
    ...(options.cgroup || options.stdin !== undefined ? { stdinPipe: true } : {}),
  };
  try {
    child = options.runner.spawn(request);
  } catch (error) {
    // Node refuses arguments with NUL bytes synchronously; a YAML "\0" escape can put one in a script.
    return emptyOutcome(`could not start ${options.request.command}: ${(error as Error).message}`, clock.now() - startedAt);
  }
  const limitsHit = new Set<LimitName>();
  let timedOut = false;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    child.kill('SIGKILL');
  };

  if (options.abortSignal?.aborted) stop();
  options.abortSignal?.addEventListener('abort', stop, { once: true });

  const stdout = captureStream(child.stdout, limits, () => {
    limitsHit.add('output');
    stop();
  });
  const stderr = captureStream(child.stderr, limits, () => {
    limitsHit.add('output');
    stop();
  });

  try {
    await child.started;
  } catch (error) {
    return emptyOutcome(`could not start ${options.request.command}: ${(error as Error).message}`, clock.now() - startedAt);
  }
  if (options.cgroup) {
    const entered =
      child.pid !== undefined &&
      (await options.cgroup.enter(child.pid).then(
        () => true,
        () => false,
      ));
    if (!entered) {
      child.kill('SIGKILL');
      await child.exited;
      return emptyOutcome(`could not move the sandbox into its control group ${options.cgroup.path}`, clock.now() - startedAt);
    }
    // sh's `read` takes one byte at a time from a pipe, so what follows the gate's newline is the hook's.
    child.stdin?.end(`\n${options.stdin ?? ''}`);
  } else if (options.stdin !== undefined) {
    child.stdin?.end(options.stdin);
  }

  const init = options.containment.kind === 'pid-namespace' ? readInitPid(child.extra[0]) : Promise.resolve(undefined);
  const cgroup = options.cgroup;
  const processes = sampleProcessPeak(init, cgroup ? PROCESS_SAMPLE_MS : PROCESS_SCAN_MS, cgroup ? () => cgroup.processes() : undefined);
  // The budget runs from the hook's process start, less the host's time serving it.
  let processStartedAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const setup = { expired: false };
  const hostBusy = options.hostBusyMs ?? (() => 0);
  const armBudget = (): void => {
    if (processStartedAt !== undefined) return;
    processStartedAt = clock.now();
    options.onProcessStart?.();
    const ceiling = options.wallCeilingMs ?? options.timeoutMs * 4;
    const check = (): void => {
      const wall = clock.now() - processStartedAt!;
      const remaining = Math.min(options.timeoutMs - (wall - hostBusy()), ceiling - wall);
      if (remaining > 0) {
        timer = setTimeout(check, Math.max(1, remaining));
        return;
      }
      timedOut = true;
      stop();
    };
    timer = setTimeout(check, options.timeoutMs);
  };
  const startPipe = options.startPipe !== undefined ? child.extra[options.startPipe] : undefined;
  if (startPipe) {
    timer = setTimeout(() => {
      if (processStartedAt !== undefined) return;
      setup.expired = true;
      stop();
    }, options.setupTimeoutMs ?? 60_000);
    const setupTimer = timer;
    const started = (): void => {
      if (timer === setupTimer) clearTimeout(setupTimer);
      armBudget();
    };
    startPipe.once('data', started);
    // A prelude that failed (exit 125) never writes the marker; its end still starts the (short) run.
    startPipe.once('end', started);
    startPipe.once('error', started);
    startPipe.resume();
  } else {
    armBudget();
  }
  const diskWatch = options.diskUsage
    ? watchUsage(options.diskUsage, limits.diskBytes, () => {
        limitsHit.add('disk');
        stop();
      })
    : options.diskWatchPath
      ? watchDisk(options.diskWatchPath, limits.diskBytes, () => {
          limitsHit.add('disk');
          stop();
        })
      : undefined;

  const exit: ProcessExit = await child.exited;
  const endedAt = clock.now();
  clearTimeout(timer);
  processes.stop();
  options.abortSignal?.removeEventListener('abort', stop);
  diskWatch?.stop();
  if (setup.expired) {
    await init;
    return emptyOutcome(`the sandbox was not set up within ${options.setupTimeoutMs ?? 60_000} ms`, endedAt - startedAt);
  }
  if (processStartedAt === undefined) processStartedAt = endedAt;
  const durationMs = Math.max(0, endedAt - processStartedAt - hostBusy());

  const namespace = await init;
  const survivors =
    options.containment.kind === 'pid-namespace' ? await reapNamespace(namespace) : await reapMarked(options.containment.marker);
  await Promise.all([stdout.finished(STREAM_GRACE_MS), stderr.finished(STREAM_GRACE_MS)]);
  if (stdout.bytes() > limits.outputBytes || stderr.bytes() > limits.outputBytes) limitsHit.add('output');

  const stderrText = stderr.text();
  if (await options.cgroup?.oomKilled()) limitsHit.add('memory');
  if (await options.diskFull?.()) limitsHit.add('disk');
  if (processes.peak() >= limits.processes - PROCESS_MARGIN) limitsHit.add('processes');
  const atFileLimit = options.writableRoots ? await fileAtSizeLimit(options.writableRoots, limits.fileSizeBytes) : false;
  if (atFileLimit) limitsHit.add('file-size');
  const { exitCode, signal: claimed } = interpretExit(exit, stopped);
  // A status of 128+N is only a number the hook's shell returned; it counts as the signal when the supervisor saw its cause.
  let signal: string | null = exit.signal ? claimed : null;
  if (claimed === 'SIGXCPU' && processes.cpuPeakSeconds() >= limits.cpuSeconds - CPU_SAMPLE_SLACK_S) {
    signal = 'SIGXCPU';
    limitsHit.add('cpu');
  }
  if (claimed === 'SIGXFSZ' && atFileLimit) signal = 'SIGXFSZ';

  return {
    exitCode,
    signal,
    timedOut,
    durationMs,
    stdout: stdout.text(),
    stderr: stderrText,
    stdoutBytes: stdout.bytes(),
    stderrBytes: stderr.bytes(),
    limitsHit: [...limitsHit].sort(),
    ...(namespace ? { pidNamespace: namespace.namespace, initPid: namespace.pid } : {}),
    survivors,
    processStartedAt,
  };
}

function emptyOutcome(startError: string, durationMs: number): ExecutionOutcome {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs,
    stdout: '',
    stderr: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    limitsHit: [],
    survivors: [],
    startError,
  };
}

/**
 * bwrap and bash both report a child killed by signal N as status 128+N;
 * the host killing the process itself shows as a signal on the exit.
 */
function interpretExit(exit: ProcessExit, stoppedByHost: boolean): { exitCode: number | null; signal: string | null } {
  if (exit.signal) return { exitCode: null, signal: stoppedByHost ? null : exit.signal };
  if (exit.code === null) return { exitCode: null, signal: null };
  if (exit.code > 128 && exit.code < 128 + 65) {
    return { exitCode: exit.code, signal: SIGNALS_BY_NUMBER[exit.code - 128] ?? `signal ${exit.code - 128}` };
  }
  return { exitCode: exit.code, signal: null };
}

interface CapturedStream {
  text(): string;
  bytes(): number;
  finished(graceMs: number): Promise<void>;
}

function captureStream(stream: Readable, limits: SandboxLimits, onRunaway: () => void): CapturedStream {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  let ended = false;
  const done = new Promise<void>((resolve) => {
    stream.once('end', () => {
      ended = true;
      resolve();
    });
    stream.once('close', () => {
      ended = true;
      resolve();
    });
    stream.once('error', () => {
      ended = true;
      resolve();
    });
  });
  stream.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (kept < limits.outputBytes) {
      const slice = chunk.subarray(0, limits.outputBytes - kept);
      chunks.push(slice);
      kept += slice.length;
    }
    if (total > limits.outputKillBytes) onRunaway();
  });
  return {
    text: () => Buffer.concat(chunks).toString('utf8'),
    bytes: () => total,
    finished: async (graceMs) => {
      if (ended) return;
      // Without a PID namespace a surviving grandchild can hold the pipe open forever.
      await Promise.race([done, delay(graceMs)]);
      stream.destroy();
    },
  };
}

/**
 * bwrap writes its child's PID first and the namespaces after; the pipe must
 * be read to its end, or bwrap dies of SIGPIPE halfway through starting.
 */
function readInitPid(info: Readable | undefined): Promise<{ pid: number; namespace: string } | undefined> {
  if (!info) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let text = '';
    let found = false;
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      if (found) return;
      text += chunk;
      const match = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (!match) return;
      found = true;
      const pid = Number(match[1]);
      const namespace = pidNamespaceOf(pid);
      resolve(namespace ? { pid, namespace } : undefined);
    });
    info.once('end', () => resolve(undefined));
    info.once('close', () => resolve(undefined));
    info.once('error', () => resolve(undefined));
  });
}

/**
 * The namespace dies with its init, and init dies with bwrap; this waits for
 * that to finish, and should anything still run after the grace period,
 * kills it and reports it (which would be a sandbox bug worth seeing).
 */
async function reapNamespace(init: { pid: number; namespace: string } | undefined): Promise<number[]> {
  if (!init) return [];
  const deadline = performance.now() + SURVIVOR_GRACE_MS;
  while (performance.now() < deadline) {
    if (!isRunning(init.pid) || pidNamespaceOf(init.pid) !== init.namespace) return [];
    await delay(2);
  }
  const survivors = processesInPidNamespace(init.namespace);
  for (const pid of survivors) killProcess(pid);
  return survivors;
}

/** Best effort for --no-sandbox: whatever still carries the run's marker in its environment. */
async function reapMarked(marker: string): Promise<number[]> {
  await delay(20);
  const survivors = processesWithEnvironmentMarker(marker);
  for (const pid of survivors) killProcess(pid);
  return survivors;
}

function watchDisk(path: string, budgetBytes: number, onExceeded: () => void): { stop(): void } {
  let baseline: number | undefined;
  let active = true;
  const free = async (): Promise<number | undefined> => {
    try {
      const stats = await statfs(path);
      return stats.bavail * stats.bsize;
    } catch {
      return undefined;
    }
  };
  void free().then((bytes) => {
    baseline = bytes;
  });
  const interval = setInterval(() => {
    void free().then((bytes) => {
      if (!active || baseline === undefined || bytes === undefined) return;
      if (baseline - bytes > budgetBytes) {
        active = false;
        onExceeded();
      }
    });
  }, DISK_POLL_MS);
  interval.unref();
  return {
    stop: () => {
      active = false;
      clearInterval(interval);
    },
  };
}

/** The disk budget on the sandbox's own usage (its writable places), never the host file system's free space. */
function watchUsage(usage: () => Promise<number | undefined>, budgetBytes: number, onExceeded: () => void): { stop(): void } {
  let baseline: number | undefined;
  let active = true;
  let busy = false;
  void usage().then((bytes) => {
    baseline = bytes;
  });
  const interval = setInterval(() => {
    if (busy) return;
    busy = true;
    void usage()
      .then((bytes) => {
        if (!active || baseline === undefined || bytes === undefined) return;
        if (bytes - baseline > budgetBytes) {
          active = false;
          onExceeded();
        }
      })
      .finally(() => {
        busy = false;
      });
  }, DISK_POLL_MS);
  interval.unref();
  return {
    stop: () => {
      active = false;
      clearInterval(interval);
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
