import type { ExecutorSession, ExecutorSessionOptions } from '../executor/session.js';
import { finishTrace } from './finish.js';
import { forIteration, type Decision, type ImplementerSpec, type Scenario, type ValidatorSpec } from './scenario.js';
import type { AgentRecord, DecisionRecord, IterationRecord, SimulationTrace, TimelineStep } from './trace.js';
import { delay, World, type Signal } from './world.js';

/**
 * The CFN Loop as the runtime documents it, played with the profiles' real
 * hooks:
 *
 *   Loop 3  implementers run concurrently, report `swarm:{T}:{A}:done`,
 *           `:confidence` and `:result`, and block until the iteration ends.
 *           A missing report counts as confidence 0.0; an agent that never
 *           reports is replaced by a fresh one after agentTimeoutMs.
 *   gate    mean confidence ≥ the mode's gate → `swarm:{T}:gate-passed`;
 *           a failed gate skips Loop 2 and iterates.
 *   Loop 2  validators, spawned on the gate, block on gate-passed (signal
 *           after N ms, or time out and report nothing), then report; the
 *           consensus is the mean score (missing = 0.0) →
 *           `swarm:{T}:consensus-complete`.
 *   PO      the Product Owner blocks on consensus-complete, then decides
 *           PROCEED / ITERATE / ABORT → `swarm:{T}:product-owner:decision`.
 *   ITERATE spawns fresh agents (new ids) for the next iteration, up to
 *           maxIterations.
 *
 * Lifecycle hooks each agent runs: `pre_task` (or `pre`) when it starts,
 * `on_blocking_start` / `on_signal_received` / `on_blocking_timeout` around
 * each wait, `on_error` when it fails, `post_task` (or `post`) when it is done.
 */

export interface SwarmOptions {
  session?: Partial<ExecutorSessionOptions>;
  createSession?: (options: ExecutorSessionOptions) => Promise<ExecutorSession>;
  onStep?: (step: TimelineStep) => void;
}

const START_HOOKS = ['pre_task', 'pre'];
const END_HOOKS = ['post_task', 'post'];

export function reportKeys(task: string, agentId: string): { done: string; confidence: string; result: string } {
  return {
    done: `swarm:${task}:${agentId}:done`,
    confidence: `swarm:${task}:${agentId}:confidence`,
    result: `swarm:${task}:${agentId}:result`,
  };
}

export async function simulateSwarm(scenario: Scenario, options: SwarmOptions = {}): Promise<SimulationTrace> {
  const T = scenario.task;
  const world = await World.create({
    swarmId: scenario.swarmId,
    task: scenario.description,
    taskId: T,
    phase: scenario.phase,
    hookTimeoutMs: scenario.hookTimeoutMs,
    ...(options.session ? { session: options.session } : {}),
    ...(options.createSession ? { createSession: options.createSession } : {}),
    ...(options.onStep ? { onStep: options.onStep } : {}),
  });
  const iterations: IterationRecord[] = [];
  const decisions: DecisionRecord[] = [];
  let outcome = 'iteration-limit';

  const firstHook = async (agent: AgentRecord, names: readonly string[]): Promise<void> => {
    const profile = await world.profile(agent.profile);
    const name = names.find((candidate) => profile.hooks.some((hook) => hook.name === candidate));
    if (name) await world.runHook(agent, name);
  };
  const instanceId = (id: string, iteration: number): string => (iteration === 1 ? id : `${id}-it${iteration}`);

  const report = async (agent: AgentRecord, score: number, kind: 'confidence' | 'consensus'): Promise<void> => {
    const keys = reportKeys(T, agent.id);
    await world.redis(['SET', keys.confidence, String(score)], agent.id);
    await world.redis(
      ['SET', keys.result, JSON.stringify({ agent: agent.id, iteration: agent.iteration, [kind]: score, status: 'complete' })],
      agent.id,
    );
    await world.redis(['LPUSH', keys.done, 'complete'], agent.id);
    agent.status = 'reported';
    agent.reported = score;
    world.step({
      actor: agent.id,
      kind: 'report',
      iteration: agent.iteration,
      text: `reports ${kind} ${score} (${keys.done}, :confidence, :result)`,
    });
  };

  try {
    for (const spec of [...scenario.loop3, ...scenario.loop2, ...(scenario.productOwner ? [scenario.productOwner] : [])])
      await world.profile(spec.profile);

    for (let n = 1; n <= scenario.maxIterations; n++) {
      world.step({ actor: 'orchestrator', kind: 'iteration', iteration: n, text: `iteration ${n} of at most ${scenario.maxIterations}` });
      if (n > 1) await world.redis(['DEL', `swarm:${T}:gate-passed`, `swarm:${T}:consensus-complete`]);
      const wake: Signal = world.signal();

      // Loop 3: every implementer at once; the barrier is "reported (or not) and blocked".
      const implementers = scenario.loop3.map((spec) => runImplementer(spec, n, wake));
      const settled = await Promise.all(implementers.map((implementer) => implementer.ready));

      const confidences: IterationRecord['implementers'] = [];
      for (const agent of settled) {
        const raw = await world.redis(['GET', reportKeys(T, agent.id).confidence]);
        const value = typeof raw === 'string' ? Number(raw) : NaN;
        const reported = Number.isFinite(value);
        if (!reported)
          world.step({
            actor: 'orchestrator',
            kind: 'missing-report',
            iteration: n,
            text: `no report from ${agent.id}: counted as confidence 0.0`,
          });
        confidences.push({ agentId: agent.id, confidence: reported ? value : 0, reported });
      }
      const mean = round(average(confidences.map((c) => c.confidence)));
      const gate = { threshold: scenario.thresholds.gate, confidence: mean, passed: mean >= scenario.thresholds.gate };
      world.step({
        actor: 'orchestrator',
        kind: 'gate',
        iteration: n,
        text: `gate ${gate.passed ? 'passed' : 'failed'}: mean confidence ${mean} ${gate.passed ? '≥' : '<'} ${gate.threshold} (${scenario.mode})`,
      });

      let record: IterationRecord;
      if (!gate.passed) {
        const decision: DecisionRecord = { iteration: n, by: 'gate', decision: 'ITERATE', confidence: mean };
        record = { iteration: n, implementers: confidences, gate, decision };
        wakeAll(wake, { type: 'gate-failed', iteration: n, confidence: mean, threshold: gate.threshold, decision: 'ITERATE' }, settled);
      } else {
        const signal = { type: 'gate-passed', task: T, iteration: n, confidence: mean };
        await world.redis(['LPUSH', `swarm:${T}:gate-passed`, JSON.stringify(signal)]);
        world.step({
          actor: 'orchestrator',
          kind: 'signal',
          iteration: n,
          text: `signals swarm:${T}:gate-passed`,
          to: scenario.loop2.map((v) => instanceId(v.id, n)),
        });
        const gatePassedAt = world.now();

        const consensusSignal = world.signal();
        const productOwner = scenario.productOwner ? runProductOwner(n, consensusSignal) : undefined;
        const scores = await Promise.all(scenario.loop2.map((spec) => runValidator(spec, n, signal, gatePassedAt)));
        const consensusScore = round(average(scores.map((s) => s.score)));
        const consensus = {
          threshold: scenario.thresholds.consensus,
          score: consensusScore,
          passed: consensusScore >= scenario.thresholds.consensus,
        };
        const complete = {
          type: 'consensus-complete',
          task: T,
          iteration: n,
          consensus: consensusScore,
          threshold: consensus.threshold,
          passed: consensus.passed,
        };
        await world.redis(['LPUSH', `swarm:${T}:consensus-complete`, JSON.stringify(complete)]);
        world.step({
          actor: 'orchestrator',
          kind: 'consensus',
          iteration: n,
          text: `consensus ${consensus.passed ? 'reached' : 'failed'}: ${consensusScore} ${consensus.passed ? '≥' : '<'} ${consensus.threshold}; signals swarm:${T}:consensus-complete`,
          ...(scenario.productOwner ? { to: [instanceId(scenario.productOwner.id, n)] } : {}),
        });
        consensusSignal.fire(complete);

        let decided: Decision;
        if (productOwner) {
          decided = await productOwner(consensus.passed);
        } else {
          decided = consensus.passed ? 'PROCEED' : 'ITERATE';
          await world.redis(['SET', `swarm:${T}:product-owner:decision`, decided]);
          world.step({ actor: 'orchestrator', kind: 'decision', iteration: n, text: `no Product Owner: ${decided} by consensus` });
        }
        const decision: DecisionRecord = {
          iteration: n,
          by: 'product-owner',
          decision: decided,
          confidence: mean,
          consensus: consensusScore,
        };
        record = { iteration: n, implementers: confidences, gate, validators: scores, consensus, decision };
        wakeAll(wake, { type: 'product-owner-decision', iteration: n, decision: decided, consensus: consensusScore }, settled);
      }
      await Promise.all(implementers.map((implementer) => implementer.finished));
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
        outcome = 'iteration-limit';
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
  });

  function wakeAll(wake: Signal, data: unknown, agents: AgentRecord[]): void {
    const waiting = agents.filter((agent) => agent.status === 'blocked');
    world.step({
      actor: 'orchestrator',
      kind: 'signal',
      iteration: (data as { iteration: number }).iteration,
      text: `wakes Loop 3: ${JSON.stringify(data)}`,
      to: waiting.map((agent) => agent.id),
    });
    wake.fire(data);
  }

  /** One implementer's iteration; `ready` once it reported (or could not) and blocked, `finished` when its lifecycle is over. */
  function runImplementer(spec: ImplementerSpec, n: number, wake: Signal): { ready: Promise<AgentRecord>; finished: Promise<void> } {
    let markReady!: (agent: AgentRecord) => void;
    const ready = new Promise<AgentRecord>((resolve) => {
      markReady = resolve;
    });
    const finished = (async () => {
      let agent = world.spawn({ id: instanceId(spec.id, n), specId: spec.id, role: 'implementer', profile: spec.profile, iteration: n });
      await firstHook(agent, START_HOOKS);
      if (spec.timeoutIn.includes(n)) {
        world.step({
          actor: agent.id,
          kind: 'note',
          iteration: n,
          text: `works past the agent timeout (${scenario.agentTimeoutMs} ms) without reporting`,
        });
        await delay(scenario.agentTimeoutMs);
        agent.status = 'timed-out';
        world.step({
          actor: 'orchestrator',
          kind: 'replace',
          iteration: n,
          text: `${agent.id} did not report within ${scenario.agentTimeoutMs} ms: replaced by a fresh agent`,
        });
        const replaced = agent;
        replaced.status = 'replaced';
        agent = world.spawn({
          id: `${replaced.id}-r1`,
          specId: spec.id,
          role: 'implementer',
          profile: spec.profile,
          iteration: n,
          replaces: replaced.id,
        });
        await firstHook(agent, START_HOOKS);
      } else if (spec.failIn.includes(n)) {
        world.step({ actor: agent.id, kind: 'note', iteration: n, text: 'fails before reporting' });
        await world.runHook(agent, 'on_error', { ERROR: 'simulated agent failure' });
        agent.status = 'failed';
        markReady(agent);
        return;
      }
      if (spec.noReportIn.includes(n)) {
        world.step({ actor: agent.id, kind: 'note', iteration: n, text: 'finishes without reporting' });
        agent.status = 'no-report';
      } else {
        await report(agent, forIteration(spec.confidence, n), 'confidence');
      }
      const me = agent;
      const waited = world.block(me, {
        blockingType: 'gate',
        thresholdMs: spec.blockingTimeoutMs ?? scenario.blockingTimeoutMs,
        waitingFor: "the iteration's outcome (gate or Product Owner)",
        get signal() {
          markReady(me);
          return wake.promise;
        },
        signalId: `swarm:${T}:iteration-${n}`,
      });
      await waited;
      await firstHook(me, END_HOOKS);
      me.status = 'done';
    })();
    // Should the lifecycle throw before blocking, the barrier must not hang.
    void finished.catch(() => undefined);
    return { ready, finished: finished.then(() => undefined) };
  }

  async function runValidator(
    spec: ValidatorSpec,
    n: number,
    gateSignal: unknown,
    gatePassedAt: number,
  ): Promise<{ agentId: string; score: number; reported: boolean }> {
    const agent = world.spawn({ id: instanceId(spec.id, n), specId: spec.id, role: 'validator', profile: spec.profile, iteration: n });
    await firstHook(agent, START_HOOKS);
    const blocking = forIteration(spec.blocking, n);
    // The gate signal is already in Redis; it reaches this validator N ms after the gate passed.
    const signal =
      blocking === 'timeout'
        ? undefined
        : delay(Math.max(0, gatePassedAt + blocking.signalAfterMs - world.now())).then(() => ({ data: gateSignal }));
    const waited = await world.block(agent, {
      blockingType: 'gate',
      thresholdMs: spec.blockingTimeoutMs ?? scenario.blockingTimeoutMs,
      waitingFor: `swarm:${T}:gate-passed${blocking === 'timeout' ? ' (it will not reach this validator)' : ` (reaches it ${blocking.signalAfterMs} ms after the gate)`}`,
      ...(signal ? { signal } : {}),
      signalId: `swarm:${T}:gate-passed`,
    });
    if (waited.kind === 'timeout') {
      world.step({
        actor: 'orchestrator',
        kind: 'missing-report',
        iteration: n,
        text: `no consensus report from ${agent.id}: counted as 0.0`,
      });
      agent.status = 'timed-out';
      return { agentId: agent.id, score: 0, reported: false };
    }
    const score = forIteration(spec.consensus, n);
    await report(agent, score, 'consensus');
    await firstHook(agent, END_HOOKS);
    agent.status = 'done';
    return { agentId: agent.id, score, reported: true };
  }

  /** Spawns the Product Owner, which blocks on consensus-complete; the returned function decides once consensus is known. */
  function runProductOwner(n: number, consensusSignal: Signal): (consensusPassed: boolean) => Promise<Decision> {
    const spec = scenario.productOwner!;
    const agent = world.spawn({ id: instanceId(spec.id, n), specId: spec.id, role: 'product-owner', profile: spec.profile, iteration: n });
    const waited = (async () => {
      await firstHook(agent, START_HOOKS);
      return world.block(agent, {
        blockingType: 'consensus',
        thresholdMs: spec.blockingTimeoutMs ?? scenario.blockingTimeoutMs,
        waitingFor: `swarm:${T}:consensus-complete`,
        signal: consensusSignal.promise,
        signalId: `swarm:${T}:consensus-complete`,
      });
    })();
    return async (consensusPassed) => {
      const wait = await waited;
      const configured = spec.decisions.length > 0 ? forIteration(spec.decisions, n) : undefined;
      const decided: Decision = configured ?? (consensusPassed ? 'PROCEED' : 'ITERATE');
      if (wait.kind === 'timeout')
        world.step({ actor: agent.id, kind: 'note', iteration: n, text: 'timed out waiting for consensus; decides on what it has' });
      await world.redis(['SET', `swarm:${T}:product-owner:decision`, decided], agent.id);
      world.step({ actor: agent.id, kind: 'decision', iteration: n, text: `decides ${decided} (swarm:${T}:product-owner:decision)` });
      await firstHook(agent, END_HOOKS);
      agent.status = 'done';
      return decided;
    };
  }
}

function average(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
