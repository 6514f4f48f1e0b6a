import {
  compareDiagnostics,
  type Diagnostic,
  type LintResult,
  type Range,
  type RelatedInformation,
  type Severity,
} from '../diagnostics.js';
import type { EventOperation, MemoryOperation, RedisOperation, TraceOperation } from '../executor/trace.js';
import { ScriptSourceMap } from '../hooks/source-map.js';
import type { HookScript } from '../hooks/types.js';
import type { HookRunRecord } from './trace.js';
import type { LoadedProfile } from './world.js';

/**
 * What a simulation proves wrong, as diagnostics in the linter's model, at
 * the line of the hook that did it (or at the hook's key when the line cannot
 * be told): reads of keys nothing wrote, agent-level reads another agent was
 * denied, hooks that failed or timed out, invalid events, and waits that
 * blocked until the hook was killed. Identical findings from many agents
 * running the same hook collapse into one that says how many.
 */

export const SIMULATION_RULES = {
  'memory-read-unwritten': { severity: 'warning', description: 'A hook read a memory key that nothing had written.' },
  'redis-read-unwritten': { severity: 'warning', description: 'A hook read a Redis key that nothing had written.' },
  'memory-read-denied': { severity: 'error', description: "A hook read another agent's agent-level memory entry; the runtime denies it." },
  'hook-timed-out': { severity: 'error', description: 'A hook exceeded its timeout and was killed.' },
  'hook-failed': { severity: 'warning', description: 'A hook exited with a non-zero status (logged; the lifecycle continues).' },
  'event-priority-invalid': { severity: 'error', description: 'A hook published an event whose priority is not an integer from 1 to 10.' },
  'event-publish-invalid': { severity: 'error', description: 'A hook published an invalid event (type or data).' },
  'wait-blocked-forever': {
    severity: 'error',
    description: 'A hook waited without a timeout (e.g. `BLPOP key 0`) and blocked until it was killed.',
  },
} as const satisfies Record<string, { severity: Severity; description: string }>;

export type SimulationRuleId = keyof typeof SIMULATION_RULES;

const REDIS_WRITES = new Set([
  'set',
  'setex',
  'psetex',
  'setnx',
  'mset',
  'msetnx',
  'getset',
  'append',
  'incr',
  'incrby',
  'incrbyfloat',
  'decr',
  'decrby',
  'lpush',
  'rpush',
  'lpushx',
  'rpushx',
  'lset',
  'linsert',
  'rpoplpush',
  'lmove',
  'hset',
  'hmset',
  'hsetnx',
  'hincrby',
  'hincrbyfloat',
  'sadd',
  'smove',
  'zadd',
  'zincrby',
  'xadd',
  'pfadd',
  'setrange',
  'copy',
  'rename',
  'renamenx',
  'restore',
  'publish',
]);
const REDIS_READS = new Set([
  'get',
  'getdel',
  'getex',
  'hget',
  'hgetall',
  'hmget',
  'hkeys',
  'hvals',
  'lrange',
  'lindex',
  'llen',
  'lpop',
  'rpop',
  'smembers',
  'scard',
  'sismember',
  'zrange',
  'zscore',
  'zcard',
  'strlen',
  'exists',
  'blpop',
  'brpop',
  'xrange',
  'xread',
]);
const REDIS_BLOCKING = new Set(['blpop', 'brpop', 'brpoplpush', 'blmove', 'bzpopmin', 'bzpopmax', 'blmpop', 'bzmpop']);

interface Write {
  t: number;
  key: string;
  level?: string;
  agentId: string;
  runId?: number;
}

interface Pending {
  ruleId: SimulationRuleId;
  file: string;
  range: Range;
  hook: string;
  message: string;
  agents: Set<string>;
  related?: RelatedInformation[];
}

export function simulationFindings(
  runs: readonly HookRunRecord[],
  operations: readonly TraceOperation[],
  profiles: ReadonlyMap<string, LoadedProfile>,
): LintResult[] {
  const runsById = new Map(runs.map((run) => [run.runId, run]));
  const memoryWrites: Write[] = [];
  const redisWrites: Write[] = [];
  for (const op of operations) {
    if (op.kind === 'memory' && op.action === 'store' && op.outcome === 'ok' && op.key !== undefined) {
      memoryWrites.push({
        t: op.t,
        key: op.key,
        ...(op.level ? { level: op.level } : {}),
        agentId: op.agentId,
        ...(op.runId !== undefined ? { runId: op.runId } : {}),
      });
    }
    if (op.kind === 'redis' && !op.push) {
      const [name = '', ...args] = op.command;
      const lower = name.toLowerCase();
      if (!REDIS_WRITES.has(lower)) continue;
      const keys =
        lower === 'mset' || lower === 'msetnx'
          ? args.filter((_, i) => i % 2 === 0)
          : lower === 'rpoplpush' || lower === 'lmove' || lower === 'copy' || lower === 'smove'
            ? [args[1] ?? '']
            : [args[0] ?? ''];
      for (const key of keys)
        redisWrites.push({ t: op.t, key, agentId: op.agentId, ...(op.runId !== undefined ? { runId: op.runId } : {}) });
    }
  }

  const pending = new Map<string, Pending>();
  const locate = (run: HookRunRecord, matcher: LineMatcher): { file: string; range: Range; hook: HookScript } | undefined => {
    const profile = profiles.get(run.profile);
    const hook = profile?.hooks.find((candidate) => candidate.name === run.hook);
    if (!profile || !hook) return undefined;
    return { file: profile.file, range: locateInHook(hook, profile, matcher), hook };
  };
  const writerLocation = (write: Write | undefined, what: string): RelatedInformation[] | undefined => {
    const run = write?.runId !== undefined ? runsById.get(write.runId) : undefined;
    if (!write || !run) return undefined;
    const where = locate(run, { commands: [what], key: write.key });
    return where ? [{ message: `Written here by ${run.agentId} (${run.hook})`, file: where.file, range: where.range }] : undefined;
  };
  const add = (
    run: HookRunRecord,
    ruleId: SimulationRuleId,
    matcher: LineMatcher | 'key',
    message: string,
    related?: RelatedInformation[],
  ): void => {
    const profile = profiles.get(run.profile);
    const hook = profile?.hooks.find((candidate) => candidate.name === run.hook);
    if (!profile || !hook) return;
    const range = matcher === 'key' ? hook.keyRange : locateInHook(hook, profile, matcher);
    const id = `${ruleId}|${profile.file}|${range.line}:${range.column}|${message}`;
    const existing = pending.get(id);
    if (existing) {
      existing.agents.add(run.agentId);
      return;
    }
    pending.set(id, {
      ruleId,
      file: profile.file,
      range,
      hook: run.hook,
      message,
      agents: new Set([run.agentId]),
      ...(related ? { related } : {}),
    });
  };

  for (const run of runs) {
    if (run.timedOut)
      add(
        run,
        'hook-timed-out',
        'key',
        `Unexpected hook timeout: \`${run.hook}\` ran past its timeout and was killed after ${Math.round(run.durationMs)} ms; the runtime logs it and carries on without what the rest of the hook would have done.`,
      );
    else if (run.error) add(run, 'hook-failed', 'key', `Unexpected hook failure: \`${run.hook}\` could not start (${run.error}).`);
    else if (run.failed) {
      const reason = firstLine(run.stderr);
      add(
        run,
        'hook-failed',
        'key',
        `Unexpected hook failure: \`${run.hook}\` exited with ${run.exitCode === null ? 'no status (killed by a signal)' : `status ${run.exitCode}`}${reason ? ` (${reason})` : ''}; the runtime logs it and continues.`,
      );
    }

    for (const op of run.operations) {
      if (op.kind === 'memory') memoryFinding(run, op);
      else if (op.kind === 'redis') redisFinding(run, op);
      else if (op.kind === 'event') eventFinding(run, op);
    }
  }

  function memoryFinding(run: HookRunRecord, op: MemoryOperation): void {
    if (op.key === undefined || /[*?]/.test(op.key)) return;
    const matcher: LineMatcher = { commands: ['/sqlite-memory', 'sqlite-memory'], words: [op.action], key: op.key };
    if (op.outcome === 'denied') {
      const owner = /private to agent '([^']+)'/.exec(op.note ?? '')?.[1] ?? ownerFromWrites(op.key);
      const write = [...memoryWrites]
        .reverse()
        .find((w) => w.key === op.key && w.level === 'agent' && w.agentId !== run.agentId && w.t <= op.t);
      add(
        run,
        'memory-read-denied',
        matcher,
        `Disallowed read of agent-level entry \`${op.key}\`: it is private to ${owner ? `agent \`${owner}\`` : 'another agent'}; use --level swarm to share it.`,
        writerLocation(write, '/sqlite-memory'),
      );
      return;
    }
    if (op.outcome !== 'not-found' || op.action !== 'retrieve') return;
    const before = memoryWrites.filter((w) => w.key === op.key && w.t <= op.t);
    const later = memoryWrites.find((w) => w.key === op.key && w.t > op.t);
    if (before.length > 0) {
      const other = before.find((w) => w.level !== op.level);
      if (other) {
        add(
          run,
          'memory-read-unwritten',
          matcher,
          `Unexpected read of \`${op.key}\` at ${op.level ?? 'agent'} level: it was stored at ${other.level ?? 'agent'} level, so this read finds nothing.`,
          writerLocation(other, '/sqlite-memory'),
        );
      }
      return;
    }
    const similar = closestKey(
      op.key,
      memoryWrites.filter((w) => w.t <= op.t),
    );
    const hint = later ? ` (${later.agentId} stores it only later)` : similar ? `; did you mean \`${similar.key}\`, which was stored?` : '';
    add(
      run,
      'memory-read-unwritten',
      matcher,
      `Unexpected read of memory key \`${op.key}\` that nothing had written${hint}.`,
      writerLocation(later ?? similar, '/sqlite-memory'),
    );
  }

  function redisFinding(run: HookRunRecord, op: RedisOperation): void {
    if (op.push) return;
    const [name = '', ...args] = op.command;
    const lower = name.toLowerCase();
    if (REDIS_BLOCKING.has(lower) && op.reply === undefined) {
      const timeout = args[args.length - 1];
      if (timeout !== undefined && Number(timeout) === 0) {
        add(
          run,
          'wait-blocked-forever',
          { commands: ['redis-cli'], words: [lower], key: args[0] ?? '' },
          `Unexpected wait without a timeout: \`${[lower.toUpperCase(), ...args].join(' ')}\` blocked until the hook was killed; let the runtime's blocking coordination wait (on_signal_received / on_blocking_timeout) instead.`,
        );
        return;
      }
    }
    if (!REDIS_READS.has(lower)) return;
    const keys = REDIS_BLOCKING.has(lower) ? args.slice(0, -1) : lower === 'exists' ? args : [args[0] ?? ''];
    const empty = op.reply === null || op.reply === 0 || (Array.isArray(op.reply) && op.reply.length === 0);
    if (!empty) return;
    for (const key of keys) {
      if (!key || redisWrites.some((w) => w.key === key && w.t <= op.t)) continue;
      const later = redisWrites.find((w) => w.key === key && w.t > op.t);
      const similar = later
        ? undefined
        : closestKey(
            key,
            redisWrites.filter((w) => w.t <= op.t),
          );
      const hint = later
        ? ` (${later.agentId === 'orchestrator' ? 'the orchestrator' : later.agentId} writes it only later)`
        : similar
          ? `; did you mean \`${similar.key}\`, which was written?`
          : '';
      add(
        run,
        'redis-read-unwritten',
        { commands: ['redis-cli'], words: [lower], key },
        `Unexpected read of Redis key \`${key}\` that nothing had written${hint}.`,
        writerLocation(later ?? similar, 'redis-cli'),
      );
    }
  }

  function eventFinding(run: HookRunRecord, op: EventOperation): void {
    if (op.action !== 'publish' || op.valid) return;
    const problems = op.problems ?? [];
    const priorityProblem = problems.find((p) => p.includes('priority'));
    const matcher: LineMatcher = { commands: ['/eventbus', 'eventbus'], words: ['publish'], ...(op.type ? { key: op.type } : {}) };
    if (priorityProblem)
      add(
        run,
        'event-priority-invalid',
        matcher,
        `Invalid event priority: ${priorityProblem}; the event bus rejected the event${op.type ? ` \`${op.type}\`` : ''}.`,
      );
    else
      add(
        run,
        'event-publish-invalid',
        matcher,
        `Invalid event${op.type ? ` \`${op.type}\`` : ''}: ${problems.join('; ')}; the event bus rejected it.`,
      );
  }

  function ownerFromWrites(key: string): string | undefined {
    return [...memoryWrites].reverse().find((w) => w.key === key && w.level === 'agent')?.agentId;
  }

  const byFile = new Map<string, Diagnostic[]>();
  for (const finding of pending.values()) {
    const count = finding.agents.size;
    const who = [...finding.agents].sort().slice(0, 3).join(', ') + (count > 3 ? `, +${count - 3} more` : '');
    const diagnostic: Diagnostic = {
      ruleId: finding.ruleId,
      severity: SIMULATION_RULES[finding.ruleId].severity,
      ...finding.range,
      message: `${finding.message} [simulated: ${who}]`,
      hook: finding.hook,
      ...(finding.related ? { related: finding.related } : {}),
    };
    const list = byFile.get(finding.file) ?? [];
    list.push(diagnostic);
    byFile.set(finding.file, list);
  }
  return [...byFile.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([filePath, diagnostics]) => ({ filePath, diagnostics: diagnostics.sort(compareDiagnostics) }));
}

function firstLine(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

function closestKey(key: string, writes: readonly Write[]): Write | undefined {
  let best: Write | undefined;
  let bestScore = Infinity;
  for (const write of writes) {
    const score = editDistance(key, write.key);
    if (score < bestScore) {
      best = write;
      bestScore = score;
    }
  }
  // A typo, or a segment renamed.
  if (best && bestScore <= Math.max(3, Math.floor(key.length / 3))) return best;
  // A segment added or left out: `agent:a:context` for `agent:a:blocking:context`.
  return writes.find((write) => segmentsWithin(key, write.key) || segmentsWithin(write.key, key));
}

/** Whether `short`'s `:`-segments appear in order in `long`, with the same first and last segment. */
function segmentsWithin(short: string, long: string): boolean {
  const a = short.split(':');
  const b = long.split(':');
  if (a.length >= b.length || a.length < 2 || a[0] !== b[0] || a.at(-1) !== b.at(-1)) return false;
  let j = 0;
  for (const segment of b) if (segment === a[j]) j++;
  return j === a.length;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

export interface LineMatcher {
  /** The line must contain one of these (the command). */
  commands: string[];
  /** ...and, preferably, these words (the subcommand), case-insensitive. */
  words?: string[];
  /** ...and a word that, its variables read as wildcards, matches this (the key or type as run). */
  key?: string;
}

/**
 * The script line that most likely ran an operation: a line with the command,
 * then the subcommand, then a word that matches the key once `${VAR}`,
 * `$VAR` and `$(...)` are read as wildcards. Continuation lines (`\`) count
 * as part of the command's line. Falls back to the hook's key.
 */
export function locateInHook(hook: HookScript, profile: LoadedProfile, matcher: LineMatcher): Range {
  const lines = hook.text.split('\n');
  let best: { line: number; score: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    let joined = lines[index]!;
    for (let next = index; /\\\s*$/.test(lines[next] ?? '') && next + 1 < lines.length; next++) joined += ` ${lines[next + 1]!}`;
    if (/^\s*#/.test(joined) || !matcher.commands.some((command) => joined.includes(command))) continue;
    let score = 1;
    if (matcher.words?.every((word) => new RegExp(`\\b${escapeRegExp(word)}\\b`, 'i').test(joined))) score += 1;
    if (matcher.key !== undefined && wordsOf(joined).some((word) => wordPattern(word).test(matcher.key!))) score += 2;
    if (!best || score > best.score) best = { line: index + 1, score };
  }
  if (!best || !profile.lines) return hook.keyRange;
  const text = lines[best.line - 1]!;
  const start = text.length - text.trimStart().length + 1;
  const mapped = new ScriptSourceMap(hook, profile.lines).mapRange({
    line: best.line,
    column: start,
    endLine: best.line,
    endColumn: text.trimEnd().length + 1,
  });
  return mapped.range;
}

function wordsOf(line: string): string[] {
  return (line.match(/"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+(?:"(?:[^"\\]|\\.)*"[^\s"']*)*/g) ?? []).map((word) =>
    word.replace(/^["']|["']$/g, '').replace(/^--[a-z-]+=/, ''),
  );
}

function wordPattern(word: string): RegExp {
  const parts = word.split(/(\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*)/);
  const source = parts.map((part, i) => (i % 2 === 1 ? '.*' : escapeRegExp(part.replace(/["']/g, '')))).join('');
  return new RegExp(`^${source}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
