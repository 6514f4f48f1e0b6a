import type { TraceOperation } from '../executor/trace.js';
import { editDistance } from '../text/suggest.js';
import { closestKey, REDIS_WRITES, segmentsWithin } from './locate.js';

/**
 * The writes a simulation made, and whether a read that found nothing is a
 * finding: always when the hook takes the value as it comes; when the hook
 * is ready for the miss (a fallback, an emptiness test, `EXISTS`), only when
 * the key is written later (an ordering bug the fallback hides) or is a near
 * typo of a key that was written (the fallback hides that too).
 */

export interface Write {
  t: number;
  key: string;
  level?: string;
  agentId: string;
  runId?: number;
  command?: string;
}

export function collectWrites(operations: readonly TraceOperation[]): { memory: Write[]; redis: Write[] } {
  const memory: Write[] = [];
  const redis: Write[] = [];
  for (const op of operations) {
    if (op.kind === 'memory' && op.action === 'store' && op.outcome === 'ok' && op.key !== undefined) {
      memory.push({
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
      if (isErrorReply(op.reply)) continue;
      for (const key of keys)
        redis.push({ t: op.t, key, agentId: op.agentId, command: lower, ...(op.runId !== undefined ? { runId: op.runId } : {}) });
    }
  }
  return { memory, redis };
}

export interface UnwrittenRead {
  /** The first write of the key after the read: the read came too early. */
  later?: Write;
  /** A key written before the read that this one is probably meant to be. */
  similar?: Write;
}

/**
 * Whether a read of `key` at `t` that found nothing (and that no write of the
 * key preceded) is reported, and with which write to point at. `prepared`:
 * the hook handles a miss itself, so only a later write or a near typo makes
 * it a mistake.
 */
export function unwrittenRead(key: string, t: number, writes: readonly Write[], prepared: boolean): UnwrittenRead | undefined {
  const later = writes.find((w) => w.key === key && w.t > t);
  const earlier = writes.filter((w) => w.t <= t);
  const typo = nearTypo(key, earlier);
  if (prepared && !later && !typo) return undefined;
  if (later) return { later };
  const similar = typo ?? closestKey(key, earlier);
  return similar ? { similar } : {};
}

/** What a finding adds after "…that nothing had written": who writes it later, or the key meant; and the full stop. */
export function unwrittenHint({ later, similar }: UnwrittenRead, verb: 'stores' | 'writes'): string {
  if (later) return ` (${later.agentId === 'orchestrator' ? 'the orchestrator' : later.agentId} ${verb} it only later).`;
  if (similar) return `; did you mean \`${similar.key}\`, which was ${verb === 'stores' ? 'stored' : 'written'}?`;
  return '.';
}

/**
 * A written key this one is a slip of: at most two edits away (`contxt`,
 * `redy`), or the same key with a segment left out or added
 * (`agent:a:context` for `agent:a:blocking:context`).
 */
function nearTypo(key: string, writes: readonly Write[]): Write | undefined {
  let best: Write | undefined;
  let bestScore = 3;
  for (const write of writes) {
    const score = editDistance(key, write.key);
    if (score < bestScore) {
      best = write;
      bestScore = score;
    }
  }
  return best ?? writes.find((write) => segmentsWithin(key, write.key) || segmentsWithin(write.key, key));
}

export function isErrorReply(reply: unknown): reply is { error: unknown } {
  return reply !== null && typeof reply === 'object' && !Array.isArray(reply) && 'error' in reply;
}
