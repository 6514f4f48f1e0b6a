import { Limiter } from '../limiter.js';
import { own } from '../records.js';
import { dirname, relative } from 'node:path';
import type { HookScript } from '../hooks/types.js';
import {
  deduplicationKey,
  isMcpServerOnly,
  effectiveEvent,
  envFor,
  handlerTimeoutSeconds,
  SUBPROCESS_ENV,
} from '../runtimes/claude-code/contract.js';
import { SAMPLE_SESSION_ID } from '../runtimes/claude-code/event-input.js';
import { handlerLabel, type ClaudeCodeHandler } from '../runtimes/claude-code/handler.js';
import { evaluateIf } from '../runtimes/claude-code/if-rule.js';
import { describeMatcher, matcherForm, matcherMatches } from '../runtimes/claude-code/matcher.js';
import { interpretHandler, mergeVerdicts, type EventVerdict, type HandlerVerdict } from '../runtimes/claude-code/verdict.js';
import type { ExecutorSession, HookRunResult } from './session.js';
import { SANDBOX_PATHS } from './shims.js';

/**
 * Runs the handlers of one Claude Code event the way Claude Code does
 * (../shared/runtimes/claude-code-hooks.md §3): the matching `command`
 * handlers all at once, each `sh -c COMMAND` (or, with `args`, the program
 * itself with no shell), the event JSON on stdin, CLAUDE_PROJECT_DIR at the
 * sandbox's copy of the project, the handler's own timeout in seconds. Each
 * run goes through the executor session like a claude-flow hook: the same
 * bubblewrap sandbox, limits and trace.
 */

export const CLAUDE_CODE_AGENT_ID = 'claude-code';

export interface ClaudeCodeEventOptions {
  event: string;
  /** The stdin JSON (event-input.ts builds it with paths inside the sandbox). */
  input: Record<string, unknown>;
  matcherValue: string | undefined;
  /** Host directory copied into the sandbox as the project (the session's workspace seed). */
  projectRoot: string;
  /** Applied to every handler instead of its own timeout (seconds), e.g. to cap a 600 s default. */
  timeoutCapSeconds?: number;
  /** Whose workspace (copy of the project) the handlers share; runs under another id get a fresh copy. */
  agentId?: string;
  /** The SessionEnd budget CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS sets, in milliseconds (contract: sessionEndOverrideMs). */
  sessionEndMs?: number;
  /** Bytes of stdout and stderr kept of all the event's handlers together (default OUTPUT_BUDGET_BYTES): a table of many cases shares less. */
  outputBudgetBytes?: number;
}

export type HandlerReport =
  | {
      handler: ClaudeCodeHandler;
      ran: true;
      timeoutSeconds: number;
      argv: string[];
      result: HookRunResult;
      verdict: HandlerVerdict;
      note?: string;
    }
  | { handler: ClaudeCodeHandler; ran: false; why: string };

export interface ClaudeCodeEventReport extends EventVerdict {
  event: string;
  matcherValue: string | undefined;
  input: Record<string, unknown>;
  handlers: HandlerReport[];
  /** Handlers of the event whose matcher did not match (not run, by design). */
  unmatched: Array<{ handler: ClaudeCodeHandler; why: string }>;
}

/** Why a handler type is listed and not run. */
const NOT_RUN: Readonly<Record<string, string>> = {
  http: 'http handler: it POSTs the event to a URL, and the sandbox has no network; test the endpoint itself',
  mcp_tool: 'mcp_tool handler: it calls a tool on a connected MCP server, which the sandbox does not have',
  prompt: 'prompt handler: it asks a model, which this tool does not call',
  agent: 'agent handler: it runs a model with tools, which this tool does not call',
};

/** The handler's own timeout in seconds, else its event's default (SessionEnd: the budget it alone would get). */
export function defaultTimeoutSeconds(handler: ClaudeCodeHandler, event: string): number {
  return handlerTimeoutSeconds(handler, event);
}

/** Which handlers of the event run for this input, and why each other one does not. */
export function selectHandlers(
  handlers: readonly ClaudeCodeHandler[],
  event: string,
  input: Record<string, unknown>,
  matcherValue: string | undefined,
): {
  selected: Array<{ handler: ClaudeCodeHandler; note?: string }>;
  notRun: Array<{ handler: ClaudeCodeHandler; why: string }>;
  unmatched: Array<{ handler: ClaudeCodeHandler; why: string }>;
} {
  const selected: Array<{ handler: ClaudeCodeHandler; note?: string }> = [];
  const notRun: Array<{ handler: ClaudeCodeHandler; why: string }> = [];
  const unmatched: Array<{ handler: ClaudeCodeHandler; why: string }> = [];
  for (const handler of handlers) {
    if (handlerEvent(handler) !== event) continue;
    if (!matcherMatches(handler.matcher, event, matcherValue)) {
      const form = matcherForm(handler.matcher, event);
      const how =
        form.kind === 'regex' && form.error
          ? `is not a valid regular expression (${form.error})`
          : `does not match ${JSON.stringify(matcherValue ?? '')} (${describeMatcher(form)})${bareServerHint(form)}`;
      unmatched.push({ handler, why: `matcher ${JSON.stringify(handler.matcher)} ${how}` });
      continue;
    }
    const condition = evaluateIf(handler.if, event, input);
    if (!condition.runs) {
      unmatched.push({ handler, why: condition.why });
      continue;
    }
    const reason = own(NOT_RUN, handler.type);
    if (reason) notRun.push({ handler, why: reason });
    else if (handler.type !== 'command')
      notRun.push({ handler, why: `unknown handler type ${JSON.stringify(handler.type)}: Claude Code does not run it` });
    else if (typeof handler.command !== 'string' || handler.command === '')
      notRun.push({ handler, why: 'command handler without a `command`' });
    else if (handler.shell === 'powershell' && !handler.args)
      notRun.push({ handler, why: 'shell: powershell, which the sandbox does not have' });
    else {
      // Identical settings-file handlers run once; plugin, skill and agent copies stay separate (§3.3).
      const key = deduplicationKey(handler);
      const twin = key === undefined ? undefined : selected.find((s) => deduplicationKey(s.handler) === key);
      if (twin)
        notRun.push({
          handler,
          why: `identical to ${handlerLabel(twin.handler)} in settings, which Claude Code runs once`,
        });
      else selected.push({ handler, ...(condition.note ? { note: condition.note } : {}) });
    }
  }
  return { selected, notRun, unmatched };
}

/** `mcp__memory` as an exact name matches no tool (§2.3): the server's tools are `mcp__memory__…`. */
function bareServerHint(form: ReturnType<typeof matcherForm>): string {
  const bare = form.kind === 'exact' ? form.names.filter(isMcpServerOnly) : [];
  return bare.length ? `; a bare MCP server name matches no tool: write ${bare.map((name) => `${name}__.*`).join(', ')}` : '';
}

/** `Stop` in agent frontmatter fires as SubagentStop (§1.2). */
export function handlerEvent(handler: ClaudeCodeHandler): string {
  return effectiveEvent(handler.event, handler.source);
}

export async function runClaudeCodeEvent(
  session: ExecutorSession,
  handlers: readonly ClaudeCodeHandler[],
  options: ClaudeCodeEventOptions,
): Promise<ClaudeCodeEventReport> {
  const { event, input } = options;
  const { selected, notRun, unmatched } = selectHandlers(handlers, event, input, options.matcherValue);
  const agentId = options.agentId ?? CLAUDE_CODE_AGENT_ID;
  const workspace = session.mode === 'bwrap' ? SANDBOX_PATHS.workspace : await session.workspaceOf(agentId);
  const home = session.mode === 'bwrap' ? SANDBOX_PATHS.home : `${dirname(workspace)}/home`;
  const stdin = `${JSON.stringify(input)}\n`;
  const siblings = selected.map((s) => s.handler);
  // The transcripts the event names exist, as in Claude Code (empty: this tool has no conversation).
  if (selected.length)
    for (const field of ['transcript_path', 'agent_transcript_path']) {
      const path = input[field];
      if (typeof path === 'string' && path.startsWith(`${home}/`)) await session.ensureHomeFile?.(agentId, path.slice(home.length + 1));
    }

  // All at once, as Claude Code runs them (one handler's block does not stop its siblings' side effects),
  // up to HANDLERS_AT_ONCE sandboxes; and the output kept of each is its share of OUTPUT_BUDGET_BYTES.
  const budget = options.outputBudgetBytes ?? OUTPUT_BUDGET_BYTES;
  const outputBytes = Math.max(MIN_OUTPUT_BYTES, Math.floor(budget / 2 / Math.max(1, selected.length)));
  const limiter = new Limiter(HANDLERS_AT_ONCE);
  const ran = await Promise.all(
    selected.map(
      ({ handler, note }): Promise<HandlerReport> =>
        limiter.run(async () => {
          const env = handlerEnvironment(handler, event, {
            projectRoot: options.projectRoot,
            workspace,
            home,
            input,
            claudePid: session.mode === 'bwrap' ? 1 : process.pid,
          });
          const argv = handlerArgv(handler, env);
          // SessionEnd handlers share one budget, raised by their settings-file timeouts or set by the environment (§2.4).
          const configured = handlerTimeoutSeconds(handler, event, siblings, options.sessionEndMs);
          const timeoutSeconds = options.timeoutCapSeconds !== undefined ? Math.min(configured, options.timeoutCapSeconds) : configured;
          const result = await session.runHook(asHookScript(handler), {
            agentId,
            command: argv,
            stdin,
            runtimeEnv: env,
            timeoutMs: Math.max(1, Math.round(timeoutSeconds * 1000)),
            outputBytes,
          });
          const verdict = interpretHandler(
            event,
            {
              exitCode: result.exitCode,
              timedOut: result.timedOut,
              stdout: result.stdout,
              stderr: result.stderr,
              timeoutSeconds,
              ...(result.error ? { startError: result.error } : {}),
              ...(handler.async || handler.asyncRewake ? { async: true } : {}),
              ...(handler.asyncRewake ? { asyncRewake: true } : {}),
              ...(result.stdoutBytes > Buffer.byteLength(result.stdout) ? { stdoutBytesCut: result.stdoutBytes } : {}),
            },
            input,
          );
          return { handler, ran: true, timeoutSeconds, argv, result, verdict, ...(note ? { note } : {}) };
        }),
    ),
  );
  const verdicts = ran.flatMap((report) => (report.ran ? [report.verdict] : []));
  return {
    event,
    matcherValue: options.matcherValue,
    input,
    ...mergeVerdicts(event, verdicts),
    handlers: [...ran, ...notRun.map(({ handler, why }): HandlerReport => ({ handler, ran: false, why }))],
    unmatched,
  };
}

/**
 * A settings file decides how many handlers an event runs: its hostile twin had 100 handlers each print
 * 1 MiB of control bytes (3.1 GB and 43 s to print the report; its JSON past V8's longest string) and
 * 2,000 that started 520 sandboxes at once. The stdout and stderr kept of all of them together are at
 * most OUTPUT_BUDGET_BYTES (each handler its share, at least MIN_OUTPUT_BYTES, at most the session's
 * 1 MiB), and HANDLERS_AT_ONCE sandboxes run at a time.
 */
export const OUTPUT_BUDGET_BYTES = 4 * 1024 * 1024;
const MIN_OUTPUT_BYTES = 16 * 1024;
export const HANDLERS_AT_ONCE = 16;

/**
 * Claude Code's variables for a handler (§3.2), those a local session sets
 * (`envFor(..., { local: true })`), with paths inside the sandbox:
 * CLAUDE_CODE_SESSION_ID is the input's `session_id`; CLAUDE_PID is the
 * simulated Claude Code's pid as the hook can see it: in the bubblewrap
 * sandbox (its own pid namespace) pid 1, the sandbox's init and the
 * ancestor of every hook process, so `kill -0 "$CLAUDE_PID"` succeeds;
 * unsandboxed, this process's own pid.
 */
export function handlerEnvironment(
  handler: ClaudeCodeHandler,
  event: string,
  context: { projectRoot: string; workspace: string; home: string; input: Readonly<Record<string, unknown>>; claudePid: number },
): Record<string, string> {
  const { projectRoot, workspace, home, input } = context;
  const sessionId = typeof input.session_id === 'string' ? input.session_id : SAMPLE_SESSION_ID;
  const values = (name: string): string | undefined => {
    switch (name) {
      case 'CLAUDE_PROJECT_DIR':
        return workspace;
      case 'CLAUDE_PLUGIN_ROOT': {
        if (handler.pluginRoot === undefined) return undefined;
        const inside = relative(projectRoot, handler.pluginRoot);
        return inside === '' ? workspace : `${workspace}/${inside.split('\\').join('/')}`;
      }
      case 'CLAUDE_PLUGIN_DATA':
        return handler.pluginRoot === undefined ? undefined : `${home}/.claude/plugins/data/${pluginId(handler.pluginRoot)}`;
      case 'CLAUDE_ENV_FILE':
        return `${home}/.claude/session-env/hook-env.sh`;
      case 'CLAUDE_CODE_SESSION_ID':
        return sessionId;
      case 'CLAUDE_PID':
        return String(context.claudePid);
      default:
        return own(SUBPROCESS_ENV, name);
    }
  };
  const env: Record<string, string> = {};
  for (const name of envFor(event, handler.source, { local: true })) {
    const value = values(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function pluginId(root: string): string {
  return (root.split(/[\\/]/).filter(Boolean).pop() ?? 'plugin').replace(/[^A-Za-z0-9_.-]/g, '_');
}

/**
 * Shell form is `sh -c COMMAND`; exec form spawns `command` with `args`,
 * placeholders substituted as plain strings (§2.4). A plugin's data
 * directory and CLAUDE_ENV_FILE's directory exist before the hook starts.
 */
function handlerArgv(handler: ClaudeCodeHandler, env: Record<string, string>): string[] {
  const substitute = (text: string): string =>
    text.replace(/\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g, (whole, name: string) => env[name] ?? whole);
  const argv = handler.args ? [substitute(handler.command!), ...handler.args.map(substitute)] : ['/bin/sh', '-c', handler.command!];
  const dirs = [env.CLAUDE_PLUGIN_DATA, env.CLAUDE_ENV_FILE && dirname(env.CLAUDE_ENV_FILE)].filter((dir): dir is string => Boolean(dir));
  if (dirs.length === 0) return argv;
  return [
    '/bin/sh',
    '-c',
    'for d in "$@"; do [ "$d" = -- ] && break; mkdir -p "$d"; shift; done; shift; exec "$@"',
    'vah-prepare',
    ...dirs,
    '--',
    ...argv,
  ];
}

/** The executor session takes hook scripts; a handler's command is its text (it scans it for slash commands). */
function asHookScript(handler: ClaudeCodeHandler): HookScript {
  return {
    runtime: 'claude-code',
    file: handler.file,
    name: handlerLabel(handler),
    keyPath: ['hooks', handler.event, String(handler.groupIndex), 'hooks', String(handler.handlerIndex)],
    text: [handler.command ?? '', ...(handler.args ?? [])].join(' '),
    style: 'plain',
    keyRange: handler.range,
    valueRange: handler.range,
    segments: [],
  };
}
