import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario, simulateSwarm, type Scenario } from '../../src/simulate/index.js';
import { SIMULATION_OUTPUT_BUDGET } from '../../src/simulate/world.js';
import { needsSandbox, profileText, sandboxMissing, workDir } from './helpers.js';

/**
 * A 24-agent swarm (20 implementers, 3 validators, the Product Owner) on
 * this machine. Hooks are charged their own time only — sandbox set-up,
 * queueing behind other sandboxes and the host's work serving them are
 * not — so hooks well inside the 5 s budget never time out, however many
 * agents start at once. No durations are asserted; the times are printed.
 */
describe.skipIf(sandboxMissing !== undefined)(needsSandbox('simulate: a 24-agent swarm'), () => {
  const work = workDir();
  afterAll(() => work.remove());

  async function swarm(name: string, profile: string, extra = ''): Promise<Scenario> {
    const implementers = Array.from({ length: 20 }, (_, i) => `  - { id: coder-${i + 1}, profile: ${profile}, confidence: 0.9${extra} }`);
    const validators = Array.from({ length: 3 }, (_, i) => `  - { id: reviewer-${i + 1}, profile: ${profile}, consensus: 0.95 }`);
    const loaded = await parseScenario(
      join(work.dir, `${name}.yaml`),
      [
        `task: ${name}`,
        'maxIterations: 1',
        'loop3:',
        ...implementers,
        'loop2:',
        ...validators,
        `productOwner: { id: po-1, profile: ${profile}, decisions: [PROCEED] }`,
      ].join('\n'),
    );
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
    return loaded.scenario;
  }

  it('runs 24 agents with memory calls in every hook, all of them cleanly', async () => {
    work.write(
      'worker.md',
      profileText('worker', {
        pre_task: [
          '/sqlite-memory store --key "agent:${AGENT_ID}:task" --level agent --data \'{"started":true}\'',
          '/sqlite-memory store --key "swarm:${SWARM_ID}:${AGENT_ID}:status" --level swarm --data \'{"status":"working"}\'',
        ].join('\n'),
        on_blocking_start: '/sqlite-memory store --key "agent:${AGENT_ID}:blocking:context" --level agent --data \'{"status":"blocked"}\'',
        on_signal_received: '/sqlite-memory retrieve --key "agent:${AGENT_ID}:blocking:context" --level agent >/dev/null',
        post_task: [
          '/sqlite-memory retrieve --key "swarm:${SWARM_ID}:${AGENT_ID}:status" --level swarm >/dev/null',
          '/eventbus publish --type agent.task.complete --data \'{"ok":true}\' --priority 7',
        ].join('\n'),
      }),
    );
    const started = performance.now();
    const trace = await simulateSwarm(await swarm('big', 'worker.md', ', blocking: [{ type: dependency, signalAfterMs: 0 }]'));
    console.log(
      `[simulate performance] 24 agents, ${trace.hookRuns.length} hook runs, ` +
        `${trace.hookRuns.flatMap((r) => r.operations).filter((op) => op.kind === 'memory').length} memory calls: ${Math.round(performance.now() - started)} ms`,
    );
    expect(trace.outcome).toBe('completed');
    expect(new Set(trace.agents.map((a) => a.id)).size).toBe(24);
    // pre_task and post_task for all 24, and the two blocking hooks for the 20 implementers' declared waits.
    expect(trace.hookRuns).toHaveLength(24 * 2 + 20 * 2);
    expect(trace.hookRuns.filter((run) => run.failed)).toEqual([]);
    expect(trace.findings).toEqual([]);
  }, 180_000);

  // Red-teaming: 40 agents whose hook printed 2 MiB made a 250 MB JSON report (and past that, an internal error).
  it("24 agents that each print 1 MiB: the runs' output shares one budget", async () => {
    work.write('loud.md', profileText('loud', { pre_task: "head -c 1048576 /dev/zero | tr '\\0' x" }));
    const trace = await simulateSwarm(await swarm('loud', 'loud.md'));
    const loud = trace.hookRuns.filter((run) => run.hook === 'pre_task');
    expect(loud).toHaveLength(24);
    const kept = loud.reduce((sum, run) => sum + run.stdout.length, 0);
    expect(kept).toBeLessThanOrEqual(SIMULATION_OUTPUT_BUDGET + 24 * 4096);
    // Each says what it left out, and together they account for every byte printed.
    expect(loud.reduce((sum, run) => sum + run.stdout.length + (run.stdoutOmitted ?? 0), 0)).toBe(24 * 1_048_576);
  }, 180_000);

  it('24 agents whose hooks take 3.5 s each: no hook times out', async () => {
    work.write(
      'slow.md',
      profileText('slow', {
        // The runtime's own example hooks: state saved, an event published, a checkpoint read back, around 3.5 s of work.
        pre_task: [
          '/sqlite-memory store --key "agent:${AGENT_ID}:task" --level agent --data \'{"started":true}\'',
          '/eventbus publish --type agent.task.start --data \'{"ok":true}\' --priority 7',
          'sleep 3.5',
          '/sqlite-memory store --key "agent:${AGENT_ID}:checkpoint" --level agent --data \'{"done":true}\'',
          '/sqlite-memory retrieve --key "agent:${AGENT_ID}:checkpoint" --level agent >/dev/null',
          '/eventbus publish --type agent.task.done --data \'{"ok":true}\' --priority 7',
        ].join('\n'),
      }),
    );
    // Node's warnings go to the user's terminal: 24 runs in flight in one session must not raise one.
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const started = performance.now();
    const trace = await simulateSwarm(await swarm('slow', 'slow.md')).finally(() => process.off('warning', onWarning));
    console.log(
      `[simulate performance] 24 agents × a 3.5 s hook: ${Math.round(performance.now() - started)} ms; longest hook ${Math.round(
        Math.max(...trace.hookRuns.map((r) => r.durationMs)),
      )} ms`,
    );
    expect(trace.hookRuns).toHaveLength(24);
    expect(trace.hookRuns.filter((run) => run.timedOut).map((run) => run.agentId)).toEqual([]);
    expect(trace.hookRuns.filter((run) => run.failed)).toEqual([]);
    expect(trace.outcome).toBe('completed');
    expect(trace.findings).toEqual([]);
    expect(warnings).toEqual([]);
  }, 300_000);
});
