import { basename, join } from 'node:path';
import type { HookScript } from '../hooks/types.js';
import { createRunCgroup, primeCgroupMoves, sessionCgroup, type RunCgroup } from './cgroup.js';
import { buildHookEnvironment, type HookContext } from './env.js';
import { HOST_LIMITS } from './host-limits.js';
import { superviseProcess, type ExecutionOutcome, type SuperviseOptions } from './execute.js';
import { openRunChannels, type RunChannels } from './run-channels.js';
import type { AgentDirs, RunContext } from './run-context.js';
import { bwrapArguments, environmentFileText, hookLauncherArgs, RUN_FILES, type SandboxLimits } from './sandbox.js';
import { noSandboxLayout, ownedBytes, redisCliLocations } from './session-layout.js';
import { NO_SANDBOX_WARNING, type HookRunResult, type RunHookOptions } from './session-types.js';
import { EVENTBUS_COMMAND_NAME, KNOWN_SLASH_COMMANDS, MEMORY_COMMAND_NAME, SANDBOX_PATHS, slashCommandsIn } from './shims.js';

/**
 * One hook run in a session: its directory and sockets, the process (bwrap,
 * or bash itself with --no-sandbox) supervised to its end, and the result
 * with what the hook did to the shared world.
 */

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

interface RunPlan {
  runId: number;
  hook: HookScript;
  options: RunHookOptions;
  agentId: string;
  swarmId: string;
  timeoutMs: number;
  limits: SandboxLimits;
  runDir: string;
  envFile: string;
  agent: AgentDirs;
}

interface Launched {
  outcome: ExecutionOutcome;
  env: Record<string, string>;
  /** When the hook's clock started on the session's clock (refined from the outcome's process start). */
  startedAt: number;
}

export async function runHookOnce(
  ctx: RunContext,
  runId: number,
  hook: HookScript,
  options: RunHookOptions,
  agentId: string,
): Promise<HookRunResult> {
  const timeoutMs = options.timeoutMs ?? ctx.defaultTimeoutMs;
  if (hook.text.includes(MEMORY_COMMAND_NAME)) void ctx.memory();
  const runDir = join(ctx.paths.dir, 'runs', String(runId));
  const limits = {
    ...ctx.limits,
    cpuSeconds: ctx.options.limits?.cpuSeconds ?? Math.ceil(timeoutMs / 1000) + 1,
    outputBytes: Math.min(ctx.limits.outputBytes, options.outputBytes ?? Infinity),
  };
  // The run's control group, its directory and the agent's are made side by side.
  const cgroupMade = ctx.mode === 'bwrap' ? runCgroup(ctx, runId, limits.memoryBytes) : Promise.resolve(undefined);
  const removeCgroup = (): Promise<void> => cgroupMade.then((cgroup) => cgroup?.remove());
  let plan: RunPlan;
  try {
    const [agent] = await Promise.all([ctx.agentDirsFor(agentId), makeRunDir(ctx, runDir)]);
    plan = {
      runId,
      hook,
      options,
      agentId,
      swarmId: options.swarmId ?? ctx.options.swarmId ?? 'swarm-local',
      timeoutMs,
      limits,
      runDir,
      envFile: join(runDir, RUN_FILES.env),
      agent,
    };
  } catch (error) {
    await removeCgroup();
    throw error;
  }
  // The run's sockets open once the session is fully set up; a sandboxed run's while its sandbox starts.
  let channelsOpened: Promise<RunChannels> | undefined;
  const openChannels = (): Promise<RunChannels> => (channelsOpened ??= ctx.finishSetup().then(() => openRunChannels(ctx, plan)));
  const warnings = runWarnings(ctx);
  let launched: Launched;
  try {
    launched =
      ctx.mode === 'bwrap'
        ? await launchSandboxed(ctx, plan, openChannels, cgroupMade)
        : await launchUnsandboxed(ctx, plan, await openChannels(), warnings);
  } finally {
    // The run's files go while its sockets close (a socket's file is not needed to close it).
    await Promise.all([
      channelsOpened?.then(
        (channels) => channels.close(),
        () => undefined,
      ),
      removeCgroup(),
      ctx.fs.remove(runDir),
    ]);
  }
  // A failure to open them was thrown above, by the launch; a sandbox that never started never asked for them.
  const refused = channelsOpened ? (await channelsOpened).refusedConnections() : 0;
  if (refused > 0)
    warnings.push(
      `${refused} connection(s) to the run's Redis and control sockets were closed unserved: each socket serves at most ${HOST_LIMITS.runSocketConnections} open at once`,
    );
  return runResult(ctx, plan, launched, warnings, await cgroupMade);
}

async function makeRunDir(ctx: RunContext, runDir: string): Promise<void> {
  await ctx.fs.mkdir(runDir, 0o700);
  const owner = ctx.identity.sandboxOwner;
  if (owner) await ctx.fs.chown(runDir, owner.uid, owner.gid);
}

/** The run's control group, in the session's (made when the session was). */
function runCgroup(ctx: RunContext, runId: number, memoryBytes: number): Promise<RunCgroup | undefined> {
  const sessionName = basename(ctx.paths.dir);
  return sessionCgroup(sessionName, memoryBytes).then((parent) =>
    createRunCgroup(`vah-${sessionName}-${runId}`, memoryBytes, parent, ctx.identity.sandboxOwner),
  );
}

function runWarnings(ctx: RunContext): string[] {
  const warnings: string[] = [];
  if (!ctx.writableArea.bounded && ctx.writableArea.unboundedReason) warnings.push(ctx.writableArea.unboundedReason);
  if (ctx.mode === 'bwrap' && !ctx.seccompFile)
    warnings.push(`no seccomp filter on this architecture (${process.arch}); see src/executor/seccomp.ts`);
  return warnings;
}

function hookContext(plan: RunPlan): HookContext {
  const { options } = plan;
  return {
    agentId: plan.agentId,
    swarmId: plan.swarmId,
    ...(options.task !== undefined ? { task: options.task } : {}),
    ...(options.iteration !== undefined ? { iteration: options.iteration } : {}),
    ...(options.phase !== undefined ? { phase: options.phase } : {}),
  };
}

/** What superviseProcess needs whichever way the hook is started. */
function commonSupervision(ctx: RunContext, plan: RunPlan, hostBusyMs: () => number): Omit<SuperviseOptions, 'request' | 'containment'> {
  const { agent } = plan;
  const writableRoots = [agent.workspace, agent.home, ctx.paths.tmpDir];
  const area = ctx.writableArea;
  return {
    runner: ctx.runner,
    clock: ctx.clock,
    timeoutMs: plan.timeoutMs,
    limits: plan.limits,
    writableRoots,
    // A size-limited tmpfs is the budget itself; without one (not root), the sandbox's own bytes are counted.
    ...(area.bounded ? { diskFull: () => area.full() } : { diskUsage: () => ownedBytes(writableRoots) }),
    hostBusyMs,
    ...(plan.options.onProcessStart ? { onProcessStart: plan.options.onProcessStart } : {}),
    abortSignal: ctx.abortSignal,
    ...(plan.options.stdin !== undefined ? { stdin: plan.options.stdin } : {}),
  };
}

function slashNamesFor(hook: HookScript): string[] {
  return [...new Set([MEMORY_COMMAND_NAME, EVENTBUS_COMMAND_NAME, ...KNOWN_SLASH_COMMANDS, ...slashCommandsIn(hook.text)])];
}

/**
 * Starts the sandbox as soon as what it binds is there, and lets it go on at
 * its gate once what the hook reaches through it is ready: the run's sockets,
 * its environment file and its commands' functions, made (with the rest of
 * the session's set-up, for a first run) while bwrap makes the sandbox on the
 * other core. A failure there stops the waiting sandbox and is thrown.
 */
async function launchSandboxed(
  ctx: RunContext,
  plan: RunPlan,
  openChannels: () => Promise<RunChannels>,
  cgroupMade: Promise<RunCgroup | undefined>,
): Promise<Launched> {
  const { options, agent } = plan;
  const primed = primeCgroupMoves();
  const env = {
    BASH_ENV: SANDBOX_PATHS.functions,
    ...SHELL_LEVEL,
    ...buildHookEnvironment({
      hookName: plan.hook.name,
      context: hookContext(plan),
      ...(options.env ? { overrides: options.env } : {}),
      ...(options.runtimeEnv ? { runtimeEnv: options.runtimeEnv } : {}),
    }),
  };
  const slashNames = slashNamesFor(plan.hook);
  let channels: RunChannels | undefined;
  let hostReady: Promise<unknown> | undefined;
  const gate = (): Promise<unknown> =>
    (hostReady ??= Promise.all([
      openChannels().then((opened) => void (channels = opened)),
      ctx.finishSetup().then(() => ctx.ensureFunctions(slashNames)),
      ctx.fs.writeFile(plan.envFile, environmentFileText(env), 0o644),
    ]));
  const args = bwrapArguments({
    script: plan.hook.text,
    limits: plan.limits,
    workspaceDir: agent.workspace,
    homeDir: agent.home,
    tmpDir: ctx.paths.tmpDir,
    etcDir: ctx.paths.etcDir,
    etcBinds: ctx.etcBinds,
    binDir: ctx.paths.binDir,
    runDir: plan.runDir,
    realRedisCli: ctx.realRedisCli,
    redisCliLocations: redisCliLocations(ctx.realRedisCli),
    slashCommands: slashNames,
    infoFd: 3,
    ...(ctx.seccompFile ? { seccompFd: 6 } : {}),
    ...(options.command ? { argv: options.command } : {}),
    startFd: 4,
    gateFd: 5,
  });
  const [cgroup] = await Promise.all([cgroupMade, primed]);
  const startedAt = ctx.trace.now();
  const outcome = await superviseProcess({
    ...commonSupervision(ctx, plan, () => channels?.hostBusyMs() ?? 0),
    // bwrap and the shell that starts it get nothing of the hook's environment (it travels in envFile).
    request: {
      command: ctx.bwrap?.path ?? 'bwrap',
      args,
      env: { PATH: '/usr/bin:/bin' },
      cwd: agent.workspace,
      extraPipes: 3,
      ...(ctx.identity.sandboxOwner ?? {}),
    },
    startPipe: 1,
    gatePipe: 2,
    gate,
    containment: { kind: 'pid-namespace', infoPipe: 3 },
    ...(ctx.seccompFile ? { openFiles: [{ fd: 6, path: ctx.seccompFile }] } : {}),
    ...(cgroup ? { cgroup } : {}),
  });
  // A failure of the host's part stopped the sandbox at its gate; it is the run's error.
  await hostReady;
  return { outcome, env, startedAt };
}

async function launchUnsandboxed(ctx: RunContext, plan: RunPlan, channels: RunChannels, warnings: string[]): Promise<Launched> {
  const { options, agent } = plan;
  warnings.push(NO_SANDBOX_WARNING);
  // Loaded here, not at the top: node:crypto costs 3-4 ms to load, and only this mode uses it.
  const { randomBytes } = await import('node:crypto');
  const markerValue = randomBytes(8).toString('hex');
  const layout = await noSandboxLayout({
    runDir: plan.runDir,
    agent,
    tmpDir: ctx.paths.tmpDir,
    realRedisCli: ctx.realRedisCli,
    controlSocket: channels.controlSocket,
    redisSocket: channels.redisSocket,
    slashNames: slashNamesFor(plan.hook),
  });
  const env = buildHookEnvironment({
    hookName: plan.hook.name,
    context: hookContext(plan),
    layout: layout.shell,
    ...(options.env ? { overrides: options.env } : {}),
    ...(options.runtimeEnv ? { runtimeEnv: options.runtimeEnv } : {}),
  });
  const marker = `VAH_RUN_MARKER=${markerValue}`;
  await ctx.fs.writeFile(
    plan.envFile,
    environmentFileText({ BASH_ENV: layout.prelude, ...SHELL_LEVEL, ...env, VAH_RUN_MARKER: markerValue }),
    0o600,
  );
  const startedAt = ctx.trace.now();
  const outcome = await superviseProcess({
    ...commonSupervision(ctx, plan, channels.hostBusyMs),
    request: {
      command: '/bin/bash',
      args: hookLauncherArgs(plan.hook.text, plan.envFile, plan.limits, { processLimit: false, argv: options.command, startFd: 3 }),
      env: { PATH: '/usr/bin:/bin', VAH_RUN_MARKER: markerValue },
      cwd: agent.workspace,
      detached: true,
      extraPipes: 1,
    },
    startPipe: 0,
    containment: { kind: 'environment-marker', marker },
  });
  return { outcome, env, startedAt };
}

async function runResult(
  ctx: RunContext,
  plan: RunPlan,
  launched: Launched,
  warnings: string[],
  cgroup: RunCgroup | undefined,
): Promise<HookRunResult> {
  const { outcome } = launched;
  const { trace, clock, mode, identity } = ctx;
  // The run's start on the session's clock is when the hook's process started.
  const startedAt =
    outcome.processStartedAt !== undefined ? Math.max(0, trace.now() - (clock.now() - outcome.processStartedAt)) : launched.startedAt;
  for (const note of outcome.notes ?? []) warnings.push(note);
  if (outcome.survivors.length > 0)
    warnings.push(`${outcome.survivors.length} process(es) outlived the hook and were killed: ${outcome.survivors.join(', ')}`);
  return {
    runId: plan.runId,
    profile: plan.hook.file,
    hook: plan.hook.name,
    agentId: plan.agentId,
    swarmId: plan.swarmId,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    failed: outcome.timedOut || outcome.exitCode !== 0,
    durationMs: Math.round(outcome.durationMs * 10) / 10,
    ...(outcome.hostMs !== undefined ? { hostMs: Math.round(outcome.hostMs * 10) / 10 } : {}),
    startedAt,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    stdoutBytes: outcome.stdoutBytes,
    stderrBytes: outcome.stderrBytes,
    env: launched.env,
    operations: trace.forRun(plan.runId),
    memory: await ctx.memoryEntries(),
    events: ctx.events.filter((event) => event.runId === plan.runId),
    limitsHit: outcome.limitsHit,
    sandbox: {
      mode,
      ...(ctx.bwrap?.version ? { bwrapVersion: ctx.bwrap.version } : {}),
      hostUid: mode === 'bwrap' ? identity.hostUid : (process.getuid?.() ?? 0),
      hostGid: mode === 'bwrap' ? identity.hostGid : (process.getgid?.() ?? 0),
      limits: plan.limits,
      timeoutMs: plan.timeoutMs,
      ...(outcome.pidNamespace ? { pidNamespace: outcome.pidNamespace } : {}),
      ...(outcome.initPid ? { initPid: outcome.initPid } : {}),
      cgroup: cgroup ? (cgroup.version === 2 ? 'v2' : 'v1') : null,
      survivors: outcome.survivors,
      warnings,
    },
    ...(outcome.startError ? { error: outcome.startError } : {}),
  };
}
