import {
  compareDiagnostics,
  type Diagnostic,
  type LintResult,
  type Range,
  type RelatedInformation,
  type Severity,
} from '../diagnostics.js';
import type { EventOperation, MemoryOperation, RedisOperation, TraceOperation } from '../executor/trace.js';
import type { CommandMatcher, CommandSite, HookSyntax } from './command-site.js';
import { firstLine, generalize, locateInHook, REDIS_BLOCKING, REDIS_READS } from './locate.js';
import { missHandling } from './miss-handled.js';
import { collectWrites, isErrorReply, unwrittenHint, unwrittenRead, type Write } from './reads.js';
import type { HookRunRecord } from './trace.js';
import type { LoadedProfile } from './world.js';

/**
 * What a simulation proves wrong, as diagnostics in the linter's model, at
 * the command of the hook that did it (command-site.ts; or at the hook's key
 * when it cannot be told): reads of keys nothing wrote, agent-level reads another agent was
 * denied, hooks that failed or timed out, invalid events, and waits that
 * blocked until the hook was killed. Identical findings from many agents
 * running the same hook collapse into one that says how many.
 */

export const SIMULATION_RULES = {
  'memory-read-unwritten': {
    severity: 'warning',
    description:
      'A hook read a memory key that nothing had written (or stored at another level). A read whose miss the hook handles — its exit status tested (`|| echo \'{}\'`, `|| true`, `if ! …; then`) or its value (`[ -z "$X" ] && X=…`, `${X:-…}`) — is reported only when the key is written later or is a near typo of one that was.',
  },
  'redis-read-unwritten': {
    severity: 'warning',
    description:
      'A hook read a Redis key that nothing had written. A read whose empty reply the hook tests (`[ -z "$X" ]`, `[ "$X" = … ]`, `${X:-…}`), or an EXISTS, is reported only when the key is written later or is a near typo of one that was; `|| …` does not count, since redis-cli exits 0 on a missing key.',
  },
  'memory-read-denied': { severity: 'error', description: "A hook read another agent's agent-level memory entry; the runtime denies it." },
  'hook-timed-out': { severity: 'error', description: 'A hook exceeded its timeout and was killed.' },
  'hook-failed': { severity: 'warning', description: 'A hook exited with a non-zero status (logged; the lifecycle continues).' },
  'event-priority-invalid': { severity: 'error', description: 'A hook published an event whose priority is not an integer from 1 to 10.' },
  'event-publish-invalid': { severity: 'error', description: 'A hook published an invalid event (type or data).' },
  'wait-blocked-forever': {
    severity: 'error',
    description: 'A hook waited without a timeout (e.g. `BLPOP key 0`) and blocked until it was killed.',
  },
  'redis-error-reply': {
    severity: 'error',
    description: "Redis answered a hook's command with an error (WRONGTYPE and others): the command did nothing.",
  },
  'lifecycle-waiting-mode': {
    severity: 'warning',
    description: 'The v1 waiting-mode protocol ran; AGENT_LIFECYCLE v2 forbids it (agents report and exit).',
  },
} as const satisfies Record<string, { severity: Severity; description: string }>;

export type SimulationRuleId = keyof typeof SIMULATION_RULES;

/** A run's operation placed in its profile: at the command that did it when the hook's syntax tree has it. */
interface Place {
  file: string;
  range: Range;
  site?: CommandSite;
}

interface Pending {
  ruleId: SimulationRuleId;
  file: string;
  range: Range;
  hook?: string;
  message: string;
  /** The message with each agent's own id (and iteration) written as variables: what several agents share. */
  general: string;
  agents: Set<string>;
  related?: RelatedInformation[];
}

/** Told when a hook ready for a miss is reported anyway (the key is written later, or a near typo). */
const FALLBACK_HIDES = " The hook's fallback for a missing key hides it.";
/** Told when a hook tests only the exit status of a Redis read. */
const STATUS_BLIND =
  ' `redis-cli` exits 0 with an empty reply for a missing key, so a test of its status (`||`, `if`) never sees it; test the value (`[ -z "$X" ]`).';

/** Waiting-mode commands (lifecycle v1): parking or resuming an agent. */
const WAITING_MODE = /(?:^|[\s/;&|(])invoke-waiting-mode(?:\.sh)?\s+(enter|wait)\b/m;

export function simulationFindings(
  runs: readonly HookRunRecord[],
  operations: readonly TraceOperation[],
  profiles: ReadonlyMap<string, LoadedProfile>,
  syntax: HookSyntax,
  extra: { waitingMode?: { file: string; range: Range } } = {},
): LintResult[] {
  const runsById = new Map(runs.map((run) => [run.runId, run]));
  const { memory: memoryWrites, redis: redisWrites } = collectWrites(operations);

  const pending = new Map<string, Pending>();
  /** Where in its profile a run's operation was: the command that did it, else the line (see locate.ts), with the command when found. */
  const locate = (run: HookRunRecord, matcher: CommandMatcher): Place | undefined => {
    const profile = profiles.get(run.profile);
    const hook = profile?.hooks.find((candidate) => candidate.name === run.hook);
    if (!profile || !hook) return undefined;
    const site = syntax.site(hook, profile, matcher);
    return { file: profile.file, range: site?.range ?? locateInHook(hook, profile, matcher), ...(site ? { site } : {}) };
  };
  const writerLocation = (write: Write | undefined, what: string): RelatedInformation[] | undefined => {
    const run = write?.runId !== undefined ? runsById.get(write.runId) : undefined;
    if (!write || !run) return undefined;
    const where = locate(run, { commands: [what], words: [write.command ?? 'store'], key: write.key });
    return where ? [{ message: `Written here by ${run.agentId} (${run.hook})`, file: where.file, range: where.range }] : undefined;
  };
  const add = (
    run: HookRunRecord,
    ruleId: SimulationRuleId,
    where: CommandMatcher | Place | 'key',
    message: string,
    related?: RelatedInformation[],
    stable?: string,
  ): void => {
    const profile = profiles.get(run.profile);
    const hook = profile?.hooks.find((candidate) => candidate.name === run.hook);
    if (!profile || !hook) return;
    const range = where === 'key' ? hook.keyRange : 'range' in where ? where.range : (locate(run, where)?.range ?? hook.keyRange);
    // One cause, one finding: agents running the same line differ only in their own ids.
    const general = generalize(message, run);
    const id = `${ruleId}|${profile.file}|${range.line}:${range.column}|${stable ?? general}`;
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
      general,
      agents: new Set([run.agentId]),
      ...(related ? { related } : {}),
    });
  };

  if (extra.waitingMode)
    pending.set('waiting-mode-scenario', {
      ruleId: 'lifecycle-waiting-mode',
      file: extra.waitingMode.file,
      range: extra.waitingMode.range,
      message:
        'Unexpected `waitingMode: true`: the v1 waiting-mode protocol is the v2 anti-pattern; agents report and exit, and the orchestrator spawns fresh agents for the next iteration (AGENT_LIFECYCLE v2, "Anti-Pattern 1").',
      general: '',
      agents: new Set(),
    });

  // The protocol's own commands (the orchestrator's, or an agent's report) that Redis refused: the hook that wrote the key broke it.
  for (const op of operations) {
    if (op.kind !== 'redis' || op.push || op.runId !== undefined || !isErrorReply(op.reply)) continue;
    const [name = '', key = ''] = op.command;
    const write = [...redisWrites].reverse().find((w) => w.key === key && w.t <= op.t && w.runId !== undefined);
    const run = write?.runId !== undefined ? runsById.get(write.runId) : undefined;
    if (!write || !run) continue;
    add(
      run,
      'redis-error-reply',
      { commands: ['redis-cli'], words: [write.command ?? ''], key },
      `Unexpected type for \`${key}\`: this hook's ${(write.command ?? '').toUpperCase()} made the protocol's \`${name.toUpperCase()} ${key}\` (by ${op.agentId}) fail with ${String(op.reply.error).split('\n')[0] ?? ''}.`,
      undefined,
      `protocol-type ${write.command ?? ''}`,
    );
  }

  for (const run of runs) {
    if (run.timedOut)
      add(
        run,
        'hook-timed-out',
        'key',
        `Unexpected hook timeout: \`${run.hook}\` ran past its timeout and was killed after ${Math.round(run.durationMs)} ms; the runtime logs it and carries on without what the rest of the hook would have done.`,
        undefined,
        `timeout ${run.hook}`,
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

    const waiting = WAITING_MODE.exec(hookText(run) ?? '');
    if (waiting)
      add(
        run,
        'lifecycle-waiting-mode',
        { commands: ['invoke-waiting-mode'], words: [waiting[1]!] },
        `Unexpected \`invoke-waiting-mode.sh ${waiting[1] ?? ''}\`: the agent enters waiting mode, the v2 anti-pattern; report, then exit cleanly (AGENT_LIFECYCLE v2).`,
      );

    for (const op of run.operations) {
      if (op.kind === 'memory') memoryFinding(run, op);
      else if (op.kind === 'redis') redisFinding(run, op);
      else if (op.kind === 'event') eventFinding(run, op);
    }
  }

  function memoryFinding(run: HookRunRecord, op: MemoryOperation): void {
    if (op.key === undefined || /[*?]/.test(op.key)) return;
    const matcher: CommandMatcher = { commands: ['/sqlite-memory', 'sqlite-memory'], words: [op.action], key: op.key };
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
    // A read with a fallback for the miss (`|| echo '{}'`, `if ! …`, `[ -z "$X" ]`) is not a mistake in itself.
    const place = locate(run, matcher);
    const handled = place?.site && missHandling(place.site.command, place.site.tree.rootNode);
    const prepared = !!handled && (handled.status || handled.value);
    const found = unwrittenRead(op.key, op.t, memoryWrites, prepared);
    if (!found) return;
    add(
      run,
      'memory-read-unwritten',
      place ?? matcher,
      `Unexpected read of memory key \`${op.key}\` that nothing had written${unwrittenHint(found, 'stores')}${prepared ? FALLBACK_HIDES : ''}`,
      writerLocation(found.later ?? found.similar, '/sqlite-memory'),
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
    if (isErrorReply(op.reply)) {
      const reply = String(op.reply.error);
      const key = args[0] ?? '';
      add(
        run,
        'redis-error-reply',
        { commands: ['redis-cli'], words: [lower], key },
        `Unexpected Redis error for \`${[name.toUpperCase(), ...args.slice(0, 1)].join(' ')}\`: ${reply.split('\n')[0] ?? ''}; the command did nothing${
          reply.startsWith('WRONGTYPE') ? keyType(key, op.t) : ''
        }.`,
        writerLocation(
          [...redisWrites].reverse().find((w) => w.key === key && w.t <= op.t),
          'redis-cli',
        ),
      );
      return;
    }
    if (REDIS_READS.has(lower)) redisReadFinding(run, op, lower, args);
  }

  /** A Redis read that found nothing: each key no write preceded, unless the hook is ready for the miss. */
  function redisReadFinding(run: HookRunRecord, op: RedisOperation, lower: string, args: string[]): void {
    const keys = REDIS_BLOCKING.has(lower) ? args.slice(0, -1) : lower === 'exists' ? args : [args[0] ?? ''];
    const empty = op.reply === null || op.reply === 0 || (Array.isArray(op.reply) && op.reply.length === 0);
    if (!empty) return;
    for (const key of keys) {
      if (!key || redisWrites.some((w) => w.key === key && w.t <= op.t)) continue;
      const place = locate(run, { commands: ['redis-cli'], words: [lower], key });
      // redis-cli exits 0 with an empty reply for a missing key: only a test of the value is ready for the miss.
      const handled = place?.site && missHandling(place.site.command, place.site.tree.rootNode);
      // EXISTS asks whether a key was written (a cancel flag that may never be set): an absent key is an answer.
      const found = unwrittenRead(key, op.t, redisWrites, lower === 'exists' || !!handled?.value);
      if (!found) continue;
      const unseen = lower === 'exists' ? '' : handled?.value ? FALLBACK_HIDES : handled?.status ? STATUS_BLIND : '';
      add(
        run,
        'redis-read-unwritten',
        place ?? { commands: ['redis-cli'], words: [lower], key },
        `Unexpected read of Redis key \`${key}\` that nothing had written${unwrittenHint(found, 'writes')}${unseen}`,
        writerLocation(found.later ?? found.similar, 'redis-cli'),
      );
    }
  }

  function eventFinding(run: HookRunRecord, op: EventOperation): void {
    if (op.action !== 'publish' || op.valid) return;
    const problems = op.problems ?? [];
    const priorityProblem = problems.find((p) => p.includes('priority'));
    const matcher: CommandMatcher = { commands: ['/eventbus', 'eventbus'], words: ['publish'], ...(op.type ? { key: op.type } : {}) };
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

  /** What the key held when a WRONGTYPE came back, from the trace's writes. */
  function keyType(key: string, t: number): string {
    const write = [...redisWrites].reverse().find((w) => w.key === key && w.t <= t);
    if (!write) return '';
    return ` (\`${key}\` was written by ${write.agentId === 'orchestrator' ? 'the orchestrator' : write.agentId} with ${(write.command ?? '?').toUpperCase()})`;
  }

  function hookText(run: HookRunRecord): string | undefined {
    return profiles.get(run.profile)?.hooks.find((candidate) => candidate.name === run.hook)?.text;
  }

  const byFile = new Map<string, Diagnostic[]>();
  for (const finding of pending.values()) {
    const count = finding.agents.size;
    const who = [...finding.agents].sort().slice(0, 3).join(', ') + (count > 3 ? `, +${count - 3} more` : '');
    const diagnostic: Diagnostic = {
      ruleId: finding.ruleId,
      severity: SIMULATION_RULES[finding.ruleId].severity,
      ...finding.range,
      message: count === 0 ? finding.message : `${count > 1 ? finding.general : finding.message} [simulated: ${who}]`,
      ...(finding.hook ? { hook: finding.hook } : {}),
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

export { locateInHook };
