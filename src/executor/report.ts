import { escapeControl, escapeControlBlock } from '../text/control-chars.js';
import type { MemoryEntry } from './memory-store.js';
import { TRACED_STRING_BYTES, traceString } from './trace-bounds.js';
import type { HookRunResult } from './session.js';
import type { TraceOperation } from './trace.js';

/**
 * A run's result as people read it and as programs read it. Both are pure
 * functions of the result.
 */

export interface RunJson {
  profile: string;
  hook: string;
  agentId: string;
  swarmId: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  failed: boolean;
  durationMs: number;
  /** Host time serving the hook's calls, not counted in durationMs or against the budget. */
  hostMs?: number;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  env: Record<string, string>;
  operations: TraceOperation[];
  memory: Array<{ level: string; key: string; owner: string; value: string; swarmId?: string; expiresAt?: number }>;
  events: Array<{ type: string; priority: number; data: unknown; agentId: string; t: number }>;
  limitsHit: string[];
  sandbox: HookRunResult['sandbox'];
  error?: string;
  /** Entries and events past the report's limit, counted and left out. */
  memoryOmitted?: number;
  eventsOmitted?: number;
}

/**
 * What bounds a report: the trace keeps at most TRACE_LIMITS per run, stdout
 * and stderr at most `limits.outputBytes` each, memory and events at most
 * this many entries, each value shown up to 4 KiB. With the default limits a
 * JSON report stays under REPORT_SIZE_BOUND bytes.
 */
export const MAX_REPORTED_ENTRIES = 500;
/**
 * The worst case, every byte a control character JSON escapes six-fold:
 * 2 × 6 MiB of output, 4 MiB of trace, 500 entries and 500 events of at
 * most 4 KiB (key 1 KiB) each. A report of ordinary text is far smaller.
 */
export const REPORT_SIZE_BOUND = 48 * 1024 * 1024;

export function runToJson(result: HookRunResult): RunJson {
  return {
    profile: result.profile,
    hook: result.hook,
    agentId: result.agentId,
    swarmId: result.swarmId,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    failed: result.failed,
    durationMs: result.durationMs,
    ...(result.hostMs !== undefined ? { hostMs: result.hostMs } : {}),
    stdout: result.stdout,
    stderr: result.stderr,
    stdoutBytes: result.stdoutBytes,
    stderrBytes: result.stderrBytes,
    env: result.env,
    operations: result.operations,
    memory: result.memory.slice(0, MAX_REPORTED_ENTRIES).map(memoryJson),
    events: result.events.slice(0, MAX_REPORTED_ENTRIES).map((event) => ({
      type: traceString(event.type),
      priority: event.priority,
      data: boundedData(event.data),
      agentId: event.agentId,
      t: event.t,
    })),
    limitsHit: result.limitsHit,
    sandbox: result.sandbox,
    ...(result.error ? { error: result.error } : {}),
    ...(result.memory.length > MAX_REPORTED_ENTRIES ? { memoryOmitted: result.memory.length - MAX_REPORTED_ENTRIES } : {}),
    ...(result.events.length > MAX_REPORTED_ENTRIES ? { eventsOmitted: result.events.length - MAX_REPORTED_ENTRIES } : {}),
  };
}

/** Event data as the report shows it: itself, or its size when its JSON is over 4 KiB. */
function boundedData(data: unknown): unknown {
  // Event data was parsed from JSON, so only undefined lacks a JSON text.
  const text = data === undefined ? '' : JSON.stringify(data);
  return text.length > TRACED_STRING_BYTES ? `(${Buffer.byteLength(text)} bytes, not shown)` : data;
}

function memoryJson(entry: MemoryEntry): RunJson['memory'][number] {
  return {
    level: entry.level,
    key: entry.key,
    owner: entry.owner,
    value: traceString(entry.value),
    ...(entry.level === 'swarm' ? { swarmId: entry.swarmId } : {}),
    ...(entry.expiresAt !== null ? { expiresAt: entry.expiresAt } : {}),
  };
}

const KIND_WIDTH = 8;
const MAX_HUMAN_ENTRIES = 200;
const MAX_SHOWN = 200;

/** One line of hook-controlled text, control characters shown as escapes (see control-chars.ts). */
function shorten(text: string, max = MAX_SHOWN): string {
  // Only what can be shown is escaped: a value of 4 MB of control bytes is 24 once escaped (15 values:
  // 15 s and 1.1 GB for a report of a few KB).
  const flat = escapeControl(text.slice(0, max + 1));
  return flat.length > max || text.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat;
}

function showJson(value: unknown): string {
  // JSON.stringify gives undefined for undefined and functions, which its lib type does not say.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  return shorten(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : escapeControl(JSON.stringify(word));
}

const line = escapeControl;

export function describeOperation(operation: TraceOperation): string {
  switch (operation.kind) {
    case 'redis': {
      if (operation.push) return `(message) ${showJson(operation.reply)}`;
      const [name = '', ...args] = operation.command;
      const reply = operation.reply === undefined ? '(no reply: the hook ended while it waited)' : showJson(operation.reply);
      return `${[name.toUpperCase(), ...args].map(quoteWord).join(' ')} → ${reply}${operation.durationMs >= 5 ? ` (${operation.durationMs} ms)` : ''}`;
    }
    case 'memory': {
      const target =
        operation.key !== undefined ? ` ${line(operation.key)}` : operation.pattern !== undefined ? ` ${line(operation.pattern)}` : '';
      const level = operation.level ? ` [${line(operation.level)}]` : '';
      const value = operation.value !== undefined ? ` = ${shorten(operation.value, 120)}` : '';
      const count = operation.count !== undefined ? ` → ${operation.count} entr${operation.count === 1 ? 'y' : 'ies'}` : '';
      const outcome = operation.outcome === 'ok' || operation.outcome === 'recorded' ? '' : ` ✗ ${operation.outcome}`;
      const note = operation.note ? ` (${line(operation.note)})` : '';
      return `${line(operation.action) || '(none)'}${target}${level}${value}${count}${outcome}${note}`;
    }
    case 'event': {
      if (operation.action !== 'publish')
        return `${line(operation.action) || '(none)'} ${operation.args.slice(1).map(quoteWord).join(' ')}${operation.note ? ` (${line(operation.note)})` : ''}`;
      const head = `publish ${line(operation.type ?? '(no type)')} priority ${operation.priority ?? '?'} ${showJson(operation.data)}`;
      if (!operation.valid) return `${head} ✗ ${line((operation.problems ?? []).join('; '))}`;
      return `${head}${operation.note ? ` (${line(operation.note)})` : ''}`;
    }
    case 'command':
      return `${[operation.command, ...operation.args].map(quoteWord).join(' ')} — ${line(operation.note)}`;
  }
}

function indentBlock(text: string, prefix = '  │ '): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

function status(result: HookRunResult): string {
  if (result.error) return `could not run: ${line(result.error)}`;
  if (result.timedOut) return `timed out after ${result.sandbox.timeoutMs} ms (the sandbox was killed)`;
  if (result.exitCode === null) return 'killed by the executor';
  const signal = result.signal ? ` (${result.signal})` : '';
  return `exit ${result.exitCode}${signal}${result.exitCode === 0 ? '' : ' — the runtime logs this as a failure and carries on'}`;
}

export function formatRunHuman(result: HookRunResult): string {
  const lines: string[] = [];
  const sandbox =
    result.sandbox.mode === 'bwrap'
      ? `bwrap ${result.sandbox.bwrapVersion ?? ''}`.trim() + ` as uid ${result.sandbox.hostUid}`
      : 'NONE (--no-sandbox)';
  lines.push(`Hook ${line(result.hook)} of ${line(result.profile)}`);
  lines.push(
    `  agent ${line(result.agentId)} · swarm ${line(result.swarmId)} · sandbox ${sandbox} · timeout ${result.sandbox.timeoutMs} ms`,
  );
  lines.push('');
  lines.push(result.operations.length > 0 ? "Timeline (ms from the hook's start)" : 'Timeline: no Redis, memory, event or command calls');
  for (const operation of result.operations) {
    const at = Math.max(0, operation.t - result.startedAt)
      .toFixed(1)
      .padStart(8);
    lines.push(`${at}  ${operation.kind.padEnd(KIND_WIDTH)} ${describeOperation(operation)}`);
  }
  for (const [name, text, bytes] of [
    ['stdout', result.stdout, result.stdoutBytes],
    ['stderr', result.stderr, result.stderrBytes],
  ] as const) {
    lines.push('');
    if (bytes === 0) {
      lines.push(`${name}: (empty)`);
      continue;
    }
    const dropped = bytes - Buffer.byteLength(text);
    lines.push(`${name} (${bytes} bytes${dropped > 0 ? `, the first ${bytes - dropped} shown` : ''})`);
    lines.push(indentBlock(escapeControlBlock(text)));
  }
  lines.push('');
  const host = Math.round(result.hostMs ?? 0);
  lines.push(
    `Result: ${status(result)} in ${Math.round(result.durationMs)} ms${host > 0 ? ` (and ${host} ms the host spent serving its calls, not counted against the budget)` : ''}`,
  );
  lines.push(`Limits hit: ${result.limitsHit.length > 0 ? result.limitsHit.join(', ') : 'none'}`);
  for (const warning of result.sandbox.warnings) lines.push(`Warning: ${line(warning)}`);
  lines.push('');
  lines.push(`Memory after the run (${result.memory.length} entr${result.memory.length === 1 ? 'y' : 'ies'})`);
  for (const entry of result.memory.slice(0, MAX_HUMAN_ENTRIES)) {
    const scope = line(entry.level === 'swarm' ? `swarm ${entry.swarmId}` : entry.level);
    lines.push(`  ${scope.padEnd(14)} ${line(entry.key)}  (owner ${line(entry.owner)})  ${shorten(entry.value, 160)}`);
  }
  if (result.memory.length > MAX_HUMAN_ENTRIES) lines.push(`  … and ${result.memory.length - MAX_HUMAN_ENTRIES} more (see --format json)`);
  lines.push(`Events published (${result.events.length})`);
  for (const event of result.events.slice(0, MAX_HUMAN_ENTRIES))
    lines.push(`  ${line(event.type)}  priority ${event.priority}  ${showJson(event.data)}`);
  // Every field above is escaped where it is placed; this pass is the net for one that is not.
  return `${escapeControlBlock(lines.join('\n'))}\n`;
}
