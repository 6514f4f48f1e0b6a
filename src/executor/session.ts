import { randomBytes } from 'node:crypto';
import { chmod, chown, cp, lstat, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import type { HookScript } from '../hooks/types.js';
import { HOOK_TIMEOUT_MS } from '../runtime/contract.js';
import { createRunCgroup, type RunCgroup } from './cgroup.js';
import { startControlServer } from './control-server.js';
import { buildHookEnvironment, type HookContext, type ShellLayout } from './env.js';
import { superviseProcess, type ExecutionOutcome, type LimitName } from './execute.js';
import { findExecutable } from './host.js';
import { MemoryStore, type MemoryEntry } from './memory-store.js';
import { nodeProcessRunner, systemClock, type Clock, type ProcessRunner } from './process-runner.js';
import { startTracingProxy } from './redis-proxy.js';
import { startRedisSide, type RedisSide } from './redis-side.js';
import { bwrapArguments, DEFAULT_LIMITS, limitsPrelude, probeBwrap, sandboxEtcFiles, type SandboxLimits } from './sandbox.js';
import {
  controlShim,
  EVENTBUS_COMMAND_NAME,
  KNOWN_SLASH_COMMANDS,
  MEMORY_COMMAND_NAME,
  noSandboxPrelude,
  redisCliShim,
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
  /** Milliseconds since the session started. */
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
  const dir = await mkdtemp(join(options.baseDir ?? (await reachableTempDir(sandboxOwner !== undefined)), 'vah-session-'));
  // The sandbox user must reach its own directories and sockets under here, and nothing else.
  await chmod(dir, 0o711);
  const binDir = join(dir, 'bin');
  const shimDir = join(dir, 'shims');
  const etcDir = join(dir, 'etc');
  const tmpDir = join(dir, 'tmp');
  await Promise.all([binDir, shimDir, etcDir, join(dir, 'runs'), join(dir, 'agents')].map((path) => mkdir(path, { mode: 0o755 })));
  await mkdir(tmpDir, { mode: 0o1777 });
  await chmod(tmpDir, 0o1777);
  if (sandboxOwner) await chown(tmpDir, sandboxOwner.uid, sandboxOwner.gid);
  await writeFile(
    join(binDir, 'redis-cli'),
    redisCliShim({ redisCli: SANDBOX_PATHS.realRedisCli, redisSocket: SANDBOX_PATHS.redisSocket }),
    { mode: 0o755 },
  );
  await Promise.all(Object.entries(sandboxEtcFiles()).map(([name, text]) => writeFile(join(etcDir, name), text, { mode: 0o644 })));

  let redis: RedisSide;
  try {
    redis = await startRedisSide({ sessionDir: dir, ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}) });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

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
      dirs = prepareAgentDirs(join(dir, 'agents', safeName(agentId)), options.workspaceSeed, sandboxOwner);
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
      await rm(dir, { recursive: true, force: true });
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
    await mkdir(runDir, { mode: 0o755 });
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
    const control = await startControlServer(join(runDir, 'control.sock'), async (command, args) => {
      if (command === MEMORY_COMMAND_NAME) return runMemoryCommand(args, commandContext);
      if (command === EVENTBUS_COMMAND_NAME) return runEventbusCommand(args, commandContext);
      return runOtherCommand(command, args, commandContext);
    });
    const proxy = await startTracingProxy({
      socketPath: join(runDir, 'redis.sock'),
      upstream: redis.upstream,
      now: () => clock.now(),
      record: (fields) => trace.record({ kind: 'redis', agentId, runId, durationMs: 0, ...fields }) as TraceOperation & { kind: 'redis' },
    }).catch(async (error: unknown) => {
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
    try {
      if (mode === 'bwrap') {
        env = buildHookEnvironment({ hookName: hook.name, context, ...(runOptions.env ? { overrides: runOptions.env } : {}) });
        const slashCommands = await Promise.all(slashNames.map(async (name) => ({ name, shimPath: await shimFor(name) })));
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
        });
        cgroup = await createRunCgroup(`vah-${basename(dir)}-${runId}`, runLimits.memoryBytes);
        startedAt = trace.now();
        outcome = await superviseProcess({
          runner,
          clock,
          timeoutMs,
          limits: runLimits,
          diskWatchPath: dir,
          request: { command: bwrapPath, args, env, cwd: agent.workspace, extraPipes: 1, ...(sandboxOwner ?? {}) },
          containment: { kind: 'pid-namespace', infoPipe: 3 },
          ...(cgroup ? { cgroup } : {}),
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
        });
        startedAt = trace.now();
        outcome = await superviseProcess({
          runner,
          clock,
          timeoutMs,
          limits: runLimits,
          diskWatchPath: dir,
          request: {
            command: '/bin/bash',
            args: [
              '-c',
              `${limitsPrelude(runLimits, { processLimit: false })} || exit 125; exec -a bash /bin/bash -c "$1"`,
              'vah-limits',
              hook.text,
            ],
            env: { BASH_ENV: layout.prelude, ...env, VAH_RUN_MARKER: markerValue },
            cwd: agent.workspace,
            detached: true,
          },
          containment: { kind: 'environment-marker', marker: `VAH_RUN_MARKER=${markerValue}` },
        });
      }
    } finally {
      await Promise.all([control.close(), proxy.close(), cgroup?.remove()]);
      await rm(runDir, { recursive: true, force: true });
    }
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
 * The OS temp dir, unless the sandbox user could not reach into it (a root
 * `TMPDIR` of mode 0700): bwrap runs as that user and must find its binds.
 */
async function reachableTempDir(forOtherUser: boolean): Promise<string> {
  const base = tmpdir();
  if (!forOtherUser) return base;
  for (let path = base; ; path = dirname(path)) {
    const mode = (await stat(path).catch(() => undefined))?.mode ?? 0;
    if ((mode & 0o001) === 0) return '/tmp';
    if (path === dirname(path)) return base;
  }
}

/** Agent ids become directory names; anything odd in them must not steer the path. */
function safeName(agentId: string): string {
  const cleaned =
    agentId
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 80) || 'agent';
  return `${cleaned}-${createHashSuffix(agentId)}`;
}

function createHashSuffix(text: string): string {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash.toString(36);
}

async function prepareAgentDirs(
  root: string,
  seed: string | undefined,
  owner: { uid: number; gid: number } | undefined,
): Promise<{ workspace: string; home: string }> {
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  await mkdir(root, { recursive: true, mode: 0o755 });
  await Promise.all([mkdir(workspace, { mode: 0o755 }), mkdir(home, { mode: 0o700 })]);
  if (seed) {
    await cp(seed, workspace, { recursive: true, dereference: false, verbatimSymlinks: true, preserveTimestamps: true, force: true });
  }
  if (owner) {
    await chownTree(workspace, owner);
    await chown(home, owner.uid, owner.gid);
  }
  return { workspace, home };
}

async function chownTree(path: string, owner: { uid: number; gid: number }): Promise<void> {
  const stat = await lstat(path);
  if (stat.isSymbolicLink()) return;
  await chown(path, owner.uid, owner.gid);
  if (!stat.isDirectory()) return;
  for (const entry of await readdir(path)) await chownTree(join(path, entry), owner);
}

/**
 * Where hooks may find redis-cli by absolute path; each gets the wrapper, so
 * `/usr/bin/redis-cli` reaches the session's Redis too. Only /usr is in the
 * sandbox (and /bin links into it).
 */
function redisCliLocations(realRedisCli: string): string[] {
  const candidates = [realRedisCli, '/usr/bin/redis-cli', '/usr/local/bin/redis-cli'];
  return [...new Set(candidates.filter((path) => path.startsWith('/usr/') && findExecutable('redis-cli', dirname(path)) === path))];
}

/**
 * --no-sandbox: the same commands, as files in the run's directory (the
 * sockets' host paths are baked in) and as bash functions named `/NAME`.
 */
async function noSandboxLayout(options: {
  runDir: string;
  agent: { workspace: string; home: string };
  tmpDir: string;
  realRedisCli: string;
  controlSocket: string;
  redisSocket: string;
  slashNames: string[];
}): Promise<{ shell: ShellLayout; prelude: string }> {
  const binDir = join(options.runDir, 'bin');
  const shimDir = join(options.runDir, 'shims');
  await Promise.all([mkdir(binDir), mkdir(shimDir)]);
  await writeFile(join(binDir, 'redis-cli'), redisCliShim({ redisCli: options.realRedisCli, redisSocket: options.redisSocket }), {
    mode: 0o755,
  });
  const commands: Record<string, string> = {};
  await Promise.all(
    options.slashNames.map(async (name) => {
      const path = join(shimDir, name);
      await writeFile(path, controlShim({ commandName: name, redisCli: options.realRedisCli, controlSocket: options.controlSocket }), {
        mode: 0o755,
      });
      commands[name] = path;
    }),
  );
  const prelude = join(options.runDir, 'prelude.bash');
  await writeFile(prelude, noSandboxPrelude({ commands }));
  return {
    prelude,
    shell: {
      home: options.agent.home,
      workspace: options.agent.workspace,
      tmp: options.tmpDir,
      path: `${binDir}:${process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
      user: process.env.USER ?? 'root',
    },
  };
}
