import type { AgentSpec, BlockingSpec, Scenario } from './scenario.js';
import { DONE_VALUE, RESULT_TTL_SECONDS, reportKeys } from './protocol.js';
import type { AgentRecord, AgentRole } from './trace.js';
import { delay, type World } from './world.js';

/**
 * One agent as AGENT_LIFECYCLE v2 describes it: spawned, executing (with the
 * blocking coordination its scenario entry declares, and the hooks around
 * it), reporting, exiting. An agent that fails (non-zero exit), runs past
 * its role timeout or gives its task back is replaced by a fresh one, once.
 */

export const START_HOOKS = ['pre_task', 'pre'];
export const END_HOOKS = ['post_task', 'post'];

/** What the agent's own work did: finished (it may or may not have reported), or hung past its role timeout. */
export type WorkResult = 'finished' | 'hung';
export type Work = (agent: AgentRecord, context: { first: boolean }) => Promise<WorkResult>;

export interface Crew {
  /** Runs one scenario entry's agent for iteration `n`, replacing it once if it fails; resolves to the instance whose report counts. */
  slot(spec: AgentSpec, role: AgentRole, n: number, work: Work): Promise<AgentRecord>;
  /** The documented report: `LPUSH :done "complete"`, the confidence, the result (or less, as the scenario says). */
  report(agent: AgentRecord, spec: AgentSpec, score: number, kind: 'confidence' | 'consensus', first: boolean): Promise<void>;
  /** How long (seconds, for BLPOP) an agent's wait may last before its role timeout takes it. */
  waitSeconds(): string;
  /**
   * Whether the hooks this agent runs already take a protocol step that
   * consumes (`blpop` of gate-passed or consensus-complete): then the agent
   * leaves it to them rather than take a second element meant for another.
   */
  hooksDo(spec: AgentSpec, command: string, keyPart: string): Promise<boolean>;
}

export function instanceId(id: string, iteration: number): string {
  return iteration === 1 ? id : `${id}-it${iteration}`;
}

export function createCrew(world: World, scenario: Scenario): Crew {
  const T = scenario.task;

  const firstHook = async (agent: AgentRecord, names: readonly string[]): Promise<void> => {
    const profile = await world.profile(agent.profile);
    const name = names.find((candidate) => profile.hooks.some((hook) => hook.name === candidate));
    if (name) await world.runHook(agent, name);
  };

  const minutes = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms} ms`);

  /** One declared wait; 'reschedule' when the agent gives its task back. */
  const episode = async (agent: AgentRecord, spec: BlockingSpec): Promise<'continue' | 'reschedule'> => {
    const thresholdMs = spec.thresholdMs ?? scenario.blockingTimeoutMs;
    const data = spec.signalData ?? JSON.stringify({ source: spec.from, action: 'approved' });
    // The signal's clock starts when the agent first waits (after on_blocking_start), and keeps running through a retry.
    let signal: Promise<{ data: unknown }> | undefined;
    const signalAfterMs = spec.signalAfterMs;
    const source = {
      get signal() {
        if (signalAfterMs === undefined) return undefined;
        signal ??= delay(signalAfterMs, { unref: true }).then(() => {
          world.step({
            actor: spec.from,
            kind: 'signal',
            iteration: agent.iteration,
            text: `signals ${agent.id} (${spec.type})`,
            to: [agent.id],
          });
          return { data };
        });
        return signal;
      },
    };
    const waitingFor = `a ${spec.type} signal from ${spec.from}${signalAfterMs === undefined ? ' (none will come)' : ` (after ${signalAfterMs} ms)`}`;
    for (let attempt = 1; ; attempt++) {
      const waited = await world.block(agent, {
        blockingType: spec.type,
        thresholdMs,
        waitingFor,
        get signal() {
          return source.signal;
        },
      });
      if (waited.kind === 'signal') {
        agent.status = 'running';
        return 'continue';
      }
      if (spec.afterTimeout === 'retry' && attempt === 1) {
        world.step({ actor: agent.id, kind: 'retry', iteration: agent.iteration, text: `retries the ${spec.type} wait once` });
        continue;
      }
      if (spec.afterTimeout === 'reschedule') {
        world.step({
          actor: agent.id,
          kind: 'reschedule',
          iteration: agent.iteration,
          text: `gives the task back after the ${spec.type} timeout: it is rescheduled on a fresh agent`,
        });
        return 'reschedule';
      }
      world.step({
        actor: agent.id,
        kind: 'escalate',
        iteration: agent.iteration,
        text: `escalates the ${spec.type} timeout to ${spec.from} and carries on without the signal`,
        to: [spec.from],
      });
      agent.status = 'running';
      return 'continue';
    }
  };

  /** One instance's life; the status says how it ended. */
  const life = async (agent: AgentRecord, spec: AgentSpec, n: number, work: Work, first: boolean): Promise<void> => {
    await firstHook(agent, START_HOOKS);
    for (const blocking of spec.blocking.filter((b) => b.iterations.length === 0 || b.iterations.includes(n))) {
      if ((await episode(agent, blocking)) === 'reschedule') {
        agent.status = 'rescheduled';
        agent.exitCode = 0;
        return;
      }
    }
    if (first && spec.failIn.includes(n)) {
      world.step({ actor: agent.id, kind: 'note', iteration: n, text: 'fails before reporting' });
      await world.runHook(agent, 'on_error', { ERROR: 'simulated agent failure' });
      agent.status = 'failed';
      agent.exitCode = 1;
      world.step({ actor: agent.id, kind: 'exit', iteration: n, text: 'exits with code 1' });
      return;
    }
    const hung =
      first && spec.timeoutIn.includes(n)
        ? (world.step({
            actor: agent.id,
            kind: 'note',
            iteration: n,
            text: `works past its role timeout (${minutes(agent.timeoutMs ?? 0)})`,
          }),
          await delay(scenario.agentTimeoutMs),
          'hung' as const)
        : await work(agent, { first });
    if (hung === 'hung') {
      agent.status = 'timed-out';
      agent.exitCode = null;
      world.step({
        actor: 'orchestrator',
        kind: 'timeout',
        iteration: n,
        text: `${agent.id} reached its ${minutes(agent.timeoutMs ?? 0)} ${spec.timeoutRole} timeout: killed, marked failed (0.0)`,
      });
      return;
    }
    await firstHook(agent, END_HOOKS);
    agent.status = 'exited';
    agent.exitCode = 0;
    world.step({ actor: agent.id, kind: 'exit', iteration: n, text: 'exits cleanly (code 0)' });
  };

  return {
    async slot(spec, role, n, work) {
      const spawn = (id: string, replaces?: string): AgentRecord =>
        world.spawn({
          id,
          specId: spec.id,
          role,
          profile: spec.profile,
          iteration: n,
          timeoutMs: scenario.agentTimeouts[spec.timeoutRole],
          ...(replaces ? { replaces } : {}),
        });
      const agent = spawn(instanceId(spec.id, n));
      await life(agent, spec, n, work, true);
      if (agent.status === 'exited') return agent;
      const why = { failed: 'exited non-zero', 'timed-out': 'timed out', rescheduled: 'gave its task back' }[
        agent.status as 'failed' | 'timed-out' | 'rescheduled'
      ];
      world.step({ actor: 'orchestrator', kind: 'replace', iteration: n, text: `${agent.id} ${why}: spawns a replacement` });
      agent.status = 'replaced';
      const replacement = spawn(`${agent.id}-r1`, agent.id);
      await life(replacement, { ...spec, blocking: why === 'gave its task back' ? [] : spec.blocking }, n, work, false);
      if (replacement.status !== 'exited')
        world.step({ actor: 'orchestrator', kind: 'note', iteration: n, text: `${replacement.id} failed too: no further replacement` });
      return replacement;
    },

    async report(agent, spec, score, kind, first) {
      const n = agent.iteration ?? 1;
      const keys = reportKeys(T, agent.id);
      if (first && spec.noReportIn.includes(n)) {
        agent.status = 'no-report';
        world.step({ actor: agent.id, kind: 'note', iteration: n, text: 'finishes without reporting' });
        return;
      }
      const withDone = !(first && spec.noDoneIn.includes(n));
      // Even when its hooks push one too: a second element is harmless, a missing one fails the agent.
      if (withDone) await world.redis(['LPUSH', keys.done, DONE_VALUE], agent.id);
      // invoke-waiting-mode.sh report --confidence: the score under :confidence, for validators too.
      await world.redis(['SET', keys.confidence, String(score)], agent.id);
      const result = JSON.stringify({ agent: agent.id, iteration: n, [kind]: score, status: 'complete' });
      await world.redis(['SETEX', keys.result, String(RESULT_TTL_SECONDS), result], agent.id);
      agent.status = 'reported';
      agent.reported = score;
      world.step({
        actor: agent.id,
        kind: 'report',
        iteration: n,
        text: withDone
          ? `reports ${kind} ${score} (LPUSH :done "complete", :confidence, :result)`
          : `reports ${kind} ${score} without signalling :done`,
      });
    },

    waitSeconds() {
      return String(scenario.agentTimeoutMs / 1000);
    },

    async hooksDo(spec, command, keyPart) {
      const profile = await world.profile(spec.profile);
      const first = (names: readonly string[]) => names.map((name) => profile.hooks.find((hook) => hook.name === name)).find(Boolean);
      const running = [first(START_HOOKS), first(END_HOOKS)];
      if (spec.blocking.length > 0)
        running.push(...profile.hooks.filter((hook) => hook.name.startsWith('on_') && hook.name !== 'on_error'));
      const word = new RegExp(`\\b${command}\\b`, 'i');
      return running.some((hook) => hook !== undefined && hook.text.split('\n').some((line) => word.test(line) && line.includes(keyPart)));
    },
  };
}
