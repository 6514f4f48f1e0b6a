import type { Decision } from './scenario.js';

/**
 * The CFN Loop's Redis protocol as AGENT_LIFECYCLE v2 writes it ("Redis Key
 * Conventions", the role protocols, "Error Handling"), and its arithmetic:
 * thresholds are compared with the exact mean of the reported decimals.
 */

/** `swarm:{TASK_ID}:{AGENT_ID}:…`: what each agent reports. */
export function reportKeys(task: string, agentId: string): { done: string; confidence: string; result: string } {
  return {
    done: `swarm:${task}:${agentId}:done`,
    confidence: `swarm:${task}:${agentId}:confidence`,
    result: `swarm:${task}:${agentId}:result`,
  };
}

/** Coordination and metrics keys, and the keys the Product Owner is told to read. */
export function swarmKeys(task: string) {
  return {
    gatePassed: `swarm:${task}:gate-passed`,
    consensusComplete: `swarm:${task}:consensus-complete`,
    decision: `swarm:${task}:product-owner:decision`,
    loop2Consensus: `swarm:${task}:loop2:consensus`,
    loop2Feedback: `swarm:${task}:loop2:feedback`,
    successCriteria: `swarm:${task}:success-criteria`,
    metricsLoop3: `swarm:${task}:metrics:loop3_consensus`,
    metricsLoop2: `swarm:${task}:metrics:loop2_consensus`,
    metricsIterationStart: `swarm:${task}:metrics:iteration_start`,
  };
}

export {
  CFN_DONE_VALUE as DONE_VALUE,
  CFN_SIGNAL_VALUE as SIGNAL_VALUE,
  CFN_RESULT_TTL_SECONDS as RESULT_TTL_SECONDS,
} from '../runtime/contract.js';

interface Fraction {
  num: bigint;
  den: bigint;
}

/** A JavaScript number as the exact decimal it prints as (`0.7496` is 7496/10000, not the nearest double). */
function decimal(value: number): Fraction {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(value));
  if (!match) return { num: 0n, den: 1n };
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let num = BigInt(`${whole ?? '0'}${fraction}`);
  let den = 10n ** BigInt(fraction.length);
  const e = Number(exponent);
  if (e > 0) num *= 10n ** BigInt(e);
  else if (e < 0) den *= 10n ** BigInt(-e);
  return { num: sign === '-' ? -num : num, den };
}

/**
 * The mean of the scores and whether it reaches the threshold, compared
 * exactly (no rounding: a mean of 0.7496 fails 0.75); `mean` is the nearest
 * double, for display and the trace.
 */
export function meanAgainst(scores: readonly number[], threshold: number): { mean: number; passed: boolean } {
  if (scores.length === 0) return { mean: 0, passed: false };
  let sum: Fraction = { num: 0n, den: 1n };
  for (const score of scores) {
    const { num, den } = decimal(score);
    sum = { num: sum.num * den + num * sum.den, den: sum.den * den };
  }
  const n = BigInt(scores.length);
  const t = decimal(threshold);
  // sum / (den·n) ≥ t.num / t.den  ⇔  sum·t.den ≥ t.num·den·n (denominators are positive)
  const passed = sum.num * t.den >= t.num * sum.den * n;
  return { mean: Number(sum.num) / Number(sum.den * n), passed };
}

/** A score as people read it: the float noise gone, every meaningful digit kept. */
export function formatScore(value: number): string {
  return String(Number(value.toPrecision(12)));
}

/**
 * What the orchestrator makes of one element of the decision list: the
 * documented JSON (`{"decision":"PROCEED",…}`), or a bare word, which it
 * accepts but notes.
 */
export function parseDecision(raw: unknown): { decision?: Decision; json: boolean } {
  if (typeof raw !== 'string') return { json: false };
  const word = (value: unknown): Decision | undefined => {
    const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
    return upper === 'PROCEED' || upper === 'ITERATE' || upper === 'ABORT' ? upper : undefined;
  };
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === 'object') {
      const decision = word((parsed as Record<string, unknown>).decision);
      return decision ? { decision, json: true } : { json: true };
    }
  } catch {
    // not JSON: a bare word, perhaps
  }
  const bare = word(raw);
  return bare ? { decision: bare, json: false } : { json: false };
}
