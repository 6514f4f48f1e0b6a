import type { MemoryEntry } from './memory-store.js';
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
}

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
    stdout: result.stdout,
    stderr: result.stderr,
    stdoutBytes: result.stdoutBytes,
    stderrBytes: result.stderrBytes,
    env: result.env,
    operations: result.operations,
    memory: result.memory.map(memoryJson),
    events: result.events.map((event) => ({
      type: event.type,
      priority: event.priority,
      data: event.data,
      agentId: event.agentId,
      t: event.t,
    })),
    limitsHit: result.limitsHit,
    sandbox: result.sandbox,
    ...(result.error ? { error: result.error } : {}),
  };
}

function memoryJson(entry: MemoryEntry): RunJson['memory'][number] {
  return {
    level: entry.level,
    key: entry.key,
    owner: entry.owner,
    value: entry.value,
    ...(entry.level === 'swarm' ? { swarmId: entry.swarmId } : {}),
    ...(entry.expiresAt !== null ? { expiresAt: entry.expiresAt } : {}),
  };
}

const KIND_WIDTH = 8;
const MAX_SHOWN = 200;

function shorten(text: string, max = MAX_SHOWN): string {
  const flat = text.replace(/\n/g, '\\n');
  return flat.length > max ? `${flat.slice(0, max)}… (${flat.length} chars)` : flat;
}

function showJson(value: unknown): string {
  // JSON.stringify gives undefined for undefined and functions, which its lib type does not say.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  return shorten(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}

export function describeOperation(operation: TraceOperation): string {
  switch (operation.kind) {
    case 'redis': {
      if (operation.push) return `(message) ${showJson(operation.reply)}`;
      const [name = '', ...args] = operation.command;
      const reply = operation.reply === undefined ? '(no reply: the hook ended while it waited)' : showJson(operation.reply);
      return `${[name.toUpperCase(), ...args].map(quoteWord).join(' ')} → ${reply}${operation.durationMs >= 5 ? ` (${operation.durationMs} ms)` : ''}`;
    }
    case 'memory': {
      const target = operation.key !== undefined ? ` ${operation.key}` : operation.pattern !== undefined ? ` ${operation.pattern}` : '';
      const level = operation.level ? ` [${operation.level}]` : '';
      const value = operation.value !== undefined ? ` = ${shorten(operation.value, 120)}` : '';
      const count = operation.count !== undefined ? ` → ${operation.count} entr${operation.count === 1 ? 'y' : 'ies'}` : '';
      const outcome = operation.outcome === 'ok' || operation.outcome === 'recorded' ? '' : ` ✗ ${operation.outcome}`;
      const note = operation.note ? ` (${operation.note})` : '';
      return `${operation.action || '(none)'}${target}${level}${value}${count}${outcome}${note}`;
    }
    case 'event': {
      if (operation.action !== 'publish')
        return `${operation.action || '(none)'} ${operation.args.slice(1).map(quoteWord).join(' ')}${operation.note ? ` (${operation.note})` : ''}`;
      const head = `publish ${operation.type ?? '(no type)'} priority ${operation.priority ?? '?'} ${showJson(operation.data)}`;
      if (!operation.valid) return `${head} ✗ ${(operation.problems ?? []).join('; ')}`;
      return `${head}${operation.note ? ` (${operation.note})` : ''}`;
    }
    case 'command':
      return `${[operation.command, ...operation.args].map(quoteWord).join(' ')} — ${operation.note}`;
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
  if (result.error) return `could not run: ${result.error}`;
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
  lines.push(`Hook ${result.hook} of ${result.profile}`);
  lines.push(`  agent ${result.agentId} · swarm ${result.swarmId} · sandbox ${sandbox} · timeout ${result.sandbox.timeoutMs} ms`);
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
    lines.push(indentBlock(text));
  }
  lines.push('');
  lines.push(`Result: ${status(result)} in ${Math.round(result.durationMs)} ms`);
  lines.push(`Limits hit: ${result.limitsHit.length > 0 ? result.limitsHit.join(', ') : 'none'}`);
  for (const warning of result.sandbox.warnings) lines.push(`Warning: ${warning}`);
  lines.push('');
  lines.push(`Memory after the run (${result.memory.length} entr${result.memory.length === 1 ? 'y' : 'ies'})`);
  for (const entry of result.memory) {
    const scope = entry.level === 'swarm' ? `swarm ${entry.swarmId}` : entry.level;
    lines.push(`  ${scope.padEnd(14)} ${entry.key}  (owner ${entry.owner})  ${shorten(entry.value, 160)}`);
  }
  lines.push(`Events published (${result.events.length})`);
  for (const event of result.events) lines.push(`  ${event.type}  priority ${event.priority}  ${showJson(event.data)}`);
  return `${lines.join('\n')}\n`;
}
