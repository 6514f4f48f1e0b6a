import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { runClaudeCodeEvent, type ClaudeCodeEventReport } from '../executor/claude-code.js';
import { claudeCodeRunToJson, displayPath, formatClaudeCodeRunHuman } from '../executor/claude-code-report.js';
import {
  createExecutorSession,
  NO_SANDBOX_WARNING,
  SandboxUnavailableError,
  type ExecutorSession,
  type ExecutorSessionOptions,
} from '../executor/session.js';
import { SANDBOX_PATHS } from '../executor/shims.js';
import { EVENT_NAMES, effectiveEvent, eventSpec, sessionEndOverrideMs } from '../runtimes/claude-code/contract.js';
import { buildEventInput } from '../runtimes/claude-code/event-input.js';
import { loadClaudeCodeTarget, type ClaudeCodeTarget } from '../runtimes/claude-code/handlers.js';
import { closestMatch } from '../text/suggest.js';
import { jsonDepth, MAX_REPORT_JSON_DEPTH } from '../text/json-safe.js';
import type { CliIO } from '../io.js';
import { parseCommandArgs } from './output-flags.js';
import { escapeControl, stringifyJson } from '../text/control-chars.js';

export const RUN_CLAUDE_CODE_HELP = `Usage: validate-agent-hooks run TARGET --event EVENT [options]

Run the Claude Code hooks of TARGET for one event the way Claude Code runs
them, inside the bubblewrap sandbox, and say what Claude Code would decide.
TARGET is a settings file (.claude/settings.json), an agent profile or a
SKILL.md with Claude Code hooks in its frontmatter, or a plugin's
hooks/hooks.json.

The handlers of EVENT whose matcher matches run in parallel: \`sh -c COMMAND\`
(exec form when the handler has \`args\`), the event's JSON on stdin,
CLAUDE_PROJECT_DIR (and CLAUDE_PLUGIN_ROOT/CLAUDE_PLUGIN_DATA for plugins) at
the sandbox's copy of the project, each handler's \`timeout\` in seconds
(default 600; 30 for UserPromptSubmit). http, mcp_tool, prompt and agent
handlers are listed as not run.

Event:
  --event EVENT            PreToolUse, PostToolUse, Stop, UserPromptSubmit, SessionStart, ...
  --tool NAME              The tool, for tool events (default Bash): Bash, Edit, Write, mcp__server__tool, ...
  --tool-input JSON|@FILE  The tool's input, e.g. '{"command":"rm -rf /"}' (default: a harmless call)
  --input JSON|@FILE       Fields merged over the whole stdin JSON, last (e.g. '{"permission_mode":"plan"}')
  --matcher-value VALUE    The value matchers are tested against, for events that match on something
                           other than a tool (source, trigger, notification_type, ...)

Run:
  --project DIR            The project copied into the sandbox (default: the directory holding .claude/,
                           or the plugin's root)
  --timeout-cap SECONDS    Stop any handler after this many seconds, whatever its own timeout
  --no-sandbox             Run the handlers unconfined on this machine (prints a warning; not recommended)

Output:
  --format NAME            human (default) or json:
                           {target, event, blocked, decision, reason, continue, input,
                            handlers: [{label, position, exitCode, timedOut, stdout, stderr,
                                        json, decision, why, problems}],
                            notRun, unmatched, problems, sandbox}
  --strict                 Exit 1 when a handler's output has an error-severity problem
  -h, --help               Show this help

Exit codes: 0 the handlers ran (whatever they decided), 1 with --strict when
their output has errors, 2 usage error or the sandbox is unavailable.
`;

export class ClaudeCodeUsageError extends Error {}

export interface EventRequest {
  event: string;
  tool?: string;
  toolInput?: Record<string, unknown>;
  input?: Record<string, unknown>;
  matcherValue?: string;
}

/** Checks an event request against the contract; the message names the nearest event for a typo. */
export function checkEventRequest(request: EventRequest): void {
  const spec = eventSpec(request.event);
  if (!spec) {
    const near = closestMatch(request.event, EVENT_NAMES);
    throw new ClaudeCodeUsageError(
      `unknown event '${request.event}'${near ? ` (did you mean ${near}?)` : ''}; events are case-sensitive: ${EVENT_NAMES.join(', ')}`,
    );
  }
  if (!spec.toolEvent && (request.tool !== undefined || request.toolInput !== undefined))
    throw new ClaudeCodeUsageError(`${request.event} is not a tool event: --tool and --tool-input apply to PreToolUse, PostToolUse, ...`);
  // The event's stdin is the input as JSON, whole: JSON.stringify recurses per level, and a tool's input nests a few.
  for (const [what, value] of [
    ['the tool input', request.toolInput],
    ['the event input', request.input],
  ] as const)
    if (value !== undefined && jsonDepth(value, MAX_REPORT_JSON_DEPTH) > MAX_REPORT_JSON_DEPTH)
      throw new ClaudeCodeUsageError(`${what} nests more than ${MAX_REPORT_JSON_DEPTH} levels deep; a hook's input nests a few`);
}

/** How `run --event` and `test` run events: a cap on each handler's timeout, and the SessionEnd budget the environment sets, as Claude Code started there would read it. */
export function eventRunOptions(io: CliIO, timeoutCapSeconds: number | undefined): { timeoutCapSeconds?: number; sessionEndMs?: number } {
  const sessionEndMs = sessionEndOverrideMs(io.env);
  return { ...(timeoutCapSeconds !== undefined ? { timeoutCapSeconds } : {}), ...(sessionEndMs !== undefined ? { sessionEndMs } : {}) };
}

/** Runs one event against a loaded target in an open session. */
export async function runEventRequest(
  session: ExecutorSession,
  target: ClaudeCodeTarget,
  asked: EventRequest,
  options: { timeoutCapSeconds?: number; agentId?: string; sessionEndMs?: number; outputBudgetBytes?: number } = {},
): Promise<ClaudeCodeEventReport> {
  const request = { ...asked, event: eventFor(target, asked.event) };
  const inSandbox = session.mode === 'bwrap';
  const projectDir = inSandbox ? SANDBOX_PATHS.workspace : await session.workspaceOf(options.agentId ?? 'claude-code');
  const homeDir = inSandbox ? SANDBOX_PATHS.home : resolve(projectDir, '..', 'home');
  // Hooks in an agent's frontmatter fire inside that subagent: its id and type are in every event.
  const agentFields = target.agentName !== undefined ? { agent_id: 'agent-a1b2c3', agent_type: target.agentName } : {};
  const { input, matcherValue } = buildEventInput({
    event: request.event,
    projectDir,
    homeDir,
    ...(request.tool !== undefined ? { tool: request.tool } : {}),
    ...(request.toolInput !== undefined ? { toolInput: request.toolInput } : {}),
    input: { ...agentFields, ...request.input },
    ...(request.matcherValue !== undefined ? { matcherValue: request.matcherValue } : {}),
  });
  return runClaudeCodeEvent(session, target.handlers, {
    event: request.event,
    input,
    matcherValue,
    projectRoot: target.projectRoot,
    ...(options.timeoutCapSeconds !== undefined ? { timeoutCapSeconds: options.timeoutCapSeconds } : {}),
    ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
    ...(options.sessionEndMs !== undefined ? { sessionEndMs: options.sessionEndMs } : {}),
    ...(options.outputBudgetBytes !== undefined ? { outputBudgetBytes: options.outputBudgetBytes } : {}),
  });
}

/** The event a target's hooks receive: `Stop` in agent frontmatter arrives as SubagentStop. */
export function eventFor(target: ClaudeCodeTarget, event: string): string {
  return target.source !== undefined ? effectiveEvent(event, target.source) : event;
}

/** A JSON object given inline or as @FILE (relative to `cwd`), with the parser's message on failure. */
export async function jsonObjectArgument(flag: string, text: string, cwd: string): Promise<Record<string, unknown>> {
  let source = text;
  let where = flag;
  if (text.startsWith('@')) {
    const path = resolve(cwd, text.slice(1));
    where = `${flag} ${text}`;
    try {
      source = await readFile(path, 'utf8');
    } catch (error) {
      throw new ClaudeCodeUsageError(
        `${where}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new ClaudeCodeUsageError(`${where}: invalid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ClaudeCodeUsageError(`${where}: expected a JSON object`);
  return value as Record<string, unknown>;
}

export async function runClaudeCodeCommand(
  args: string[],
  io: CliIO,
  dependencies: { createSession?: (options: ExecutorSessionOptions) => Promise<ExecutorSession> } = {},
): Promise<number> {
  // The output flags are accepted like every command's; the report has no colour to turn on or off.
  const parsed = parseCommandArgs(args, {
    event: { type: 'string' },
    tool: { type: 'string' },
    'tool-input': { type: 'string' },
    input: { type: 'string' },
    'matcher-value': { type: 'string' },
    project: { type: 'string' },
    'timeout-cap': { type: 'string' },
    'no-sandbox': { type: 'boolean' },
    format: { type: 'string', short: 'f' },
    strict: { type: 'boolean' },
  });
  if ('error' in parsed) return usage(io, parsed.error);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(RUN_CLAUDE_CODE_HELP);
    return 0;
  }
  const format = values.format ?? 'human';
  if (format !== 'human' && format !== 'json') return usage(io, `unknown --format '${format}' (expected human or json)`);
  if (positionals.length !== 1)
    return usage(io, positionals.length === 0 ? 'missing TARGET' : `expected one TARGET, got ${positionals.length}`);
  if (values.event === undefined) return usage(io, 'missing --event EVENT');

  const request: EventRequest = { event: values.event };
  let timeoutCapSeconds: number | undefined;
  try {
    if (values.tool !== undefined) request.tool = values.tool;
    if (values['tool-input'] !== undefined) request.toolInput = await jsonObjectArgument('--tool-input', values['tool-input'], io.cwd);
    if (values.input !== undefined) request.input = await jsonObjectArgument('--input', values.input, io.cwd);
    if (values['matcher-value'] !== undefined) request.matcherValue = values['matcher-value'];
    if (values['timeout-cap'] !== undefined) {
      timeoutCapSeconds = Number(values['timeout-cap']);
      if (!(timeoutCapSeconds > 0))
        throw new ClaudeCodeUsageError(`invalid --timeout-cap '${values['timeout-cap']}' (expected a positive number of seconds)`);
    }
    checkEventRequest(request);
  } catch (error) {
    if (error instanceof ClaudeCodeUsageError) return usage(io, error.message);
    throw error;
  }

  const shown = positionals[0]!;
  const file = resolve(io.cwd, shown);
  const loaded = await openTarget(file, shown, values.project !== undefined ? resolve(io.cwd, values.project) : undefined, io);
  if (typeof loaded === 'number') return loaded;

  const noSandbox = values['no-sandbox'] ?? false;
  const session = await openSession(io, loaded, noSandbox, dependencies.createSession);
  if (typeof session === 'number') return session;
  let report: ClaudeCodeEventReport;
  try {
    report = await runEventRequest(session, loaded, request, eventRunOptions(io, timeoutCapSeconds));
  } finally {
    await session.close();
  }
  if (report.event !== request.event)
    io.stderr(`note: ${request.event} hooks in agent frontmatter run as ${report.event}; ran ${report.event}.\n`);
  const json = claudeCodeRunToJson(report, displayPath(file, io.cwd), io.cwd);
  io.stdout(format === 'json' ? `${stringifyJson(json, 2)}\n` : formatClaudeCodeRunHuman(json));
  if (noSandbox) io.stderr(`${NO_SANDBOX_WARNING}\n`);
  return values.strict && json.problems.some((p) => p.severity === 'error') ? 1 : 0;
}

/** Loads a target and checks it has Claude Code hooks; a number is the exit code of a failure already reported. */
export async function openTarget(
  file: string,
  shown: string,
  project: string | undefined,
  io: CliIO,
  prefix = 'run',
): Promise<ClaudeCodeTarget | number> {
  const isFile = await stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) return usage(io, `${escapeControl(shown)}: no such file`, prefix);
  if (project !== undefined) {
    const isDir = await stat(project).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) return usage(io, `--project ${escapeControl(project)} is not a directory`, prefix);
  }
  const target = await loadClaudeCodeTarget(file, project);
  // User settings (~/.claude/settings.json) belong to no project: Claude Code runs them in the one at hand.
  if (project === undefined && target.projectRoot === homedir() && target.pluginRoot === undefined) target.projectRoot = io.cwd;
  const errors = target.diagnostics.filter((d) => d.severity === 'error');
  if (target.handlers.length === 0) {
    const why = errors.map((d) => `\n  ${escapeControl(shown)}:${d.line}:${d.column} ${escapeControl(d.message)}`).join('');
    return usage(
      io,
      `${escapeControl(shown)} has no Claude Code hooks (settings \`hooks\`, frontmatter \`hooks:\` with events, or a plugin's hooks/hooks.json)${why}`,
      prefix,
    );
  }
  return target;
}

export async function openSession(
  io: CliIO,
  target: ClaudeCodeTarget,
  noSandbox: boolean,
  create: ((options: ExecutorSessionOptions) => Promise<ExecutorSession>) | undefined,
  prefix = 'run',
): Promise<ExecutorSession | number> {
  if (noSandbox) io.stderr(`${NO_SANDBOX_WARNING}\n`);
  try {
    return await (create ?? createExecutorSession)({ sandbox: noSandbox ? 'none' : 'bwrap', workspaceSeed: target.projectRoot });
  } catch (error) {
    const message = (error as Error).message;
    io.stderr(
      `validate-agent-hooks ${prefix}: ${error instanceof SandboxUnavailableError ? 'cannot sandbox the hooks: ' : ''}${message}\n`,
    );
    return 2;
  }
}

function usage(io: CliIO, message: string, prefix = 'run'): number {
  io.stderr(`validate-agent-hooks ${prefix}: ${message}\nTry 'validate-agent-hooks ${prefix} --help'.\n`);
  return 2;
}
