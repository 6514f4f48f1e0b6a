/**
 * How Claude Code schedules a command handler (../shared/runtimes/
 * claude-code-hooks.md §2.4, §3.3, §3.4, §9): its default timeout per type and
 * event, the budget SessionEnd handlers share, the events where a timeout
 * blocks, and which identical handlers run once. Part of the contract;
 * contract.ts re-exports it.
 */
import { own } from '../../records.js';
import type { HookSourceKind } from '../../hooks/types.js';
import type { HandlerType } from './events.js';

/** Default timeouts in seconds (command, http and mcp_tool 600 since v2.1.3; before that 60). */
export const DEFAULT_TIMEOUT_SECONDS: Readonly<Record<HandlerType, number>> = {
  command: 600,
  http: 600,
  mcp_tool: 600,
  prompt: 30,
  agent: 60,
};

/** Events that lower the default of command, http and mcp_tool handlers (PreModelSwitch: 30 s, §9). */
const EVENT_DEFAULT_TIMEOUT: Readonly<Record<string, number>> = { UserPromptSubmit: 30, MessageDisplay: 10, PreModelSwitch: 30 };

export function defaultTimeoutSeconds(type: HandlerType, event: string): number {
  const lowered = own(EVENT_DEFAULT_TIMEOUT, event);
  return lowered !== undefined && (type === 'command' || type === 'http' || type === 'mcp_tool') ? lowered : DEFAULT_TIMEOUT_SECONDS[type];
}

/** Above this a `timeout` was most likely written in milliseconds (600 s is the default and the usual ceiling). */
export const TIMEOUT_PROBABLY_MS = 600;

/**
 * Events whose hook, when it times out, blocks what it guards instead of
 * rendering no decision: PreModelSwitch (§9, "unlike PreToolUse").
 */
export const TIMEOUT_BLOCKS_EVENTS: ReadonlySet<string> = new Set(['PreModelSwitch']);

/**
 * SessionEnd handlers share one budget (§2.4): 1.5 s, raised to the largest
 * `timeout` of a settings-file handler, at most 60 s (plugin hooks' timeouts
 * do not raise it).
 */
export const SESSION_END_BUDGET_SECONDS = { base: 1.5, max: 60 } as const;

/** Settings files (`.claude/settings.json`, `settings.local.json`), as opposed to frontmatter and plugins. */
export function isSettingsSource(source: HookSourceKind): boolean {
  return source === 'settings' || source === 'settings-local';
}

/**
 * Which handlers Claude Code runs once (§3.3, §10.5). The current docs (since
 * 2026-08-05) win over the earlier "identical commands from any source": an
 * identical handler defined in settings files runs once, and a plugin's,
 * skill's or agent's copy stays separate. Identical means the same type,
 * command, args, shell and `if`; copies in two matcher groups of one settings
 * file count as well (the sheet names settings files as the pool). The key is
 * undefined for a handler that is never merged.
 */
export function deduplicationKey(handler: {
  source: HookSourceKind;
  type: string;
  command?: string;
  args?: readonly string[];
  shell?: string;
  if?: string;
}): string | undefined {
  if (!isSettingsSource(handler.source)) return undefined;
  return JSON.stringify([handler.type, handler.command, handler.args ?? null, handler.shell ?? null, handler.if ?? null]);
}

/** The variable that sets the SessionEnd budget instead (§2.4), in milliseconds. */
export const SESSION_END_TIMEOUT_VARIABLE = 'CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS';

/**
 * The SessionEnd budget the environment sets, in milliseconds, or undefined
 * when the variable is unset or not a positive number (then the handlers'
 * timeouts decide, as without it). Since v2.1.268 it holds for handlers with
 * and without a `timeout` of their own (§9), and the sheet gives it no ceiling.
 */
export function sessionEndOverrideMs(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env[SESSION_END_TIMEOUT_VARIABLE]?.trim();
  if (!raw || !/^\d+(?:\.\d+)?$/.test(raw)) return undefined;
  const ms = Number(raw);
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}

/** The one budget the given SessionEnd handlers share, in seconds (`overrideMs`: what the environment sets, which wins). */
export function sessionEndBudgetSeconds(handlers: readonly { source: HookSourceKind; timeout?: number }[], overrideMs?: number): number {
  if (overrideMs !== undefined) return overrideMs / 1000;
  const raised = handlers.filter((h) => isSettingsSource(h.source)).map((h) => h.timeout ?? 0);
  return Math.min(SESSION_END_BUDGET_SECONDS.max, Math.max(SESSION_END_BUDGET_SECONDS.base, ...raised));
}

/**
 * How long Claude Code lets a command handler run on this event, in seconds:
 * its `timeout`, else the event's default (§2.4); on SessionEnd the budget
 * shared with `siblings` (the event's other handlers that run; by default the
 * handler alone, all a linter reading one handler knows: the budget is then
 * its own settings-file timeout up to 60 s, else 1.5 s), or what
 * CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS sets (`sessionEndMs`).
 */
export function handlerTimeoutSeconds(
  handler: { source: HookSourceKind; timeout?: number },
  event: string,
  siblings: readonly { source: HookSourceKind; timeout?: number }[] = [handler],
  sessionEndMs?: number,
): number {
  if (event === 'SessionEnd') return sessionEndBudgetSeconds(siblings, sessionEndMs);
  return handler.timeout ?? defaultTimeoutSeconds('command', event);
}
