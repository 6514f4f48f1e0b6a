import type { ExecutorSession, ExecutorSessionOptions } from '../executor/session.js';
import { createCrew, instanceId, type Work } from './agents.js';
import { finishTrace } from './finish.js';
import { formatScore, meanAgainst, parseDecision, reportKeys, SIGNAL_VALUE, swarmKeys } from './protocol.js';
import { forIteration, type Decision, type Scenario } from './scenario.js';
import type { AgentRecord, DecisionRecord, IterationRecord, ScoreRecord, SimulationTrace, TimelineStep } from './trace.js';
import { World } from './world.js';

/**
 * The CFN Loop as AGENT_LIFECYCLE v2 specifies it, played with the
 * profiles' real hooks ("Iteration Pattern", the role protocols, "Error
 * Handling"):
 *
 *   Loop 3  the orchestrator spawns the implementers; each works, signals
 *           `LPUSH swarm:{T}:{A}:done "complete"`, reports its confidence and
 *           result, and exits. Nothing wakes it.
 *   gate    after they exit the orchestrator LPOPs each `:done` and GETs each
 *           `:confidence`: no `:done`, no confidence, a non-zero exit or a
 *           timeout count 0.0 (a failed or timed-out agent is replaced once).
 *           The exact mean is compared with the gate (0.7496 fails 0.75).
 *   Loop 2  on a pass the orchestrator LPUSHes `gate-passed` "1", one element
 *           per validator, and spawns them; each BLPOPs it (one element wakes
 *           one waiter), reads Loop 3's results, validates, reports, exits.
 *   PO      on consensus the orchestrator writes what the Product Owner is
 *           told to read (`loop2:consensus`, `loop2:feedback`,
 *           `success-criteria`), LPUSHes `consensus-complete` "1" and spawns
 *           it; the PO LPUSHes its decision as JSON and exits; the
 *           orchestrator reads it. A failed gate or consensus iterates.
 *   ITERATE spawns fresh agents (new AGENT_IDs), up to maxIterations.
 *
 * Blocking hooks run only where an agent's scenario entry declares blocking
 * coordination. `waitingMode: true` plays the v1 protocol instead: Loop 3
 * agents block after reporting until the orchestrator wakes them (reported
 * as the v2 anti-pattern).
 */

export interface SwarmOptions {
  session?: Partial<ExecutorSessionOptions>;
  createSession?: (options: ExecutorSessionOptions) => Promise<ExecutorSession>;
  onStep?: (step: TimelineStep) => void;
}

export { reportKeys };

export async function simulateSwarm(scenario: Scenario, options: SwarmOptions = {}): Promise<SimulationTrace> {
  const T = scenario.task;
  const keys = swarmKeys(T);
  const world = await World.create({
    swarmId: scenario.swarmId,
    task: scenario.description,
    taskId: T,
    phase: scenario.phase,
    hookTimeoutMs: scenario.hookTimeoutMs,
    ...(scenario.maxConcurrentStarts !== undefined ? { maxConcurrentStarts: scenario.maxConcurrentStarts } : {}),
    ...(options.session ? { session: options.session } : {}),
    ...(options.createSession ? { createSession: options.createSession } : {}),
    ...(options.onStep ? { onStep: options.onStep } : {}),
  });
  const crew = createCrew(world, scenario);
  const iterations: IterationRecord[] = [];
  const decisions: DecisionRecord[] = [];
  let outcome = 'iteration-limit';

  /** What the orchestrator reads after an agent exited: `LPOP :done`, `GET :confidence`; anything missing is 0.0. */
  const collect = async (agent: AgentRecord, n: number, what: string): Promise<ScoreRecord> => {
    const report = reportKeys(T, agent.id);
    const done = await world.redis(['LPOP', report.done]);
    const raw = await world.redis(['GET', report.confidence]);
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    const reason =
      agent.status === 'timed-out'
        ? 'timed out'
        : agent.exitCode !== undefined && agent.exitCode !== 0
          ? `exited ${agent.exitCode ?? 'killed'}`
          : typeof done !== 'string'
            ? typeof raw === 'string'
              ? 'no completion signal (:confidence without :done)'
              : 'no completion signal'
            : !Number.isFinite(value) || value < 0 || value > 1
              ? typeof raw === 'string'
                ? `confidence ${JSON.stringify(raw)} is not a score`
                : 'no confidence reported'
              : undefined;
    if (reason) {
      world.step({ actor: 'orchestrator', kind: 'missing-report', iteration: n, text: `${agent.id}: ${reason}: counted as ${what} 0.0` });
      return { agentId: agent.id, score: 0, reported: false, reason };
    }
    return { agentId: agent.id, score: value, reported: true };
  };

  const productOwnerHooksDecide = async (): Promise<boolean> => {
    if (!scenario.productOwner) return false;
    const profile = await world.profile(scenario.productOwner.profile);
    return profile.hooks.some((hook) => /\b[lr]push\b/i.test(hook.text) && hook.text.includes('product-owner:decision'));
  };

  try {
    for (const spec of [...scenario.loop3, ...scenario.loop2, ...(scenario.productOwner ? [scenario.productOwner] : [])])
      await world.profile(spec.profile);
    const hooksDecide = scenario.productOwner?.decisions.length === 0 && (await productOwnerHooksDecide());
    const criteria =
      scenario.successCriteria ??
      JSON.stringify({ task: scenario.description, gate: scenario.thresholds.gate, consensus: scenario.thresholds.consensus });
    await world.redis(['SET', keys.successCriteria, criteria]);

    for (let n = 1; n <= scenario.maxIterations; n++) {
      world.step({ actor: 'orchestrator', kind: 'iteration', iteration: n, text: `iteration ${n} of at most ${scenario.maxIterations}` });
      await world.redis(['RPUSH', keys.metricsIterationStart, String(Date.now())]);
      if (n > 1) await world.redis(['DEL', keys.gatePassed, keys.consensusComplete]);

      // Loop 3. In waiting mode (v1) the orchestrator goes on once each has reported and parked itself.
      let wake: ((data: unknown) => void) | undefined;
      const woken = new Promise<{ data: unknown }>((resolve) => {
        wake = (data) => resolve({ data });
      });
      const parked: Array<Promise<void>> = [];
      const implementers = scenario.loop3.map((spec) => {
        let markParked!: () => void;
        parked.push(
          new Promise<void>((resolve) => {
            markParked = resolve;
          }),
        );
        const work: Work = async (agent, { first }) => {
          await crew.report(agent, spec, forIteration(spec.confidence, n), 'confidence', first);
          if (scenario.waitingMode) {
            markParked();
            await world.block(agent, {
              blockingType: 'consensus',
              thresholdMs: scenario.blockingTimeoutMs,
              waitingFor: 'the orchestrator to wake it (v1 waiting mode)',
              signal: woken,
            });
          }
          return 'finished';
        };
        const slot = crew.slot(spec, 'implementer', n, work);
        void slot.then(markParked, markParked);
        return slot;
      });
      if (scenario.waitingMode) await Promise.all(parked);
      const loop3Agents = scenario.waitingMode ? finalInstances(world, scenario.loop3, n) : await Promise.all(implementers);

      const confidences: ScoreRecord[] = [];
      for (const agent of loop3Agents) confidences.push(await collect(agent, n, 'confidence'));
      const gateCheck = meanAgainst(
        confidences.map((c) => c.score),
        scenario.thresholds.gate,
      );
      const gate = { threshold: scenario.thresholds.gate, confidence: gateCheck.mean, passed: gateCheck.passed };
      await world.redis(['RPUSH', keys.metricsLoop3, JSON.stringify({ iteration: n, ...gate, scores: confidences.map((c) => c.score) })]);
      world.step({
        actor: 'orchestrator',
        kind: 'gate',
        iteration: n,
        text: `gate ${gate.passed ? 'passed' : 'failed'}: mean confidence ${formatScore(gate.confidence)} ${gate.passed ? '≥' : '<'} ${gate.threshold} (${scenario.mode})`,
      });

      let record: IterationRecord;
      if (!gate.passed) {
        record = {
          iteration: n,
          implementers: confidences,
          gate,
          decision: { iteration: n, by: 'gate', decision: 'ITERATE', confidence: gate.confidence },
        };
      } else {
        // One element per validator: each BLPOP takes one.
        const validatorIds = scenario.loop2.map((v) => instanceId(v.id, n));
        // This round's feedback only: the Product Owner reads the whole list.
        await world.redis(['DEL', keys.loop2Feedback]);
        await world.redis(['LPUSH', keys.gatePassed, ...validatorIds.map(() => SIGNAL_VALUE)]);
        world.step({
          actor: 'orchestrator',
          kind: 'signal',
          iteration: n,
          text: `LPUSH ${keys.gatePassed} "1" ×${validatorIds.length}; spawns Loop 2`,
        });
        const validators = await Promise.all(
          scenario.loop2.map((spec) =>
            crew.slot(spec, 'validator', n, async (agent, { first }) => {
              const viaHooks = await crew.hooksDo(spec, 'blpop', 'gate-passed');
              const popped = viaHooks ? [] : await world.redis(['BLPOP', keys.gatePassed, crew.waitSeconds()], agent.id);
              if (!Array.isArray(popped)) {
                world.step({ actor: agent.id, kind: 'note', iteration: n, text: `BLPOP ${keys.gatePassed}: nothing for it` });
                return 'hung';
              }
              world.step({
                actor: agent.id,
                kind: viaHooks ? 'note' : 'signal',
                iteration: n,
                text: viaHooks ? `its hooks BLPOP ${keys.gatePassed}` : `BLPOP ${keys.gatePassed} → "${String(popped[1])}"`,
              });
              for (const implementer of loop3Agents) {
                const theirs = reportKeys(T, implementer.id);
                await world.redis(['GET', theirs.result], agent.id);
                await world.redis(['GET', theirs.confidence], agent.id);
              }
              await crew.report(agent, spec, forIteration(spec.consensus, n), 'consensus', first);
              return 'finished';
            }),
          ),
        );
        const scores: ScoreRecord[] = [];
        for (const agent of validators) {
          scores.push(await collect(agent, n, 'consensus'));
          const result = await world.redis(['GET', reportKeys(T, agent.id).result]);
          if (typeof result === 'string') await world.redis(['RPUSH', keys.loop2Feedback, result]);
        }
        const check = meanAgainst(
          scores.map((s) => s.score),
          scenario.thresholds.consensus,
        );
        const consensus = { threshold: scenario.thresholds.consensus, score: check.mean, passed: check.passed };
        await world.redis(['SET', keys.loop2Consensus, String(consensus.score)]);
        await world.redis(['RPUSH', keys.metricsLoop2, JSON.stringify({ iteration: n, ...consensus, scores: scores.map((s) => s.score) })]);
        world.step({
          actor: 'orchestrator',
          kind: 'consensus',
          iteration: n,
          text: `consensus ${consensus.passed ? 'reached' : 'failed'}: ${formatScore(consensus.score)} ${consensus.passed ? '≥' : '<'} ${consensus.threshold}`,
        });
        let decision: DecisionRecord;
        if (!consensus.passed) {
          decision = { iteration: n, by: 'consensus', decision: 'ITERATE', confidence: gate.confidence, consensus: consensus.score };
        } else if (!scenario.productOwner) {
          decision = { iteration: n, by: 'consensus', decision: 'PROCEED', confidence: gate.confidence, consensus: consensus.score };
          world.step({ actor: 'orchestrator', kind: 'decision', iteration: n, text: 'no Product Owner: PROCEED on consensus' });
        } else {
          const decided = await productOwnerRound(n, hooksDecide);
          decision = { iteration: n, by: 'product-owner', decision: decided, confidence: gate.confidence, consensus: consensus.score };
        }
        record = { iteration: n, implementers: confidences, gate, validators: scores, consensus, decision };
      }
      if (scenario.waitingMode) {
        world.step({
          actor: 'orchestrator',
          kind: 'signal',
          iteration: n,
          text: `wakes Loop 3 (v1 waiting mode): ${record.decision.decision}`,
          to: loop3Agents.filter((a) => a.status === 'blocked').map((a) => a.id),
        });
        wake!({ type: 'wake', iteration: n, decision: record.decision.decision });
        await Promise.all(implementers);
      }
      iterations.push(record);
      decisions.push(record.decision);

      if (record.decision.decision === 'PROCEED') {
        outcome = 'completed';
        break;
      }
      if (record.decision.decision === 'ABORT') {
        outcome = 'aborted';
        break;
      }
      if (n === scenario.maxIterations) {
        decisions.push({ iteration: n, by: 'iteration-limit', decision: 'ABORT' });
        world.step({
          actor: 'orchestrator',
          kind: 'outcome',
          iteration: n,
          text: `iteration limit (${scenario.maxIterations}) reached without PROCEED: stops`,
        });
      }
    }
    if (outcome !== 'iteration-limit')
      world.step({
        actor: 'orchestrator',
        kind: 'outcome',
        text: outcome === 'completed' ? 'PROCEED: task complete' : 'ABORT: task abandoned',
      });
  } catch (error) {
    await world.close();
    throw error;
  }
  return finishTrace(world, {
    kind: 'swarm',
    source: scenario.file,
    task: scenario.description,
    taskId: T,
    phase: scenario.phase,
    mode: scenario.mode,
    thresholds: scenario.thresholds,
    maxIterations: scenario.maxIterations,
    outcome,
    iterations,
    decisions,
    ...(scenario.waitingModeRange ? { waitingMode: { file: scenario.file, range: scenario.waitingModeRange } } : {}),
  });

  /** Spawns the Product Owner and reads what it LPUSHed; no decision counts as ITERATE. */
  async function productOwnerRound(n: number, hooksDecide: boolean): Promise<Decision> {
    const spec = scenario.productOwner!;
    await world.redis(['LPUSH', keys.consensusComplete, SIGNAL_VALUE]);
    world.step({
      actor: 'orchestrator',
      kind: 'signal',
      iteration: n,
      text: `LPUSH ${keys.consensusComplete} "1"; spawns the Product Owner`,
    });
    const before = Number(await world.redis(['LLEN', keys.decision])) || 0;
    await crew.slot(spec, 'product-owner', n, async (agent) => {
      const viaHooks = await crew.hooksDo(spec, 'blpop', 'consensus-complete');
      const popped = viaHooks ? [] : await world.redis(['BLPOP', keys.consensusComplete, crew.waitSeconds()], agent.id);
      if (!Array.isArray(popped)) return 'hung';
      world.step({
        actor: agent.id,
        kind: viaHooks ? 'note' : 'signal',
        iteration: n,
        text: viaHooks ? `its hooks BLPOP ${keys.consensusComplete}` : `BLPOP ${keys.consensusComplete} → "${String(popped[1])}"`,
      });
      const consensus = await world.redis(['GET', keys.loop2Consensus], agent.id);
      await world.redis(['LRANGE', keys.loop2Feedback, '0', '-1'], agent.id);
      await world.redis(['GET', keys.successCriteria], agent.id);
      if (hooksDecide) return 'finished';
      const decided = spec.decisions.length > 0 ? forIteration(spec.decisions, n) : 'PROCEED';
      const json = JSON.stringify({ decision: decided, iteration: n, consensus: Number(consensus), agent: agent.id });
      await world.redis(['LPUSH', keys.decision, json], agent.id);
      world.step({ actor: agent.id, kind: 'decision', iteration: n, text: `LPUSH ${keys.decision} ${json}` });
      return 'finished';
    });
    const after = Number(await world.redis(['LLEN', keys.decision])) || 0;
    const fresh = after > before ? await world.redis(['LRANGE', keys.decision, '0', String(after - before - 1)]) : [];
    for (const raw of Array.isArray(fresh) ? fresh : []) {
      const parsed = parseDecision(raw);
      if (!parsed.decision) continue;
      world.step({
        actor: 'orchestrator',
        kind: 'decision',
        iteration: n,
        text: `reads the Product Owner's decision: ${parsed.decision}${parsed.json ? '' : ' (a bare word, not the documented JSON)'}`,
      });
      return parsed.decision;
    }
    world.step({ actor: 'orchestrator', kind: 'decision', iteration: n, text: 'no decision from the Product Owner: ITERATE' });
    return 'ITERATE';
  }
}

/** Each Loop 3 entry's last instance in iteration n (the replacement, when there is one). */
function finalInstances(world: World, specs: Scenario['loop3'], n: number): AgentRecord[] {
  return specs.map((spec) => {
    const mine = world.agents.filter((agent) => agent.specId === spec.id && agent.iteration === n && agent.role === 'implementer');
    return mine[mine.length - 1]!;
  });
}
