import type { Clock, ProcessExit, ProcessRunner, SpawnedProcess, SpawnRequest } from './process-runner.js';
import type { RunCgroup } from './cgroup.js';
import { fileAtSizeLimit, sampleProcessPeak } from './observe.js';
import { captureStream, readInitPid, reapMarked, reapNamespace, watchDisk, watchUsage, type CapturedStream } from './process-observers.js';
import type { SandboxLimits } from './sandbox.js';
import { CGROUP_ENTRY_FAILED, cgroupEntryProblem, openGate, openSandboxGate, selfEntryFile, trampolineRequest } from './trampoline.js';
import { MAX_TIMER_MS, raceTimeout } from '../timers.js';

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
  /** The hook's own time: wall time from its process start, less `hostMs`. */
  durationMs: number;
  /** Time the host spent serving the hook's calls (counted once however many ran at once), left out of `durationMs`. */
  hostMs?: number;
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
  /** What the supervisor saw near a limit without being able to prove it was hit (shown as warnings). */
  notes?: string[];
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
   * anything (src/executor/trampoline.ts): the trampoline moves itself in, or
   * waits at a gate until it has been moved, so no child can be forked outside the group.
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
   * Index in the process's extra pipes of the sandbox's gate
   * (trampoline.ts `openSandboxGate`): a line is written there once `gate`
   * resolves; a rejected gate stops the process.
   */
  gatePipe?: number;
  /**
   * What the sandbox waits for at its gate, started once the process has
   * been (so the host's part overlaps bwrap's); the caller learns of its
   * failure from the promise itself.
   */
  gate?: () => Promise<unknown>;
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

const PROCESS_SAMPLE_MS = 100;
/** Without a control group each sample scans /proc; less often, then. */
const PROCESS_SCAN_MS = 250;
/** CPU a process may burn between the sampler's last look and the kernel's signal. */
const CPU_SAMPLE_SLACK_S = 0.35;
/** bwrap and its init count against the process limit too, outside the namespace the sampler counts. */
const PROCESS_MARGIN = 3;
const STREAM_GRACE_MS = 200;
const DEFAULT_SETUP_TIMEOUT_MS = 60_000;

export async function superviseProcess(options: SuperviseOptions): Promise<ExecutionOutcome> {
  const { clock, limits } = options;
  const startedAt = clock.now();
  let child: SpawnedProcess;
  try {
    child = options.runner.spawn(trampolineRequest(options));
  } catch (error) {
    // Node refuses arguments with NUL bytes synchronously; a YAML "\0" escape can put one in a script.
    return emptyOutcome(`could not start ${options.request.command}: ${(error as Error).message}`, clock.now() - startedAt);
  }
  const limitsHit = new Set<LimitName>();
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    child.kill('SIGKILL');
  };
  const stopFor = (limit: LimitName) => (): void => {
    limitsHit.add(limit);
    stop();
  };

  if (options.abortSignal?.aborted) stop();
  options.abortSignal?.addEventListener('abort', stop, { once: true });

  const streams = {
    stdout: captureStream(child.stdout, limits, stopFor('output')),
    stderr: captureStream(child.stderr, limits, stopFor('output')),
  };

  // A process that could not start has no pid: `started` says why, below.
  const gateProblem = child.pid === undefined ? undefined : openGate(child, child.pid, options);
  openSandboxGate(child, options, stop);
  try {
    await child.started;
  } catch (error) {
    options.abortSignal?.removeEventListener('abort', stop);
    return emptyOutcome(`could not start ${options.request.command}: ${(error as Error).message}`, clock.now() - startedAt);
  }
  if (gateProblem) {
    await child.exited;
    return emptyOutcome(gateProblem, clock.now() - startedAt);
  }

  const init = options.containment.kind === 'pid-namespace' ? readInitPid(child.extra[0]) : Promise.resolve(undefined);
  const cgroup = options.cgroup;
  const processes = sampleProcessPeak(init, cgroup ? PROCESS_SAMPLE_MS : PROCESS_SCAN_MS, cgroup ? () => cgroup.processes() : undefined);
  const budget = startBudget(child, options, stop);
  const diskWatch = options.diskUsage
    ? watchUsage(options.diskUsage, limits.diskBytes, stopFor('disk'))
    : options.diskWatchPath
      ? watchDisk(options.diskWatchPath, limits.diskBytes, stopFor('disk'))
      : undefined;

  const exit: ProcessExit = await child.exited;
  const endedAt = clock.now();
  budget.stop();
  processes.stop();
  options.abortSignal?.removeEventListener('abort', stop);
  diskWatch?.stop();
  const notStarted = await startProblem(options, exit, budget, init);
  if (notStarted !== undefined) return emptyOutcome(notStarted, endedAt - startedAt);
  const processStartedAt = budget.processStartedAt() ?? endedAt;
  const hostMs = Math.min(Math.max(0, endedAt - processStartedAt), options.hostBusyMs?.() ?? 0);
  const durationMs = Math.max(0, endedAt - processStartedAt - hostMs);

  const namespace = await init;
  const survivors =
    options.containment.kind === 'pid-namespace' ? await reapNamespace(namespace) : await reapMarked(options.containment.marker);
  await Promise.all([streams.stdout.finished(STREAM_GRACE_MS), streams.stderr.finished(STREAM_GRACE_MS)]);
  const judged = await judgeEnd(options, { exit, stopped, streams, processes, limitsHit });

  return {
    ...judged,
    timedOut: budget.timedOut(),
    durationMs,
    hostMs,
    stdout: streams.stdout.text(),
    stderr: streams.stderr.text(),
    stdoutBytes: streams.stdout.bytes(),
    stderrBytes: streams.stderr.bytes(),
    ...(namespace ? { pidNamespace: namespace.namespace, initPid: namespace.pid } : {}),
    survivors,
    processStartedAt,
  };
}

/** Why the hook never started, when it did not: the set-up ran out of time, or the trampoline could not enter its group. */
async function startProblem(
  options: SuperviseOptions,
  exit: ProcessExit,
  budget: Budget,
  init: Promise<unknown>,
): Promise<string | undefined> {
  if (budget.setupExpired()) {
    await init;
    return `the sandbox was not set up within ${options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS} ms`;
  }
  // The hook's own 124 (`timeout`'s) comes after the start marker; the trampoline's, before it.
  const cgroup = options.cgroup;
  if (!cgroup || selfEntryFile(options) === undefined || exit.code !== CGROUP_ENTRY_FAILED) return undefined;
  // No answer within the grace period: a pipe some stray process still holds open.
  return (await raceTimeout(budget.marked(), STREAM_GRACE_MS, false)) ? undefined : cgroupEntryProblem(cgroup.path);
}

interface Budget {
  processStartedAt(): number | undefined;
  /** Whether the start marker came (false once its pipe ended without it, or when there is none). */
  marked(): Promise<boolean>;
  setupExpired(): boolean;
  timedOut(): boolean;
  stop(): void;
}

/**
 * The time budget runs from the hook's process start (its start marker, or
 * the spawn without one), less the host's time serving it, under a
 * wall-clock ceiling; before the start marker only the set-up timeout runs.
 */
function startBudget(child: SpawnedProcess, options: SuperviseOptions, stop: () => void): Budget {
  const { clock } = options;
  let processStartedAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let setupExpired = false;
  let timedOut = false;
  const hostBusy = options.hostBusyMs ?? (() => 0);
  let over = false;
  const armBudget = (): void => {
    // A start marker that arrives after the end arms nothing (a timer then would hold the CLI open).
    if (processStartedAt !== undefined || over) return;
    const started = clock.now();
    processStartedAt = started;
    options.onProcessStart?.();
    const ceiling = options.wallCeilingMs ?? options.timeoutMs * 4;
    const check = (): void => {
      const wall = clock.now() - started;
      const remaining = Math.min(options.timeoutMs - (wall - hostBusy()), ceiling - wall);
      if (remaining > 0) {
        // Past setTimeout's 24.8 days a timer fires at once; the check re-arms for what is left (src/timers.ts).
        timer = setTimeout(check, Math.min(MAX_TIMER_MS, Math.max(1, remaining)));
        return;
      }
      timedOut = true;
      stop();
    };
    timer = setTimeout(check, Math.min(MAX_TIMER_MS, options.timeoutMs));
  };
  const startPipe = options.startPipe !== undefined ? child.extra[options.startPipe] : undefined;
  let marked = Promise.resolve(false);
  if (startPipe) {
    marked = new Promise<boolean>((resolve) => {
      startPipe.once('data', () => resolve(true));
      startPipe.once('end', () => resolve(false));
      startPipe.once('error', () => resolve(false));
    });
    const setupTimer = setTimeout(() => {
      if (processStartedAt !== undefined) return;
      setupExpired = true;
      stop();
    }, options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS);
    timer = setupTimer;
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
  return {
    processStartedAt: () => processStartedAt,
    marked: () => marked,
    setupExpired: () => setupExpired,
    timedOut: () => timedOut,
    stop: () => {
      over = true;
      clearTimeout(timer);
    },
  };
}

/** The limits the hook ran into and how its exit reads, once it has ended. */
async function judgeEnd(
  options: SuperviseOptions,
  end: {
    exit: ProcessExit;
    stopped: boolean;
    streams: { stdout: CapturedStream; stderr: CapturedStream };
    processes: ReturnType<typeof sampleProcessPeak>;
    limitsHit: Set<LimitName>;
  },
): Promise<Pick<ExecutionOutcome, 'exitCode' | 'signal' | 'limitsHit' | 'notes'>> {
  const { limits } = options;
  const { limitsHit, processes } = end;
  const notes: string[] = [];
  if (end.streams.stdout.bytes() > limits.outputBytes || end.streams.stderr.bytes() > limits.outputBytes) limitsHit.add('output');
  if (await options.cgroup?.oomKilled()) limitsHit.add('memory');
  if (await options.diskFull?.()) limitsHit.add('disk');
  // A hook may hold every process slot without a fork ever being refused (125 `sleep &`): a count at the
  // limit is all /proc shows, and a refused fork leaves no trace the hook could not also print. Said, not claimed.
  if (processes.peak() >= limits.processes - PROCESS_MARGIN)
    notes.push(
      `the sandbox's processes reached ${processes.peak()}, at the process limit of ${limits.processes} (bwrap's own count against it): ` +
        'a fork past it fails, but whether one was refused cannot be seen from outside, so "processes" is not claimed in limitsHit',
    );
  const atFileLimit = options.writableRoots ? await fileAtSizeLimit(options.writableRoots, limits.fileSizeBytes) : false;
  const { exitCode, signal: claimed } = interpretExit(end.exit, end.stopped);
  // A status of 128+N is only a number the hook's shell returned; it counts as the signal when the supervisor saw its cause.
  let signal: string | null = end.exit.signal ? claimed : null;
  if (claimed === 'SIGXCPU' && processes.cpuPeakSeconds() >= limits.cpuSeconds - CPU_SAMPLE_SLACK_S) {
    signal = 'SIGXCPU';
    limitsHit.add('cpu');
  }
  // A file exactly at the limit is also what `head -c LIMIT` makes, and `exit 153` is a number: neither proves a
  // write was stopped. Only the process the supervisor waits on dying of SIGXFSZ itself (no sandbox around it) does.
  if (atFileLimit && end.exit.signal === 'SIGXFSZ' && !end.stopped) limitsHit.add('file-size');
  else if (atFileLimit)
    notes.push(
      `a file is exactly at the file-size limit (${limits.fileSizeBytes} bytes)${claimed === 'SIGXFSZ' ? ' and the hook exited 153 (128 + SIGXFSZ)' : ''}: ` +
        'a write stopped there and a file written to exactly that size look the same from outside, so "file-size" is not claimed in limitsHit' +
        (claimed === 'SIGXFSZ' ? ' nor SIGXFSZ as the signal (the cause of 153 is unconfirmed)' : ''),
    );
  return { exitCode, signal, limitsHit: [...limitsHit].sort(), ...(notes.length ? { notes } : {}) };
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
