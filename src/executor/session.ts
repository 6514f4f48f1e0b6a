import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { HookScript } from '../hooks/types.js';
import { HOOK_TIMEOUT_MS } from '../runtime/contract.js';
import { createRunCgroup, type RunCgroup } from './cgroup.js';
import { startControlServer } from './control-server.js';
import { createWritableArea, type WritableArea } from './disk.js';
import { seccompProgram } from './seccomp.js';
import { buildHookEnvironment, type HookContext } from './env.js';
import { superviseProcess, type ExecutionOutcome, type LimitName } from './execute.js';
import { findExecutable } from './host.js';
import { holdSession, removeSessionDirSync, sweepStaleSessions, SESSION_PREFIX, writeOwnerFile } from './leftovers.js';
import { MemoryStore, type MemoryEntry } from './memory-store.js';
import { nodeProcessRunner, systemClock, type Clock, type ProcessRunner } from './process-runner.js';
import { startFilteringProxy } from './redis-filter-proxy.js';
import { startFakeRunSocket } from './redis-run-socket.js';
import { startRedisSide, type RedisSide } from './redis-side.js';
import {
  bwrapArguments,
  DEFAULT_LIMITS,
  environmentFileText,
  hookLauncherArgs,
  probeBwrap,
  sandboxEtcFiles,
  type SandboxLimits,
} from './sandbox.js';
import {
  noSandboxLayout,
  prepareAgentDirs,
  reachableTempDir,
  redisCliLocations,
  safeName,
  treeBytes,
  writableAreaPath,
  ownedBytes,
} from './session-layout.js';
import {
  controlShim,
  EVENTBUS_COMMAND_NAME,
  KNOWN_SLASH_COMMANDS,
  MEMORY_COMMAND_NAME,
  redisCliShim,
  shellFunctions,
  SANDBOX_PATHS,
  slashCommandsIn,
} from './shims.js';
import { runEventbusCommand, runMemoryCommand, runOtherCommand, type SlashCommandContext } from './slash-commands.js';
import { TraceLog, type PublishedEvent, type TraceOperation } from './trace.js';

/**
 * One executor session: a memory store, a Redis side, an event log and a
 * trace shared by every hook run in it, whichever agent runs it, so the
 * lifecycle simulator can play many agents against one world. Each run gets
 * its own sockets (that is how the fakes know which agent is calling) and
 * its own sandbox; each agent keeps its workspace and home across its runs;
 * /tmp is shared, as on a real machine.
 */

export type SandboxMode = 'bwrap' | 'none';

export interface ExecutorSessionOptions {
  /** `bwrap` (default) or `none` for --no-sandbox. */
  sandbox?: SandboxMode;
  /** A real Redis server instead of the embedded fake. */
  redisUrl?: string;
  /** Per-run timeout unless a run says otherwise (default: the runtime's 5 s). */
  timeoutMs?: number;
  limits?: Partial<SandboxLimits>;
  /** Directory copied into each agent's fresh workspace (the original is never touched). */
  workspaceSeed?: string;
  /** The swarm agents belong to unless a run says otherwise. */
  swarmId?: string;
  /** Where the session's directory is created (default: the OS temp dir). */
  baseDir?: string;
  /** Host user the sandbox runs as when the executor is root (root cannot be process-limited). Default 65534. */
  sandboxHostUid?: number;
  sandboxHostGid?: number;
  /** Where to look for bwrap (default: PATH). */
  bwrapSearchPath?: string;
  clock?: Clock;
  runner?: ProcessRunner;
  /** Called for every operation as it happens (a live view for the simulator or `--verbose`). */
  onOperation?: (operation: TraceOperation) => void;
}

export interface RunHookOptions {
  /** Who runs the hook; the memory store's notion of identity. Default: `<profile name>-1`. */
  agentId?: string;
  swarmId?: string;
  task?: string;
  iteration?: number | string;
  phase?: string;
  /** Environment overrides, applied last (they change what the hook sees, never who it is). */
  env?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  /** A command line to run instead of `bash -c hook.text` (Claude Code handlers: `sh -c`, or exec form). */
  command?: readonly string[];
  /** Written to the hook's standard input (Claude Code's event JSON); without it stdin is /dev/null. */
  stdin?: string;
  /** The runtime's variables, replacing claude-flow's AGENT_ID, TASK, ... (for Claude Code handlers). */
  runtimeEnv?: Readonly<Record<string, string>>;
  /** Called once the hook's own process has started (its sandbox is set up), e.g. to let the next sandbox start. */
  onProcessStart?: () => void;
}

export interface SandboxReport {
  mode: SandboxMode;
  bwrapVersion?: string;
  /** Host user and group the sandbox ran as. */
  hostUid: number;
  hostGid: number;
  limits: SandboxLimits;
  timeoutMs: number;
  pidNamespace?: string;
  initPid?: number;
  /** The control group that held the sandbox's memory to `limits.memoryBytes`; null when none could be used. */
  cgroup: 'v1' | 'v2' | null;
  /** Processes still running after the hook ended, killed by the executor (should always be empty). */
  survivors: number[];
  warnings: string[];
}

export interface HookRunResult {
  runId: number;
  profile: string;
  hook: string;
  agentId: string;
  swarmId: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Whether the runtime would log this run as a failure (non-zero, killed or timed out). */
  failed: boolean;
  durationMs: number;
  /** Milliseconds since the session started, when the hook's own process started (sandbox set-up excluded). */
  startedAt: number;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  env: Record<string, string>;
  operations: TraceOperation[];
  /** All memory after the run, every level and owner. */
  memory: MemoryEntry[];
  /** Events this run published. */
  events: PublishedEvent[];
  limitsHit: LimitName[];
  sandbox: SandboxReport;
  /** The executor could not start the hook at all. */
  error?: string;
}

export interface ExecutorSession {
  readonly dir: string;
  readonly mode: SandboxMode;
  readonly trace: TraceLog;
  readonly events: PublishedEvent[];
  readonly redis: RedisSide;
  /** The memory store, created on first use (sql.js costs ~30 ms to start). */
  memory(): Promise<MemoryStore>;
  /** Memory entries, or none without creating the store when nothing used it. */
  memoryEntries(): Promise<MemoryEntry[]>;
  runHook(hook: HookScript, options?: RunHookOptions): Promise<HookRunResult>;
  /**
   * Sends one Redis command from the host (an orchestrator's signal, a
   * check), traced like a hook's, under `agentId` (default `host`).
   */
  callRedis(command: readonly string[], options?: { agentId?: string }): Promise<unknown>;
  /** The host directory that is the agent's /workspace. */
  workspaceOf(agentId: string): Promise<string>;
  /** Waits for runs in progress, then stops the fakes and removes the session's directory. */
  close(): Promise<void>;
}

export class SandboxUnavailableError extends Error {}

export const NO_SANDBOX_WARNING =
  'WARNING: --no-sandbox: the hook runs directly on this machine as the current user, with its file system, network and ' +
  'processes. Nothing stops it from changing files outside its workspace, children it detaches may outlive it, process ' +
  'limits do not hold for root, and agent-level memory privacy is not enforced. Use only for hooks you trust.';

/** Redis commands that wait for data: their time is the hook's. */
const BLOCKING_REDIS =
  /^(b[lr]pop|brpoplpush|blmove|bzpopm(in|ax)|blmpop|bzmpop|xread|xreadgroup|wait|waitaof|subscribe|psubscribe|ssubscribe|monitor)$/i;

export function defaultAgentId(hook: HookScript): string {
  return `${basename(hook.file, extname(hook.file)) || 'agent'}-1`;
}

export async function createExecutorSession(options: ExecutorSessionOptions = {}): Promise<ExecutorSession> {
  const mode: SandboxMode = options.sandbox ?? 'bwrap';
  const clock = options.clock ?? systemClock;
  const runner = options.runner ?? nodeProcessRunner;
  const sessionStart = clock.now();
  const trace = new TraceLog(() => clock.now() - sessionStart);
  if (options.onOperation) trace.subscribe(options.onOperation);
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const defaultTimeoutMs = options.timeoutMs ?? HOOK_TIMEOUT_MS;
  const isRoot = process.getuid?.() === 0;
  const hostUid = isRoot ? (options.sandboxHostUid ?? 65534) : (process.getuid?.() ?? 0);
  const hostGid = isRoot ? (options.sandboxHostGid ?? options.sandboxHostUid ?? 65534) : (process.getgid?.() ?? 0);
  // Only a root executor hands the sandbox's directories to the unprivileged sandbox user.
  const sandboxOwner = mode === 'bwrap' && isRoot ? { uid: hostUid, gid: hostGid } : undefined;

  let bwrapVersion: string | undefined;
  let bwrapPath = '';
  if (mode === 'bwrap') {
    const availability = probeBwrap({
      ...(isRoot ? { hostUid, hostGid } : {}),
      ...(options.bwrapSearchPath !== undefined ? { searchPath: options.bwrapSearchPath } : {}),
    });
    if (!availability.ok) throw new SandboxUnavailableError(availability.problem);
    bwrapVersion = availability.version;
    bwrapPath = availability.path ?? 'bwrap';
  }

  const foundRedisCli = findExecutable('redis-cli');
  if (!foundRedisCli) {
    throw new SandboxUnavailableError(
      'redis-cli was not found on PATH; the sandbox uses it to carry /sqlite-memory, /eventbus and ' +
        'redis-cli calls. Install it (Debian/Ubuntu: `apt-get install -y redis-tools`).',
    );
  }
  const realRedisCli: string = foundRedisCli;
  const baseDir = options.baseDir ?? (await reachableTempDir(sandboxOwner !== undefined));
  await sweepStaleSessions(baseDir, writableAreaPath);
  const dir = await mkdtemp(join(baseDir, SESSION_PREFIX));
  await writeOwnerFile(dir);
  // The sandbox user must reach its own directories and sockets under here, and nothing else.
  await chmod(dir, 0o711);
  const binDir = join(dir, 'bin');
  const shimDir = join(dir, 'shims');
  const etcDir = join(dir, 'etc');
  const aborter = new AbortController();
  let area: WritableArea | undefined;
  const release = holdSession({
    abort: () => aborter.abort(),
    close: () => session.close(),
    closeSync: () => {
      aborter.abort();
      area?.releaseSync();
      removeSessionDirSync(dir, writableAreaPath(dir));
    },
  });
  try {
    area = await createWritableArea(writableAreaPath(dir), limits.diskBytes);
  } catch (error) {
    release();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const writableArea: WritableArea = area;
  const tmpDir = join(writableArea.path, 'tmp');
  const agentsDir = join(writableArea.path, 'agents');
  const privateDir = join(dir, 'private');
  await Promise.all([binDir, shimDir, etcDir, agentsDir].map((path) => mkdir(path, { mode: 0o755 })));
  // Each run's sockets live in a directory only the sandbox's user can enter; the fakes' own sockets in one only we can.
  await Promise.all([mkdir(join(dir, 'runs'), { mode: 0o711 }), mkdir(privateDir, { mode: 0o700 })]);
  await mkdir(tmpDir, { mode: 0o1777 });
  await chmod(tmpDir, 0o1777);
  if (sandboxOwner) await chown(tmpDir, sandboxOwner.uid, sandboxOwner.gid);
  await writeFile(
    join(binDir, 'redis-cli'),
    redisCliShim({ redisCli: SANDBOX_PATHS.realRedisCli, redisSocket: SANDBOX_PATHS.redisSocket }),
    { mode: 0o755 },
  );
  // Functions for every command a run may call, grown as hooks name new ones; replaced whole
  // (rename), so a sandbox that is starting reads either the old file or the new one.
  const functionNames = new Set<string>();
  let functionsWritten: Promise<void> = Promise.resolve();
  const ensureFunctions = (names: readonly string[]): Promise<void> => {
    if (names.every((name) => functionNames.has(name))) return functionsWritten;
    for (const name of names) functionNames.add(name);
    const text = shellFunctions({
      redisCli: SANDBOX_PATHS.realRedisCli,
      redisSocket: SANDBOX_PATHS.redisSocket,
      controlSocket: SANDBOX_PATHS.controlSocket,
      commands: [...functionNames].sort(),
    });
    const target = join(binDir, basename(SANDBOX_PATHS.functions));
    const next = `${target}.${functionNames.size}`;
    functionsWritten = functionsWritten.then(async () => {
      await writeFile(next, text, { mode: 0o644 });
      await rename(next, target);
    });
    return functionsWritten;
  };
  await Promise.all(Object.entries(sandboxEtcFiles()).map(([name, text]) => writeFile(join(etcDir, name), text, { mode: 0o644 })));

  let redis: RedisSide;
  try {
    redis = await startRedisSide({ sessionDir: privateDir, ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}) });
  } catch (error) {
    release();
    await writableArea.release();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const seccomp = mode === 'bwrap' ? seccompProgram() : undefined;
  const seccompFile = seccomp ? join(dir, 'seccomp.bpf') : undefined;
  if (seccomp && seccompFile) await writeFile(seccompFile, seccomp, { mode: 0o644 });
  // A workspace seed is copied once per agent; it should not eat the budget of what the hooks write.
  const seedBytes = options.workspaceSeed ? await treeBytes(options.workspaceSeed) : 0;

  const events: PublishedEvent[] = [];
  let memoryPromise: Promise<MemoryStore> | undefined;
  const memory = (): Promise<MemoryStore> => (memoryPromise ??= MemoryStore.create());
  const agentDirs = new Map<string, Promise<{ workspace: string; home: string }>>();
  const shims = new Map<string, Promise<string>>();
  let nextRunId = 1;
  let closed = false;
  const activeRuns = new Set<Promise<unknown>>();

  const shimFor = (name: string): Promise<string> => {
    let shim = shims.get(name);
    if (!shim) {
      const path = join(shimDir, name);
      shim = writeFile(
        path,
        controlShim({ commandName: name, redisCli: SANDBOX_PATHS.realRedisCli, controlSocket: SANDBOX_PATHS.controlSocket }),
        { mode: 0o755 },
      ).then(() => path);
      shims.set(name, shim);
    }
    return shim;
  };

  const agentDirsFor = (agentId: string): Promise<{ workspace: string; home: string }> => {
    let dirs = agentDirs.get(agentId);
    if (!dirs) {
      dirs = writableArea
        .grow(seedBytes)
        .then(() => prepareAgentDirs(join(agentsDir, safeName(agentId)), options.workspaceSeed, sandboxOwner));
      agentDirs.set(agentId, dirs);
    }
    return dirs;
  };

  const session: ExecutorSession = {
    dir,
    mode,
    trace,
    events,
    redis,
    memory,
    memoryEntries: async () => (memoryPromise ? (await memoryPromise).entries() : []),
    workspaceOf: async (agentId) => (await agentDirsFor(agentId)).workspace,

    async callRedis(command, callOptions = {}) {
      const started = clock.now();
      const operation = trace.record({
        kind: 'redis',
        agentId: callOptions.agentId ?? 'host',
        command: [...command],
        durationMs: 0,
      }) as TraceOperation & { kind: 'redis' };
      const reply = await redis.call(command);
      operation.reply = reply;
      operation.durationMs = Math.round((clock.now() - started) * 10) / 10;
      return reply;
    },

    runHook(hook, runOptions = {}) {
      if (closed) return Promise.reject(new Error('the executor session is closed'));
      const run = runOne(hook, runOptions);
      activeRuns.add(run);
      void run.finally(() => activeRuns.delete(run)).catch(() => undefined);
      return run;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...activeRuns]);
      await redis.close().catch(() => undefined);
      if (memoryPromise) (await memoryPromise).close();
      await writableArea.release();
      removeSessionDirSync(dir, writableArea.path);
      release();
    },
  };

  async function runOne(hook: HookScript, runOptions: RunHookOptions): Promise<HookRunResult> {
    const runId = nextRunId++;
    const agentId = runOptions.agentId ?? defaultAgentId(hook);
    const swarmId = runOptions.swarmId ?? options.swarmId ?? 'swarm-local';
    const timeoutMs = runOptions.timeoutMs ?? defaultTimeoutMs;
    const runLimits: SandboxLimits = { ...limits, cpuSeconds: options.limits?.cpuSeconds ?? Math.ceil(timeoutMs / 1000) + 1 };
    if (hook.text.includes(MEMORY_COMMAND_NAME)) void memory();

    const runDir = join(dir, 'runs', String(runId));
    await mkdir(runDir, { mode: 0o700 });
    if (sandboxOwner) await chown(runDir, sandboxOwner.uid, sandboxOwner.gid);
    const agent = await agentDirsFor(agentId);
    const identity = { agentId, swarmId };
    const commandContext: SlashCommandContext = {
      identity,
      runId,
      memory,
      record: (operation) => {
        trace.record(operation);
      },
      publish: (event) => {
        events.push({ t: trace.now(), ...event });
      },
    };
    // Time the host spends serving the hook's slash commands is the host's, not the hook's.
    let hostBusyMs = 0;
    const control = await startControlServer(join(runDir, 'control.sock'), async (command, args) => {
      const served = clock.now();
      try {
        if (command === MEMORY_COMMAND_NAME) return await runMemoryCommand(args, commandContext);
        if (command === EVENTBUS_COMMAND_NAME) return await runEventbusCommand(args, commandContext);
        return runOtherCommand(command, args, commandContext);
      } finally {
        hostBusyMs += clock.now() - served;
      }
    });
    // The host's side of the hook's Redis round trips too; a blocking pop's wait is the hook's own choice.
    const redisBusyMs = (): number => {
      let busy = 0;
      for (const op of trace.forRun(runId)) {
        if (op.kind !== 'redis' || op.push || BLOCKING_REDIS.test(op.command[0] ?? '')) continue;
        // A command still in flight counts up to now.
        busy += op.reply === undefined ? Math.max(0, trace.now() - op.t) : op.durationMs;
      }
      return busy;
    };
    const timing = {
      hostBusyMs: () => hostBusyMs + redisBusyMs(),
      ...(runOptions.onProcessStart ? { onProcessStart: runOptions.onProcessStart } : {}),
    };
    const diskUsage = (): Promise<number | undefined> => ownedBytes([agent.workspace, agent.home, tmpDir]);
    // A real server gets the filter (one database, data commands only); the fake traces each run from its own dispatch.
    const proxy = await (redis.fake
      ? startFakeRunSocket({
          socketPath: join(runDir, 'redis.sock'),
          fake: redis.fake,
          fakeNow: Date.now,
          traceNow: () => trace.now(),
          record: (fields) => trace.record({ kind: 'redis', agentId, runId, ...fields }) as TraceOperation & { kind: 'redis' },
        })
      : startFilteringProxy({
          socketPath: join(runDir, 'redis.sock'),
          upstream: redis.upstream,
          now: () => clock.now(),
          record: (fields) =>
            trace.record({ kind: 'redis', agentId, runId, durationMs: 0, ...fields }) as TraceOperation & { kind: 'redis' },
        })
    ).catch(async (error: unknown) => {
      await control.close();
      throw error;
    });

    const slashNames = [...new Set([MEMORY_COMMAND_NAME, EVENTBUS_COMMAND_NAME, ...KNOWN_SLASH_COMMANDS, ...slashCommandsIn(hook.text)])];
    const context: HookContext = {
      agentId,
      swarmId,
      ...(runOptions.task !== undefined ? { task: runOptions.task } : {}),
      ...(runOptions.iteration !== undefined ? { iteration: runOptions.iteration } : {}),
      ...(runOptions.phase !== undefined ? { phase: runOptions.phase } : {}),
    };
    const warnings: string[] = [];
    let outcome: ExecutionOutcome;
    let env: Record<string, string>;
    // The hook's own clock starts when its process does, not while its sockets are set up.
    let startedAt: number;
    let cgroup: RunCgroup | undefined;
    const envFile = join(runDir, 'env');
    const diskBudget = {
      writableRoots: [agent.workspace, agent.home, tmpDir],
      // A size-limited tmpfs is the budget itself; without one (not root), the sandbox's own bytes are counted.
      ...(writableArea.bounded ? { diskFull: () => writableArea.full() } : { diskUsage }),
    };
    if (!writableArea.bounded && writableArea.unboundedReason) warnings.push(writableArea.unboundedReason);
    if (mode === 'bwrap' && !seccompFile)
      warnings.push(`no seccomp filter on this architecture (${process.arch}); see src/executor/seccomp.ts`);
    try {
      if (mode === 'bwrap') {
        env = {
          BASH_ENV: SANDBOX_PATHS.functions,
          ...SHELL_LEVEL,
          ...buildHookEnvironment({
            hookName: hook.name,
            context,
            ...(runOptions.env ? { overrides: runOptions.env } : {}),
            ...(runOptions.runtimeEnv ? { runtimeEnv: runOptions.runtimeEnv } : {}),
          }),
        };
        const [slashCommands] = await Promise.all([
          Promise.all(slashNames.map(async (name) => ({ name, shimPath: await shimFor(name) }))),
          ensureFunctions(slashNames),
        ]);
        const args = bwrapArguments({
          script: hook.text,
          limits: runLimits,
          workspaceDir: agent.workspace,
          homeDir: agent.home,
          tmpDir,
          etcDir,
          binDir,
          controlSocket: control.socketPath,
          redisSocket: proxy.socketPath,
          realRedisCli,
          redisCliLocations: redisCliLocations(realRedisCli),
          slashCommands,
          infoFd: 3,
          envFile,
          ...(seccompFile ? { seccompFd: 5 } : {}),
          ...(runOptions.command ? { argv: runOptions.command } : {}),
          startFd: 4,
        });
        await writeFile(envFile, environmentFileText(env), { mode: 0o644 });
        cgroup = await createRunCgroup(`vah-${basename(dir)}-${runId}`, runLimits.memoryBytes);
        startedAt = trace.now();
        outcome = await superviseProcess({
          runner,
          clock,
          timeoutMs,
          limits: runLimits,
          ...diskBudget,
          // bwrap and the shell that starts it get nothing of the hook's environment (it travels in envFile).
          request: {
            command: bwrapPath,
            args,
            env: { PATH: '/usr/bin:/bin' },
            cwd: agent.workspace,
            extraPipes: 2,
            ...(sandboxOwner ?? {}),
          },
          startPipe: 1,
          ...timing,
          containment: { kind: 'pid-namespace', infoPipe: 3 },
          abortSignal: aborter.signal,
          ...(seccompFile ? { openFiles: [{ fd: 5, path: seccompFile }] } : {}),
          ...(cgroup ? { cgroup } : {}),
          ...(runOptions.stdin !== undefined ? { stdin: runOptions.stdin } : {}),
        });
      } else {
        warnings.push(NO_SANDBOX_WARNING);
        const markerValue = randomBytes(8).toString('hex');
        const layout = await noSandboxLayout({
          runDir,
          agent,
          tmpDir,
          realRedisCli,
          controlSocket: control.socketPath,
          redisSocket: proxy.socketPath,
          slashNames,
        });
        env = buildHookEnvironment({
          hookName: hook.name,
          context,
          layout: layout.shell,
          ...(runOptions.env ? { overrides: runOptions.env } : {}),
          ...(runOptions.runtimeEnv ? { runtimeEnv: runOptions.runtimeEnv } : {}),
        });
        const marker = `VAH_RUN_MARKER=${markerValue}`;
        await writeFile(envFile, environmentFileText({ BASH_ENV: layout.prelude, ...SHELL_LEVEL, ...env, VAH_RUN_MARKER: markerValue }), {
          mode: 0o600,
        });
        startedAt = trace.now();
        outcome = await superviseProcess({
          runner,
          clock,
          timeoutMs,
          limits: runLimits,
          ...diskBudget,
          request: {
            command: '/bin/bash',
            args: hookLauncherArgs(hook.text, envFile, runLimits, { processLimit: false, argv: runOptions.command, startFd: 3 }),
            env: { PATH: '/usr/bin:/bin', VAH_RUN_MARKER: markerValue },
            cwd: agent.workspace,
            detached: true,
            extraPipes: 1,
          },
          startPipe: 0,
          ...timing,
          containment: { kind: 'environment-marker', marker },
          abortSignal: aborter.signal,
          ...(runOptions.stdin !== undefined ? { stdin: runOptions.stdin } : {}),
        });
      }
    } finally {
      await Promise.all([control.close(), proxy.close(), cgroup?.remove()]);
      await rm(runDir, { recursive: true, force: true });
    }
    // The run's start on the session's clock is when the hook's process started.
    if (outcome.processStartedAt !== undefined) startedAt = Math.max(0, trace.now() - (clock.now() - outcome.processStartedAt));
    if (outcome.survivors.length > 0)
      warnings.push(`${outcome.survivors.length} process(es) outlived the hook and were killed: ${outcome.survivors.join(', ')}`);

    return {
      runId,
      profile: hook.file,
      hook: hook.name,
      agentId,
      swarmId,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      timedOut: outcome.timedOut,
      failed: outcome.timedOut || outcome.exitCode !== 0,
      durationMs: Math.round(outcome.durationMs * 10) / 10,
      startedAt,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      stdoutBytes: outcome.stdoutBytes,
      stderrBytes: outcome.stderrBytes,
      env,
      operations: trace.forRun(runId),
      memory: await session.memoryEntries(),
      events: events.filter((event) => event.runId === runId),
      limitsHit: outcome.limitsHit,
      sandbox: {
        mode,
        ...(bwrapVersion ? { bwrapVersion } : {}),
        hostUid: mode === 'bwrap' ? hostUid : (process.getuid?.() ?? 0),
        hostGid: mode === 'bwrap' ? hostGid : (process.getgid?.() ?? 0),
        limits: runLimits,
        timeoutMs,
        ...(outcome.pidNamespace ? { pidNamespace: outcome.pidNamespace } : {}),
        ...(outcome.initPid ? { initPid: outcome.initPid } : {}),
        cgroup: cgroup ? (cgroup.version === 2 ? 'v2' : 'v1') : null,
        survivors: outcome.survivors,
        warnings,
      },
      ...(outcome.startError ? { error: outcome.startError } : {}),
    };
  }
  return session;
}

/**
 * A bash whose stdin is a socket (Node's pipes are socket pairs) and whose
 * SHLVL is below 2 takes itself for a shell started by sshd: it reads
 * ~/.bashrc and skips BASH_ENV, so the hook would lose the commands'
 * functions. A runtime started from a terminal gives its hooks SHLVL 2 too.
 * The launcher exports this from the environment file and then `exec`s the
 * hook's bash, and bash lowers SHLVL by one before an `exec`: 2 arrives as 1
 * and the hook's bash counts itself 2.
 */
const SHELL_LEVEL = { SHLVL: '2' } as const;
