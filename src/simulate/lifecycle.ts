import { basename, extname } from 'node:path';
import type { ExecutorSession, ExecutorSessionOptions } from '../executor/session.js';
import { finishTrace } from './finish.js';
import type { BlockingType } from './scenario.js';
import type { SimulationTrace, TimelineStep } from './trace.js';
import { delay, World } from './world.js';

/**
 * One agent's blocking lifecycle, as the runtime documents it
 * (agent-lifecycle-hooks.md): `on_blocking_start`, the wait, then
 * `on_signal_received` (a signal arrived) or `on_blocking_timeout` (the
 * threshold passed), in one session that shares memory and Redis. Hook
 * failures are logged and the lifecycle goes on.
 */

export interface LifecycleOptions {
  scenario: 'signal' | 'timeout';
  /** When the signal arrives (signal scenario). Default 200 ms. */
  signalAfterMs?: number;
  /** TIMEOUT_THRESHOLD: default 1000 ms for the timeout scenario, the runtime's 300000 for the signal one. */
  timeoutThresholdMs?: number;
  agentId?: string;
  swarmId?: string;
  task?: string;
  iteration?: number;
  phase?: string;
  /** BLOCKING_TYPE: one of the documented consensus, validation, dependency (default consensus). */
  blockingType?: BlockingType;
  /** SIGNAL_DATA (default: a coordinator's completion signal). */
  signalData?: string;
  hookTimeoutMs?: number;
  session?: Partial<ExecutorSessionOptions>;
  createSession?: (options: ExecutorSessionOptions) => Promise<ExecutorSession>;
  onStep?: (step: TimelineStep) => void;
}

export const LIFECYCLE_DEFAULTS = { signalAfterMs: 200, timeoutThresholdMs: 1000, signalThresholdMs: 300_000 } as const;

export async function simulateLifecycle(profile: string, options: LifecycleOptions): Promise<SimulationTrace> {
  const agentId = options.agentId ?? `${basename(profile, extname(profile)) || 'agent'}-1`;
  const swarmId = options.swarmId ?? 'swarm-local';
  const task = options.task ?? 'Implement the sample task';
  const world = await World.create({
    swarmId,
    task,
    ...(options.phase !== undefined ? { phase: options.phase } : {}),
    ...(options.hookTimeoutMs !== undefined ? { hookTimeoutMs: options.hookTimeoutMs } : {}),
    ...(options.session ? { session: options.session } : {}),
    ...(options.createSession ? { createSession: options.createSession } : {}),
    ...(options.onStep ? { onStep: options.onStep } : {}),
  });
  let outcome: string;
  try {
    const loaded = await world.profile(profile);
    const agent = world.spawn({
      id: agentId,
      specId: agentId,
      role: 'agent',
      profile,
      ...(options.iteration !== undefined ? { iteration: options.iteration } : {}),
    });
    for (const name of ['on_blocking_start', 'on_signal_received', 'on_blocking_timeout']) {
      if (!loaded.hooks.some((hook) => hook.name === name))
        world.step({ actor: agentId, kind: 'note', text: `the profile has no ${name} hook` });
    }
    const signalAfterMs = options.signalAfterMs ?? LIFECYCLE_DEFAULTS.signalAfterMs;
    const thresholdMs =
      options.timeoutThresholdMs ??
      (options.scenario === 'timeout'
        ? LIFECYCLE_DEFAULTS.timeoutThresholdMs
        : Math.max(LIFECYCLE_DEFAULTS.signalThresholdMs, signalAfterMs + 1000));
    const signalData = options.signalData ?? JSON.stringify({ type: 'completion', coordinator: 'coordinator-1', status: 'ready' });
    // The signal's clock starts when the agent starts waiting, as a coordinator's would.
    let signal: Promise<{ data: unknown }> | undefined;
    const result = await world.block(agent, {
      blockingType: options.blockingType ?? 'consensus',
      thresholdMs,
      waitingFor: options.scenario === 'signal' ? `a signal (arrives after ${signalAfterMs} ms)` : 'a signal (none will come)',
      get signal() {
        if (options.scenario !== 'signal') return undefined;
        signal ??= delay(signalAfterMs, { unref: true }).then(() => {
          world.step({ actor: 'coordinator', kind: 'signal', text: `signals ${agentId}`, to: [agentId] });
          return { data: signalData };
        });
        return signal;
      },
      signalId: 'signal-1',
    });
    outcome = result.kind;
    if (options.scenario === 'signal' && result.kind === 'timeout') {
      world.step({
        actor: agentId,
        kind: 'note',
        text: `the signal (after ${signalAfterMs} ms) came too late for the ${thresholdMs} ms threshold`,
      });
    }
    agent.status = 'done';
    world.step({
      actor: agentId,
      kind: 'outcome',
      text: result.kind === 'signal' ? 'resumed work after the signal' : 'timed out: escalated',
    });
  } catch (error) {
    await world.close();
    throw error;
  }
  return finishTrace(world, {
    kind: 'lifecycle',
    source: profile,
    task,
    ...(options.phase !== undefined ? { phase: options.phase } : {}),
    outcome,
  });
}
