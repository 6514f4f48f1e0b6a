import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { loadProfileHooks } from '../hooks/load.js';
import type { HookScript } from '../hooks/types.js';
import { HOOK_TIMEOUT_MS } from '../runtime/contract.js';
import { parseEnvAssignment } from '../executor/env.js';
import { formatRunHuman, runToJson } from '../executor/report.js';
import { DEFAULT_LIMITS, type SandboxLimits } from '../executor/sandbox.js';
import {
  createExecutorSession,
  defaultAgentId,
  NO_SANDBOX_WARNING,
  SandboxUnavailableError,
  type ExecutorSession,
  type ExecutorSessionOptions,
  type HookRunResult,
} from '../executor/session.js';
import { escapeControl, stringifyJson } from '../text/control-chars.js';
import type { CliIO } from '../io.js';
import { OUTPUT_FLAGS_HELP, parseCommandArgs } from './output-flags.js';

export const RUN_HELP = `Usage: validate-agent-hooks run PROFILE --hook NAME [options]
       validate-agent-hooks run TARGET --event EVENT [options]   Claude Code hooks (see: run --event X --help)

Run one hook of an agent profile the way the agent runtime runs it (bash, the
runtime's environment variables, the agent's workspace as working directory,
a 5 s timeout, failures non-fatal), inside a bubblewrap sandbox, against an
embedded in-memory Redis and SQLite memory, and print what it did.

Hook:
  --hook NAME              The hook to run: on_blocking_start, pre, lifecycle.init, ...
                           (without it, the profile's hooks are listed)

Environment (the runtime's variables get sensible defaults; see --format json's env):
  --agent-id ID            AGENT_ID, and who the hook is to /sqlite-memory (default: PROFILE-NAME-1)
  --task TEXT              TASK
  --swarm-id ID            SWARM_ID, and the swarm whose swarm-level memory the hook shares
  --iteration N            ITERATION
  --phase NAME             PHASE
  --env KEY=VALUE          Set any variable (repeatable; applied last)

Run:
  --timeout-ms N           Kill the sandbox after N ms (default ${HOOK_TIMEOUT_MS}, the runtime's)
  --workspace DIR          Copy DIR into the fresh workspace first (DIR itself is never touched)
  --memory-db FILE         Save the memory database (SQLite) to FILE after the run
  --redis-url URL          Use a real Redis (redis://host:port/db or unix:///path.sock) instead of the fake,
                           behind a filter: that database only, data commands only (see src/executor/README.md)
  --no-sandbox             Run the hook unconfined on this machine (prints a warning; not recommended)

Limits (per run; sizes take K, M or G):
  --limit-cpu SECONDS      CPU time per process (default: timeout + 1 s)
  --limit-file-size SIZE   Largest file a process may write (default ${DEFAULT_LIMITS.fileSizeBytes / 1024 / 1024}M)
  --limit-procs N          Processes and threads (default ${DEFAULT_LIMITS.processes})
  --limit-output SIZE      stdout and stderr kept, each (default ${DEFAULT_LIMITS.outputBytes / 1024 / 1024}M)
  --limit-disk SIZE        Disk the run may fill in its directories (default ${DEFAULT_LIMITS.diskBytes / 1024 / 1024}M)
  --limit-memory SIZE      Memory of the whole sandbox, when run as root with cgroups (default ${DEFAULT_LIMITS.memoryBytes / 1024 / 1024 / 1024}G;
                           each process is also held to ${DEFAULT_LIMITS.dataBytes / 1024 / 1024 / 1024}G of data)

Output:
  --format NAME            human (default) or json:
                           {profile, hook, agentId, exitCode, timedOut, durationMs, stdout, stderr,
                            operations: [{t, kind: redis|memory|event|command, ...}],
                            memory: [{level, key, owner, value}], events: [{type, priority, data}],
                            limitsHit, sandbox, ...}
  --strict                 Exit 1 when the hook fails or times out
${OUTPUT_FLAGS_HELP}                           (accepted as by the linter; this output has no colour)
  -h, --help               Show this help

/sqlite-memory, /eventbus and the other slash commands have no public
implementation; the executor's fakes follow the runtime's documentation.

Exit codes: 0 the hook ran (whatever its exit status), 1 with --strict when it
failed or timed out, 2 usage error or the sandbox is unavailable.
`;

export type ProfileHookLoader = (file: string) => Promise<{ hooks: HookScript[]; diagnostics: Diagnostic[] }>;

export interface RunCommandDependencies {
  loadProfileHooks?: ProfileHookLoader;
  createSession?: (options: ExecutorSessionOptions) => Promise<ExecutorSession>;
}

class RunUsageError extends Error {}

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

const defaultLoader: ProfileHookLoader = loadProfileHooks;

export async function runCommand(args: string[], io: CliIO, dependencies: RunCommandDependencies = {}): Promise<number> {
  // `--event` names a Claude Code event: that runtime's hooks, with its own options.
  if (args.some((arg) => arg === '--event' || arg.startsWith('--event=')))
    return (await import('./run-claude-code.js')).runClaudeCodeCommand(args, io, dependencies);
  let options: RunOptions;
  try {
    options = parseRunArgs(args);
  } catch (error) {
    io.stderr(`validate-agent-hooks run: ${(error as Error).message}\nTry 'validate-agent-hooks run --help'.\n`);
    return EXIT_USAGE;
  }
  if (options.help) {
    io.stdout(RUN_HELP);
    return EXIT_OK;
  }

  const profilePath = resolve(io.cwd, options.profile);
  // The session is made while the profile is read; a bad profile still speaks first.
  const { isWorkspace, sessionMade } = startSession(options, io, dependencies);
  const discard = (): Promise<void> => sessionMade.then((made) => made?.close()).catch(() => undefined);
  const hook = await findHook(profilePath, options.profile, options.hook, dependencies.loadProfileHooks ?? defaultLoader, io).catch(
    async (error: unknown) => {
      await discard();
      throw error;
    },
  );
  if (typeof hook === 'number') {
    await discard();
    return hook;
  }
  if (!(await isWorkspace)) {
    io.stderr(`validate-agent-hooks run: --workspace ${escapeControl(options.workspace ?? '')} is not a directory\n`);
    return EXIT_USAGE;
  }

  if (options.noSandbox) io.stderr(banner(NO_SANDBOX_WARNING));
  const session = await sessionMade.then(
    (made) => made!,
    (error: unknown) => {
      const message = (error as Error).message;
      io.stderr(`validate-agent-hooks run: ${error instanceof SandboxUnavailableError ? 'cannot sandbox the hook: ' : ''}${message}\n`);
      return undefined;
    },
  );
  if (!session) return EXIT_USAGE;

  let result: HookRunResult;
  try {
    const agentId = options.agentId ?? options.env.AGENT_ID ?? defaultAgentId(hook);
    const swarmId = options.swarmId ?? options.env.SWARM_ID;
    result = await session.runHook(hook, {
      agentId,
      ...(swarmId !== undefined ? { swarmId } : {}),
      ...(options.task !== undefined ? { task: options.task } : {}),
      ...(options.iteration !== undefined ? { iteration: options.iteration } : {}),
      ...(options.phase !== undefined ? { phase: options.phase } : {}),
      env: options.env,
    });
    result = { ...result, profile: options.profile };
    if (options.memoryDb) await (await session.memory()).saveTo(resolve(io.cwd, options.memoryDb));
  } finally {
    await session.close();
  }

  io.stdout(options.format === 'json' ? `${stringifyJson(runToJson(result), 2)}\n` : formatRunHuman(result));
  if (options.memoryDb && options.format !== 'json')
    io.stderr(`Memory database saved to ${options.memoryDb} (inspect with: sqlite3 ${options.memoryDb} 'SELECT * FROM memory')\n`);
  if (options.noSandbox) io.stderr(banner(NO_SANDBOX_WARNING));
  if (result.error) return EXIT_USAGE;
  return options.strict && result.failed ? EXIT_FAILED : EXIT_OK;
}

/**
 * Starts making the session (its tmpfs, its fakes) at once, to be ready when
 * the profile has been read; nothing when --workspace is not a directory.
 */
function startSession(
  options: RunOptions,
  io: CliIO,
  dependencies: RunCommandDependencies,
): { isWorkspace: Promise<boolean>; sessionMade: Promise<ExecutorSession | undefined> } {
  const workspace = options.workspace === undefined ? undefined : resolve(io.cwd, options.workspace);
  const isWorkspace =
    workspace === undefined
      ? Promise.resolve(true)
      : stat(workspace).then(
          (s) => s.isDirectory(),
          () => false,
        );
  const sessionMade = isWorkspace.then((ok) =>
    ok
      ? (dependencies.createSession ?? createExecutorSession)({
          sandbox: options.noSandbox ? 'none' : 'bwrap',
          timeoutMs: options.timeoutMs,
          limits: options.limits,
          ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
          ...(workspace ? { workspaceSeed: workspace } : {}),
        })
      : undefined,
  );
  // Handled where it is awaited; this only keeps a failure from counting as unhandled meanwhile.
  sessionMade.catch(() => undefined);
  return { isWorkspace, sessionMade };
}

function banner(text: string): string {
  const rule = '!'.repeat(78);
  return `${rule}\n${text}\n${rule}\n`;
}

async function findHook(
  profilePath: string,
  shownPath: string,
  hookName: string | undefined,
  load: ProfileHookLoader,
  io: CliIO,
): Promise<HookScript | number> {
  const isFile = await stat(profilePath).then(
    (s) => s.isFile(),
    () => false,
  );
  // The path is the caller's, maybe a file name from an untrusted tree: shown escaped, as every path is.
  const shown = escapeControl(shownPath);
  if (!isFile) {
    io.stderr(`validate-agent-hooks run: ${shown}: no such file\n`);
    return EXIT_USAGE;
  }
  const { hooks, diagnostics } = await load(profilePath);
  const names = hooks.map((hook) => escapeControl(hook.name));
  const available =
    names.length > 0
      ? `hooks in ${shown}: ${names.join(', ')}`
      : `${shown} has no runnable claude-flow hooks (Claude Code hooks run with --event EVENT)`;
  if (hookName === undefined) {
    io.stderr(`validate-agent-hooks run: missing --hook NAME; ${available}\n`);
    return EXIT_USAGE;
  }
  const hook = hooks.find((candidate) => candidate.name === hookName);
  if (!hook) {
    const problems = diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `  ${shown}:${d.line}:${d.column} ${escapeControl(d.message)}`);
    io.stderr(
      `validate-agent-hooks run: no hook '${escapeControl(hookName)}'; ${available}\n${problems.length > 0 ? `${problems.join('\n')}\n` : ''}`,
    );
    return EXIT_USAGE;
  }
  return hook;
}

interface RunOptions {
  help: boolean;
  profile: string;
  hook?: string;
  format: 'human' | 'json';
  env: Record<string, string>;
  agentId?: string;
  task?: string;
  swarmId?: string;
  iteration?: string;
  phase?: string;
  timeoutMs: number;
  workspace?: string;
  memoryDb?: string;
  redisUrl?: string;
  noSandbox: boolean;
  strict: boolean;
  limits: Partial<SandboxLimits>;
}

export function parseRunArgs(args: string[]): RunOptions {
  const parsed = parseCommandArgs(args, {
    hook: { type: 'string' },
    format: { type: 'string', short: 'f' },
    env: { type: 'string', multiple: true },
    'agent-id': { type: 'string' },
    task: { type: 'string' },
    'swarm-id': { type: 'string' },
    iteration: { type: 'string' },
    phase: { type: 'string' },
    'timeout-ms': { type: 'string' },
    workspace: { type: 'string' },
    'memory-db': { type: 'string' },
    'redis-url': { type: 'string' },
    'no-sandbox': { type: 'boolean' },
    strict: { type: 'boolean' },
    'limit-cpu': { type: 'string' },
    'limit-file-size': { type: 'string' },
    'limit-procs': { type: 'string' },
    'limit-output': { type: 'string' },
    'limit-disk': { type: 'string' },
    'limit-memory': { type: 'string' },
  });
  if ('error' in parsed) throw new RunUsageError(parsed.error);
  const { values, positionals } = parsed;
  if (values.help)
    return { help: true, profile: '', format: 'human', env: {}, timeoutMs: HOOK_TIMEOUT_MS, noSandbox: false, strict: false, limits: {} };
  if (positionals.length !== 1)
    throw new RunUsageError(
      positionals.length === 0 ? 'missing PROFILE' : `expected one PROFILE, got ${positionals.length}: ${positionals.join(' ')}`,
    );
  const format = values.format ?? 'human';
  if (format !== 'human' && format !== 'json') throw new RunUsageError(`unknown --format '${format}' (expected human or json)`);

  const env: Record<string, string> = {};
  for (const assignment of values.env ?? []) {
    const parsedAssignment = parseEnvAssignment(assignment);
    if (!parsedAssignment) throw new RunUsageError(`invalid --env '${assignment}' (expected KEY=VALUE)`);
    env[parsedAssignment.key] = parsedAssignment.value;
  }
  if (values.iteration !== undefined && !/^\d+$/.test(values.iteration))
    throw new RunUsageError(`invalid --iteration '${values.iteration}' (expected a whole number)`);

  const limits: Partial<SandboxLimits> = {};
  if (values['limit-cpu'] !== undefined) limits.cpuSeconds = positiveInteger('--limit-cpu', values['limit-cpu']);
  if (values['limit-procs'] !== undefined) limits.processes = positiveInteger('--limit-procs', values['limit-procs']);
  if (values['limit-file-size'] !== undefined) limits.fileSizeBytes = size('--limit-file-size', values['limit-file-size']);
  if (values['limit-output'] !== undefined) limits.outputBytes = size('--limit-output', values['limit-output']);
  if (values['limit-disk'] !== undefined) limits.diskBytes = size('--limit-disk', values['limit-disk']);
  if (values['limit-memory'] !== undefined) limits.memoryBytes = size('--limit-memory', values['limit-memory']);

  return {
    help: false,
    profile: positionals[0]!,
    ...(values.hook !== undefined ? { hook: values.hook } : {}),
    format,
    env,
    ...(values['agent-id'] !== undefined ? { agentId: nonEmpty('--agent-id', values['agent-id']) } : {}),
    ...(values.task !== undefined ? { task: values.task } : {}),
    ...(values['swarm-id'] !== undefined ? { swarmId: nonEmpty('--swarm-id', values['swarm-id']) } : {}),
    ...(values.iteration !== undefined ? { iteration: values.iteration } : {}),
    ...(values.phase !== undefined ? { phase: values.phase } : {}),
    timeoutMs: values['timeout-ms'] !== undefined ? positiveInteger('--timeout-ms', values['timeout-ms']) : HOOK_TIMEOUT_MS,
    ...(values.workspace !== undefined ? { workspace: values.workspace } : {}),
    ...(values['memory-db'] !== undefined ? { memoryDb: values['memory-db'] } : {}),
    ...(values['redis-url'] !== undefined ? { redisUrl: values['redis-url'] } : {}),
    noSandbox: values['no-sandbox'] ?? false,
    strict: values.strict ?? false,
    limits,
  };
}

function nonEmpty(flag: string, value: string): string {
  if (value === '') throw new RunUsageError(`${flag} must not be empty`);
  return value;
}

function positiveInteger(flag: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw new RunUsageError(`invalid ${flag} '${text}' (expected a positive whole number)`);
  return Number(text);
}

function size(flag: string, text: string): number {
  const match = /^(\d+)([KMG]?)B?$/i.exec(text);
  if (!match || Number(match[1]) <= 0) throw new RunUsageError(`invalid ${flag} '${text}' (expected a size such as 512K, 64M or 1G)`);
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[match[2]!.toUpperCase() as '' | 'K' | 'M' | 'G'];
  return Number(match[1]) * unit;
}
