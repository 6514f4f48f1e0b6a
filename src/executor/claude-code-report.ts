import { relative, sep } from 'node:path';
import type { Diagnostic, Range } from '../diagnostics.js';
import { handlerLabel, type ClaudeCodeHandler } from '../runtimes/claude-code/handler.js';
import type { Decision, HandlerStatus } from '../runtimes/claude-code/verdict.js';
import type { ClaudeCodeEventReport, HandlerReport } from './claude-code.js';
import { DEEP_JSON_PLACEHOLDER, jsonDepth, MAX_REPORT_JSON_DEPTH } from '../text/json-safe.js';
import { escapeControl, stringifyJson } from '../text/control-chars.js';
import type { SandboxReport } from './session.js';
import type { TraceOperation } from './trace.js';

/**
 * A Claude Code event run as programs read it (`run --event … --format
 * json`) and as people read it (one screen). Both are pure functions of the
 * report. Everything the hook controls (stdout, stderr, reasons) is shown
 * with control characters escaped, so a hook cannot repaint the terminal.
 */

export const OUTPUT_RULE_PREFIX = 'claude-code-output/';

/** Where these findings are explained (they are not lint rules, so they have no rules/<id>/README.md). */
export const CLAUDE_CODE_RUN_DOCS =
  'https://github.com/validate-agent-hooks/validate-agent-hooks/blob/main/README.md#running-and-testing-claude-code-hooks';

export interface HandlerPosition extends Range {
  file: string;
}

export type RanHandlerJson = Extract<HandlerJson, { ran: true }>;
export type NotRunHandlerJson = Extract<HandlerJson, { ran: false }>;

export type HandlerJson =
  | {
      ran: true;
      label: string;
      position: HandlerPosition;
      source: string;
      matcher?: string;
      type: string;
      command: string;
      args?: string[];
      async: boolean;
      argv: string[];
      timeoutSeconds: number;
      exitCode: number | null;
      signal: string | null;
      timedOut: boolean;
      durationMs: number;
      stdout: string;
      stderr: string;
      /** The JSON object on stdout, when stdout was one. */
      json: Record<string, unknown> | null;
      jsonApplied: boolean;
      status: HandlerStatus;
      decision: Decision;
      reason?: string;
      why: string;
      problems: Diagnostic[];
      limitsHit: string[];
      /** What the handler did through the sandbox's services (redis-cli, slash commands), as the trace recorded it. */
      operations: TraceOperation[];
      note?: string;
    }
  | { ran: false; label: string; position: HandlerPosition; source: string; matcher?: string; type: string; why: string };

export interface ClaudeCodeRunJson {
  target: string;
  event: string;
  matcherValue: string | null;
  blocked: boolean;
  decision: Decision;
  reason?: string;
  continue: boolean;
  stopReason?: string;
  input: Record<string, unknown>;
  /** One entry per handler that ran. */
  handlers: RanHandlerJson[];
  /** Handlers that matched but are not run here (http, mcp_tool, prompt, agent, duplicates), with why. */
  notRun: NotRunHandlerJson[];
  unmatched: Array<{ label: string; position: HandlerPosition; matcher?: string; why: string }>;
  /** Every handler's output problems, positioned at the handler. */
  problems: Array<Diagnostic & { file: string }>;
  sandbox: SandboxReport | null;
}

function position(handler: ClaudeCodeHandler, cwd: string): HandlerPosition {
  return { file: displayPath(handler.file, cwd), ...handler.range };
}

export function displayPath(file: string, cwd: string): string {
  return (relative(cwd, file) || file).split(sep).join('/');
}

function problemsOf(report: HandlerReport): Diagnostic[] {
  if (!report.ran) return [];
  const problems = [...report.verdict.problems];
  // The verdict was made from the whole object; only the report's copy is cut (json-safe.ts).
  if (report.verdict.json && jsonDepth(report.verdict.json, MAX_REPORT_JSON_DEPTH) > MAX_REPORT_JSON_DEPTH)
    problems.push({
      id: 'json-too-deep',
      severity: 'warning',
      message: `Unexpected nesting on stdout: the JSON object nests deeper than ${MAX_REPORT_JSON_DEPTH} levels. The verdict reads the whole object; the report shows what lies deeper as ${JSON.stringify(DEEP_JSON_PLACEHOLDER)}.`,
    });
  return problems.map((problem) => ({
    ruleId: `${OUTPUT_RULE_PREFIX}${problem.id}`,
    severity: problem.severity,
    message: problem.message,
    hook: handlerLabel(report.handler),
    docsUrl: CLAUDE_CODE_RUN_DOCS,
    ...report.handler.range,
  }));
}

export function claudeCodeRunToJson(report: ClaudeCodeEventReport, target: string, cwd: string): ClaudeCodeRunJson {
  const handlers = report.handlers.map((entry): HandlerJson => {
    const { handler } = entry;
    const common = {
      label: handlerLabel(handler),
      position: position(handler, cwd),
      source: handler.source,
      ...(handler.matcher !== undefined ? { matcher: handler.matcher } : {}),
      type: handler.type,
    };
    if (!entry.ran) return { ran: false, ...common, why: entry.why };
    const { result, verdict } = entry;
    return {
      ran: true,
      ...common,
      command: handler.command ?? '',
      ...(handler.args ? { args: handler.args } : {}),
      async: Boolean(handler.async || handler.asyncRewake),
      argv: entry.argv,
      timeoutSeconds: entry.timeoutSeconds,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      stdout: result.stdout,
      stderr: result.stderr,
      json: verdict.json ?? null,
      jsonApplied: verdict.jsonApplied,
      status: verdict.status,
      decision: verdict.decision,
      ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
      why: verdict.why,
      problems: problemsOf(entry),
      limitsHit: result.limitsHit,
      operations: result.operations,
      ...(entry.note ? { note: entry.note } : {}),
    };
  });
  const firstRun = report.handlers.find((entry) => entry.ran);
  return {
    target,
    event: report.event,
    matcherValue: report.matcherValue ?? null,
    blocked: report.blocked,
    decision: report.decision,
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
    continue: report.continue,
    ...(report.stopReason !== undefined ? { stopReason: report.stopReason } : {}),
    input: report.input,
    handlers: handlers.filter((h): h is RanHandlerJson => h.ran),
    notRun: handlers.filter((h): h is NotRunHandlerJson => !h.ran),
    unmatched: report.unmatched.map(({ handler, why }) => ({
      label: handlerLabel(handler),
      position: position(handler, cwd),
      ...(handler.matcher !== undefined ? { matcher: handler.matcher } : {}),
      why,
    })),
    problems: report.handlers.flatMap((entry) => problemsOf(entry).map((d) => ({ ...d, file: displayPath(entry.handler.file, cwd) }))),
    sandbox: firstRun?.ran ? firstRun.result.sandbox : null,
  };
}

const MAX_LINES = 4;
const MAX_LINE = 160;

/** Up to a few lines of hook-controlled text, escaped, each indented. */
function excerpt(text: string, indent: string): string[] {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  // The label once; later lines aligned under the text. Only what is shown is split and escaped: a
  // megabyte of control bytes is six once escaped, and a report may hold many.
  const hang = ' '.repeat(indent.length);
  const shown: string[] = [];
  let at = 0;
  while (shown.length < MAX_LINES && at <= body.length) {
    const newline = body.indexOf('\n', at);
    const end = newline === -1 ? body.length : newline;
    const safe = escapeControl(body.slice(at, Math.min(end, at + MAX_LINE + 1)));
    shown.push(
      `${shown.length === 0 ? indent : hang}${safe.length > MAX_LINE || end - at > MAX_LINE ? `${safe.slice(0, MAX_LINE)}…` : safe}`,
    );
    if (newline === -1) return shown;
    at = newline + 1;
  }
  let more = 1;
  for (let i = body.indexOf('\n', at); i !== -1; i = body.indexOf('\n', i + 1)) more++;
  shown.push(`${hang}… (${more} more lines; --format json has all)`);
  return shown;
}

const MARK: Record<Decision, string> = { deny: 'DENY ', block: 'BLOCK', defer: 'DEFER', ask: 'ASK  ', allow: 'ALLOW', none: 'none ' };

export function formatClaudeCodeRunHuman(json: ClaudeCodeRunJson): string {
  const out: string[] = [];
  const tool = typeof json.input.tool_name === 'string' ? ` ${escapeControl(json.input.tool_name)}` : '';
  const toolInput = json.input.tool_input !== undefined ? ` ${escapeControl(stringifyJson(json.input.tool_input))}` : '';
  const value = !tool && json.matcherValue !== null ? ` (${escapeControl(json.matcherValue)})` : '';
  out.push(`${json.event}${tool}${value}${toolInput.length > 120 ? `${toolInput.slice(0, 120)}…` : toolInput}  —  ${json.target}`);
  const verdict = json.blocked ? 'BLOCKED' : 'NOT BLOCKED';
  const feedback = !json.blocked && json.decision === 'block' ? ` (${json.event} cannot block: the reason is feedback to Claude)` : '';
  out.push(`${verdict}  decision: ${json.decision}${feedback}${json.continue ? '' : '  continue: false (Claude stops)'}`);
  if (json.reason !== undefined) out.push(...excerpt(json.reason, '  reason: '));
  if (json.stopReason !== undefined) out.push(...excerpt(json.stopReason, '  stopReason: '));

  const ran = json.handlers;
  const notRun = json.notRun;
  out.push('');
  out.push(
    `Handlers: ${ran.length} ran` +
      (notRun.length ? `, ${notRun.length} not run` : '') +
      (json.unmatched.length ? `, ${json.unmatched.length} did not match` : ''),
  );
  if (ran.length + notRun.length + json.unmatched.length === 0) out.push(`  (no handler for ${json.event} in ${json.target})`);
  for (const handler of json.handlers) {
    const where = `${handler.position.file}:${handler.position.line}:${handler.position.column}`;
    const exit = handler.timedOut
      ? `timed out after ${handler.timeoutSeconds} s`
      : handler.exitCode === null
        ? 'killed'
        : `exit ${handler.exitCode}`;
    out.push(
      `  ${MARK[handler.decision]} ${where}  ${handler.label}  ${exit}  ${(handler.durationMs / 1000).toFixed(2)} s${handler.async ? '  async' : ''}`,
    );
    const command = handler.args
      ? [handler.command, ...handler.args].map((part) => JSON.stringify(part)).join(' ')
      : `sh -c ${JSON.stringify(handler.command)}`;
    out.push(...excerpt(command, '        $ '));
    if (handler.stdout.trim()) out.push(...excerpt(handler.stdout, '        stdout: '));
    if (handler.stderr.trim()) out.push(...excerpt(handler.stderr, '        stderr: '));
    out.push(`        → ${escapeControl(handler.why)}`);
    if (handler.note) out.push(`        note: ${handler.note}`);
    if (handler.limitsHit.length) out.push(`        limits hit: ${handler.limitsHit.join(', ')}`);
    if (handler.operations.length)
      out.push(`        ${handler.operations.length} operation(s) traced (redis-cli, slash commands): --format json lists them`);
  }
  for (const entry of notRun)
    out.push(
      `  -     ${entry.position.file}:${entry.position.line}:${entry.position.column}  ${entry.label}  not run: ${escapeControl(entry.why)}`,
    );
  for (const entry of json.unmatched)
    out.push(
      `  ·     ${entry.position.file}:${entry.position.line}:${entry.position.column}  ${entry.label}  skipped: ${escapeControl(entry.why)}`,
    );

  if (json.problems.length) {
    out.push('');
    out.push('Problems:');
    for (const problem of json.problems)
      out.push(
        `  ${problem.file}:${problem.line}:${problem.column}  ${problem.severity}  ${escapeControl(problem.message)}  (${problem.ruleId})`,
      );
  }
  if (json.sandbox) {
    const s = json.sandbox;
    out.push('');
    out.push(
      s.mode === 'bwrap'
        ? `Sandbox: bubblewrap ${s.bwrapVersion ?? ''}, no network, project copied to /workspace (CLAUDE_PROJECT_DIR); the original is untouched.`
        : 'Sandbox: NONE (--no-sandbox): the handlers ran directly on this machine.',
    );
    if (s.survivors.length) out.push(`  ${s.survivors.length} process(es) outlived their handler and were killed.`);
  }
  return `${out.join('\n')}\n`;
}
