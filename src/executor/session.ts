import { setMaxListeners } from 'node:events';
import { chmodSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { HookScript } from '../hooks/types.js';
import { HOOK_TIMEOUT_MS } from '../runtime/contract.js';
import { primeCgroupMoves, removeSessionCgroup, sessionCgroup } from './cgroup.js';
import { createWritableArea, type WritableArea } from './disk.js';
import { runHookOnce } from './hook-run.js';
import { holdSession, removeSessionDirSync, removeSessionFiles, sweepStaleSessions, SESSION_PREFIX, writeOwnerFile } from './leftovers.js';
import { MemoryStore } from './memory-store.js';
import { nodeProcessRunner, systemClock } from './process-runner.js';
import { findNativeHelper } from './native-helper.js';
import { startRedisSide, type RedisSide } from './redis-side.js';
import type { AgentDirs, RunContext } from './run-context.js';
import { DEFAULT_LIMITS, type SandboxLimits } from './sandbox.js';
import { seccompProgram } from './seccomp.js';
import { inMemoryFs, threadPoolFs } from './session-fs.js';
import { checkSeedSize, ensureHomeFile, prepareAgentDirs, reachableTempDir, safeName, writableAreaPath } from './session-layout.js';
import {
  functionsWriter,
  makeAreaDirs,
  requireBwrap,
  requireRedisCli,
  sandboxIdentity,
  sessionPaths,
  writeCommandFiles,
  writeLaunchFiles,
} from './session-setup.js';
import type { ExecutorSession, ExecutorSessionOptions, SandboxMode } from './session-types.js';
import { EVENTBUS_COMMAND_NAME, KNOWN_SLASH_COMMANDS, MEMORY_COMMAND_NAME } from './shims.js';
import { TraceLog, type PublishedEvent, type TraceOperation } from './trace.js';

export {
  NO_SANDBOX_WARNING,
  SandboxUnavailableError,
  type ExecutorSession,
  type ExecutorSessionOptions,
  type HookRunResult,
  type RunHookOptions,
  type SandboxMode,
  type SandboxReport,
} from './session-types.js';

/**
 * One executor session: a memory store, a Redis side, an event log and a
 * trace shared by every hook run in it, whichever agent runs it, so the
 * lifecycle simulator can play many agents against one world. Each run gets
 * its own sockets (that is how the fakes know which agent is calling) and
 * its own sandbox (src/executor/hook-run.ts); each agent keeps its workspace
 * and home across its runs; /tmp is shared, as on a real machine.
 */

export function defaultAgentId(hook: HookScript): string {
  return `${basename(hook.file, extname(hook.file)) || 'agent'}-1`;
}

export async function createExecutorSession(options: ExecutorSessionOptions = {}): Promise<ExecutorSession> {
  const mode: SandboxMode = options.sandbox ?? 'bwrap';
  const clock = options.clock ?? systemClock;
  const sessionStart = clock.now();
  const trace = new TraceLog(() => clock.now() - sessionStart);
  if (options.onOperation) trace.subscribe(options.onOperation);
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...options.limits };
  // Before anything is made or copied: a seed over the budget is a usage error.
  const seedBytes = options.workspaceSeed ? await checkSeedSize(options.workspaceSeed, limits.diskBytes) : 0;
  const identity = sandboxIdentity(options, mode);
  const bwrap = mode === 'bwrap' ? requireBwrap(identity, options.bwrapSearchPath) : undefined;
  const realRedisCli = requireRedisCli();
  const redisHelper = mode === 'bwrap' ? findNativeHelper('vah-redis') : undefined;
  // Taken while the session sets up, the kernel's wait before a first move between control groups is off the launch's path.
  const primed = mode === 'bwrap' ? primeCgroupMoves() : undefined;

  // A few small calls, made synchronously: through the thread pool each waited for a turn of the event loop.
  const baseDir = options.baseDir ?? reachableTempDir(identity.sandboxOwner !== undefined);
  await sweepStaleSessions(baseDir, writableAreaPath);
  const dir = mkdtempSync(join(baseDir, SESSION_PREFIX));
  await writeOwnerFile(dir, inMemoryFs);
  // The sandbox user must reach its own directories and sockets under here, and nothing else.
  chmodSync(dir, 0o711);
  const aborter = new AbortController();
  // Each run in flight listens to it, and removes its listener when it ends: a swarm's 24 agents are not a leak.
  setMaxListeners(0, aborter.signal);
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
  // The sandboxes' control group is made while the session sets up (the runs' groups go in it).
  if (mode === 'bwrap') void sessionCgroup(basename(dir), limits.memoryBytes);
  // The session's directory becomes a tmpfs of its own where it can (src/executor/disk.ts), with the
  // writable area in it; the session's files are written into it once it is there.
  const paths = sessionPaths(dir, writableAreaPath(dir));
  const seccomp = mode === 'bwrap' ? seccompProgram() : undefined;
  const seccompFile = seccomp ? join(dir, 'seccomp.bpf') : undefined;
  /** Undoes a set-up that failed part-way (the fakes, the mounts, the directory, the control group), then fails with its error. */
  const undo = async (error: unknown, made: { redis?: RedisSide; area?: WritableArea }): Promise<never> => {
    release();
    await made.redis?.close().catch(() => undefined);
    await made.area?.release();
    await rm(dir, { recursive: true, force: true });
    await removeSessionCgroup(basename(dir));
    throw error;
  };
  const writableArea: WritableArea = (area = await createWritableArea(writableAreaPath(dir), limits.diskBytes, { holder: dir }).catch(
    (error: unknown) => undo(error, {}),
  ));
  const fs = writableArea.holdsSession ? inMemoryFs : threadPoolFs;
  // The owner file again inside the holder, where a sweep looks while it is mounted.
  const launchFiles = Promise.all([
    writableArea.holdsSession ? writeOwnerFile(dir, fs) : undefined,
    writeLaunchFiles(paths, redisHelper, fs),
  ]).then(([, launch]) => launch);
  const [started, written] = await Promise.allSettled([
    launchFiles.then(() => startRedisSide({ sessionDir: paths.privateDir, ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}) })),
    Promise.all([
      launchFiles.then(() => makeAreaDirs(paths, identity.sandboxOwner, fs)),
      seccomp && seccompFile ? fs.writeFile(seccompFile, seccomp, 0o644) : undefined,
      primed,
    ]),
  ]);
  const failed = [started, written].find((result) => result.status === 'rejected');
  if (failed) await undo(failed.reason, { area: writableArea, ...(started.status === 'fulfilled' ? { redis: started.value } : {}) });
  const redis = (started as PromiseFulfilledResult<RedisSide>).value;
  const { etcBinds } = await launchFiles;
  // The functions every run binds; a hook that names others adds them at its run.
  const ensureFunctions = functionsWriter(paths.binDir, redisHelper !== undefined, fs);
  // The commands' files are made once a first run's sandbox has started (bwrap takes ~8 ms to make it, on
  // the other core), or when a run without one needs them; that run waits for them at its gate.
  let setupFinished: Promise<void> | undefined;
  const finishSetup = (): Promise<void> =>
    (setupFinished ??= Promise.all([
      writeCommandFiles(paths, redisHelper, fs),
      ensureFunctions([MEMORY_COMMAND_NAME, EVENTBUS_COMMAND_NAME, ...KNOWN_SLASH_COMMANDS]),
    ]).then(() => undefined));
  // A workspace seed is copied once per agent; it should not eat the budget of what the hooks write.

  const events: PublishedEvent[] = [];
  let memoryPromise: Promise<MemoryStore> | undefined;
  const memory = (): Promise<MemoryStore> => (memoryPromise ??= MemoryStore.create());
  const memoryEntries = async () => (memoryPromise ? (await memoryPromise).entries() : []);
  const agentDirs = new Map<string, Promise<AgentDirs>>();
  const agentDirsFor = (agentId: string): Promise<AgentDirs> => {
    let dirs = agentDirs.get(agentId);
    if (!dirs) {
      dirs = writableArea
        .grow(seedBytes)
        .then(() => prepareAgentDirs(join(paths.agentsDir, safeName(agentId)), options.workspaceSeed, identity.sandboxOwner, fs));
      agentDirs.set(agentId, dirs);
    }
    return dirs;
  };
  const context: RunContext = {
    options,
    mode,
    clock,
    runner: options.runner ?? nodeProcessRunner,
    trace,
    events,
    limits,
    defaultTimeoutMs: options.timeoutMs ?? HOOK_TIMEOUT_MS,
    identity,
    ...(bwrap ? { bwrap } : {}),
    realRedisCli,
    paths,
    etcBinds,
    ...(seccompFile ? { seccompFile } : {}),
    writableArea,
    redis,
    abortSignal: aborter.signal,
    memory,
    memoryEntries,
    agentDirsFor,
    ensureFunctions,
    finishSetup,
    fs,
  };
  let nextRunId = 1;
  let closed = false;
  const activeRuns = new Set<Promise<unknown>>();

  const session: ExecutorSession = {
    dir,
    mode,
    trace,
    events,
    redis,
    memory,
    memoryEntries,
    workspaceOf: async (agentId) => (await agentDirsFor(agentId)).workspace,
    ensureHomeFile: async (agentId, relative) => ensureHomeFile((await agentDirsFor(agentId)).home, relative, identity.sandboxOwner),

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
      const run = runHookOnce(context, nextRunId++, hook, runOptions, runOptions.agentId ?? defaultAgentId(hook));
      activeRuns.add(run);
      void run.finally(() => activeRuns.delete(run)).catch(() => undefined);
      return run;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...activeRuns, setupFinished]);
      // The unmount waits on the kernel; the fakes stop and the session's other files go meanwhile
      // (with the unmount, when they live in the holder's tmpfs).
      const own = (names: string[]): Promise<void> | undefined => (writableArea.holdsSession ? undefined : removeSessionFiles(dir, names));
      await Promise.all([
        redis
          .close()
          .catch(() => undefined)
          .then(() => own(['private'])),
        memoryPromise?.then(
          (store) => store.close(),
          () => undefined,
        ),
        writableArea.release(),
        own(['bin', 'etc', 'runs', 'seccomp.bpf']),
      ]);
      removeSessionDirSync(dir, writableArea.path);
      await removeSessionCgroup(basename(dir));
      release();
    },
  };
  return session;
}
