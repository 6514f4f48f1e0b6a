import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario, simulateSwarm } from '../../src/simulate/index.js';
import { needsSandbox, profileText, sandboxMissing, workDir } from './helpers.js';

/**
 * A 24-agent swarm (20 implementers, 3 validators, the Product Owner), each
 * agent running three hooks with a few memory calls each, completes with every
 * hook run. How long it takes is measured by `npm run bench`
 * (scripts/bench-simulate.mjs), not asserted here: a busy machine is no bug.
 */
describe.skipIf(sandboxMissing !== undefined)(needsSandbox('simulate: a 24-agent swarm'), () => {
  const work = workDir();
  afterAll(() => work.remove());

  it('runs 24 agents × 3 hooks to completion', async () => {
    work.write(
      'worker.md',
      profileText('worker', {
        pre_task: [
          '/sqlite-memory store --key "agent:${AGENT_ID}:task" --level agent --data \'{"started":true}\'',
          '/sqlite-memory store --key "swarm:${TASK_ID}:${AGENT_ID}:status" --level swarm --data \'{"status":"working"}\'',
        ].join('\n'),
        on_blocking_start: [
          '/sqlite-memory store --key "agent:${AGENT_ID}:blocking:context" --level agent --data \'{"status":"blocked"}\'',
          '/eventbus publish --type agent.blocking.start --data \'{"ok":true}\' --priority 8',
        ].join('\n'),
        on_signal_received: [
          '/sqlite-memory retrieve --key "agent:${AGENT_ID}:blocking:context" --level agent >/dev/null',
          '/sqlite-memory retrieve --key "swarm:${TASK_ID}:${AGENT_ID}:status" --level swarm >/dev/null',
          '/sqlite-memory store --key "agent:${AGENT_ID}:resumed" --level agent --data \'{"resumed":true}\'',
        ].join('\n'),
      }),
    );
    const implementers = Array.from({ length: 20 }, (_, i) => `  - { id: coder-${i + 1}, profile: worker.md, confidence: 0.9 }`);
    const validators = Array.from({ length: 3 }, (_, i) => `  - { id: reviewer-${i + 1}, profile: worker.md, consensus: 0.95 }`);
    const loaded = await parseScenario(
      join(work.dir, 'big.yaml'),
      [
        'task: big',
        'maxIterations: 1',
        'loop3:',
        ...implementers,
        'loop2:',
        ...validators,
        'productOwner: { id: po-1, profile: worker.md, decisions: [PROCEED] }',
      ].join('\n'),
    );
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));

    const trace = await simulateSwarm(loaded.scenario);

    expect(trace.outcome).toBe('completed');
    expect(new Set(trace.agents.map((a) => a.id)).size).toBe(24);
    expect(trace.hookRuns).toHaveLength(72);
    expect(trace.hookRuns.filter((run) => run.failed)).toEqual([]);
    expect(trace.findings).toEqual([]);
  });
});
