import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkMermaidSequence,
  formatMermaid,
  loadScenario,
  parseScenario,
  simulateSwarm,
  type Scenario,
  type SimulationTrace,
} from '../../src/simulate/index.js';
import { needsSandbox, profileText, sandboxMissing, workDir } from './helpers.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'swarm');

async function scenarioFrom(file: string, text: string): Promise<Scenario> {
  const loaded = await parseScenario(file, text);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  return loaded.scenario;
}

function key(trace: SimulationTrace, name: string): unknown {
  return trace.redisKeys.find((entry) => entry.key === name)?.value;
}

describe('scenario files', () => {
  const work = workDir();
  afterAll(() => work.remove());
  work.write('p.md', profileText('p', { pre: 'true' }));

  it('reports schema problems at their line and column', async () => {
    const loaded = await parseScenario(
      join(work.dir, 's.yaml'),
      [
        'task: t1',
        'mode: turbo',
        'loop3:',
        '  - id: coder-1',
        '    profile: p.md',
        '    confidence: 1.5',
        '    colour: red',
        'loop2:',
        '  - id: reviewer-1',
        '    profile: missing.md',
        '    consensus: 0.9',
      ].join('\n'),
    );
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? [] : loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
    expect(problems).toEqual(
      expect.arrayContaining(['2:7 Invalid `mode`: expected one of mvp, standard, enterprise.', '7:5 Unexpected key `colour` in loop3.0.']),
    );
    expect(problems.some((p) => p.startsWith('6:17 Invalid `loop3.0.confidence`'))).toBe(true);
  });

  it('checks that profiles exist and ids are unique, relative to the scenario', async () => {
    const loaded = await parseScenario(
      join(work.dir, 's.yaml'),
      [
        'task: t1',
        'loop3:',
        '  - { id: a-1, profile: p.md, confidence: 0.8 }',
        'loop2:',
        '  - { id: a-1, profile: nope.md, consensus: 0.9 }',
      ].join('\n'),
    );
    const problems = loaded.ok ? [] : loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
    expect(problems).toEqual([
      '5:11 Unexpected duplicate agent id `a-1` (also used at loop3.0).',
      '5:25 Invalid profile path `nope.md`: no such file (paths are relative to the scenario file).',
    ]);
  });

  it("fills in the mode's documented thresholds and the iteration limit", async () => {
    const loaded = await loadScenario(join(FIXTURES, 'pass-first-iteration.yaml'));
    expect(loaded.ok && loaded.scenario).toMatchObject({
      mode: 'standard',
      thresholds: { gate: 0.75, consensus: 0.9 },
      maxIterations: 3,
      hookTimeoutMs: 5000,
    });
    const mvp = await scenarioFrom(
      join(work.dir, 'm.yaml'),
      'task: t\nmode: mvp\nloop3: [{id: a, profile: p.md, confidence: 1}]\nloop2: [{id: b, profile: p.md, consensus: 1}]\n',
    );
    expect(mvp).toMatchObject({ thresholds: { gate: 0.7, consensus: 0.8 }, maxIterations: 10 });
    const enterprise = await scenarioFrom(
      join(work.dir, 'e.yaml'),
      'task: t\nmode: enterprise\nloop3: [{id: a, profile: p.md, confidence: 1}]\nloop2: [{id: b, profile: p.md, consensus: 1}]\n',
    );
    expect(enterprise.thresholds.consensus).toBe(0.95);
  });
});

describe('mermaid grammar check', () => {
  it('accepts the subset and rejects what Mermaid would not parse', () => {
    expect(
      checkMermaidSequence(
        'sequenceDiagram\n  participant O as orchestrator\n  participant A1 as coder-1\n  loop Iteration 1\n  O-->>A1: wake\n  Note over A1: ok\n  end\n',
      ),
    ).toEqual([]);
    expect(checkMermaidSequence('graph TD\n')).not.toEqual([]);
    expect(checkMermaidSequence('sequenceDiagram\n  O->>A1: hi\n').map((p) => p.message)).toContain(
      "participant 'O' used before it is declared",
    );
    expect(checkMermaidSequence('sequenceDiagram\n  participant O as x\n  Note over O: a; b\n')).toHaveLength(1);
    expect(checkMermaidSequence('sequenceDiagram\n  participant O as x\n  loop x\n')).toHaveLength(1);
    expect(checkMermaidSequence('sequenceDiagram\n  participant O as x\n  O=>O: y\n')).toHaveLength(1);
  });
});

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('simulate: the CFN Loop'), () => {
  const work = workDir();
  afterAll(() => work.remove());
  work.write(
    'simple.md',
    profileText('simple', {
      on_blocking_start: '/sqlite-memory store --key "agent:${AGENT_ID}:ctx" --level agent --data \'{"ok":true}\'',
      on_signal_received: '/sqlite-memory retrieve --key "agent:${AGENT_ID}:ctx" --level agent >/dev/null\necho "$SIGNAL_DATA"',
      on_blocking_timeout: 'echo "timeout after $TIMEOUT_DURATION"',
      on_error: 'echo "error in $AGENT_ID"',
    }),
  );
  const agents = (section: string, entries: string[]): string => `${section}:\n${entries.map((entry) => `  - ${entry}`).join('\n')}\n`;
  const scenario = (name: string, body: string): Promise<Scenario> => scenarioFrom(join(work.dir, `${name}.yaml`), body);

  it('passes in one iteration: the fixture swarm proceeds, every agent reporting and exiting (v2)', async () => {
    const loaded = await loadScenario(join(FIXTURES, 'pass-first-iteration.yaml'));
    if (!loaded.ok) throw new Error('fixture invalid');
    const trace = await simulateSwarm(loaded.scenario);
    expect(trace.outcome).toBe('completed');
    expect(trace.decisions).toEqual([{ iteration: 1, by: 'product-owner', decision: 'PROCEED', confidence: 0.83, consensus: 0.94 }]);
    for (const agent of ['coder-1', 'tester-1', 'reviewer-1']) {
      expect(trace.redisWrites.find((w) => w.command[0] === 'LPUSH' && w.command[1] === `swarm:auth-api:${agent}:done`)).toMatchObject({
        agentId: agent,
        command: ['LPUSH', `swarm:auth-api:${agent}:done`, 'complete'],
      });
      // The orchestrator consumed the completion signal with LPOP, as the document's monitoring does.
      expect(
        trace.redisWrites.some((w) => w.agentId === 'orchestrator' && w.command.join(' ') === `LPOP swarm:auth-api:${agent}:done`),
      ).toBe(true);
      expect(JSON.parse(key(trace, `swarm:auth-api:${agent}:result`) as string)).toMatchObject({ agent, iteration: 1 });
      expect(trace.agents.find((a) => a.id === agent)).toMatchObject({ status: 'exited', exitCode: 0 });
    }
    expect(key(trace, 'swarm:auth-api:coder-1:confidence')).toBe('0.86');
    const decisions = key(trace, 'swarm:auth-api:product-owner:decision') as string[];
    expect(decisions.map((d) => JSON.parse(d))).toEqual([expect.objectContaining({ decision: 'PROCEED', iteration: 1 })]);
    expect(trace.redisWrites.find((w) => w.command[1] === 'swarm:auth-api:gate-passed')!.command).toEqual([
      'LPUSH',
      'swarm:auth-api:gate-passed',
      '1',
    ]);
    // The validator ran only after the gate, and the decision was pushed by the Product Owner.
    const order = trace.timeline.map((step) => `${step.actor}:${step.kind}`);
    expect(order.indexOf('orchestrator:gate')).toBeLessThan(order.indexOf('reviewer-1:spawn'));
    expect(trace.redisWrites.find((w) => w.command[1] === 'swarm:auth-api:product-owner:decision')!.agentId).toBe('product-owner-1');
    expect(trace.findings).toEqual([]);
    const mermaid = formatMermaid(trace);
    expect(checkMermaidSequence(mermaid)).toEqual([]);
    expect(mermaid).toContain('participant A');
    expect(mermaid).toMatch(/-->>.*: signals coder-1 \(dependency\)/);
  });

  it("iterates then aborts: fresh agents in iteration 2, the Product Owner's ABORT ends it", async () => {
    const loaded = await loadScenario(join(FIXTURES, 'iterate-then-abort.yaml'));
    if (!loaded.ok) throw new Error('fixture invalid');
    const trace = await simulateSwarm(loaded.scenario);
    expect(trace.outcome).toBe('aborted');
    expect(trace.decisions.map((d) => [d.iteration, d.by, d.decision])).toEqual([
      [1, 'product-owner', 'ITERATE'],
      [2, 'product-owner', 'ABORT'],
    ]);
    expect(
      trace.agents
        .filter((a) => a.iteration === 2)
        .map((a) => a.id)
        .sort(),
    ).toEqual(['coder-1-it2', 'product-owner-1-it2', 'reviewer-1-it2', 'tester-1-it2']);
    expect(key(trace, 'swarm:payments-refunds:coder-1-it2:confidence')).toBe('0.79');
    expect(JSON.parse((key(trace, 'swarm:payments-refunds:product-owner:decision') as string[])[0]!)).toMatchObject({ decision: 'ABORT' });
    expect(trace.iterations[1]!.consensus).toEqual({ threshold: 0.9, score: 0.95, passed: true });
    // The reviewer's declared consensus wait timed out in iteration 1: on_blocking_timeout, then it escalated.
    const timedOut = trace.hookRuns.find((run) => run.agentId === 'reviewer-1' && run.hook === 'on_blocking_timeout')!;
    expect(timedOut.env.BLOCKING_TYPE).toBe('consensus');
    expect(trace.timeline.some((s) => s.actor === 'reviewer-1' && s.kind === 'escalate')).toBe(true);
    expect(trace.hookRuns.some((run) => run.agentId === 'reviewer-1-it2' && run.hook === 'on_blocking_start')).toBe(false);
    expect(trace.findings).toEqual([]);
    expect(checkMermaidSequence(formatMermaid(trace))).toEqual([]);
  });

  it('gate failure skips Loop 2 and iterates with fresh agents; the retry passes', async () => {
    const trace = await simulateSwarm(
      await scenario(
        'gate',
        `task: g1\nmaxIterations: 3\n${agents('loop3', [
          '{ id: c1, profile: simple.md, confidence: [0.5, 0.9] }',
          '{ id: c2, profile: simple.md, confidence: [0.6, 0.8] }',
        ])}${agents('loop2', ['{ id: v1, profile: simple.md, consensus: 0.95 }'])}`,
      ),
    );
    expect(trace.iterations.map((it) => [it.iteration, it.gate.confidence, it.gate.passed, it.decision.by, it.decision.decision])).toEqual([
      [1, 0.55, false, 'gate', 'ITERATE'],
      [2, 0.85, true, 'consensus', 'PROCEED'],
    ]);
    expect(trace.agents.filter((a) => a.role === 'validator').map((a) => a.id)).toEqual(['v1-it2']);
    // Nothing woke Loop 3: no blocking hooks ran at all, since none was declared.
    expect(trace.hookRuns.filter((run) => run.hook.startsWith('on_'))).toEqual([]);
    expect(trace.outcome).toBe('completed');
  });

  it('a signal due after 3,000,000,000 ms does not beat a 300 ms threshold (setTimeout fired it after 1 ms), and does not keep the process alive', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const trace = await simulateSwarm(
      await scenario(
        'late',
        `task: s1\nmaxIterations: 1\n${agents('loop3', [
          '{ id: c1, profile: simple.md, confidence: 0.9, blocking: [{ type: dependency, signalAfterMs: 3000000000, thresholdMs: 300 }] }',
        ])}${agents('loop2', ['{ id: v1, profile: simple.md, consensus: 0.95 }'])}`,
      ),
    );
    const hooks = trace.hookRuns.filter((run) => run.agentId === 'c1').map((run) => run.hook);
    expect(hooks).toContain('on_blocking_timeout');
    expect(hooks).not.toContain('on_signal_received');
    // The signal that would come 35 days later holds no timer that keeps the process alive.
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('consensus failure iterates (no Product Owner is spawned) until the iteration limit', async () => {
    const trace = await simulateSwarm(
      await scenario(
        'limit',
        `task: l1\nmaxIterations: 2\n${agents('loop3', ['{ id: c1, profile: simple.md, confidence: 0.9 }'])}${agents('loop2', [
          '{ id: v1, profile: simple.md, consensus: 0.7 }',
          '{ id: v2, profile: simple.md, consensus: [0.8, 0.85] }',
        ])}productOwner: { id: po, profile: simple.md, decisions: [PROCEED] }\n`,
      ),
    );
    expect(trace.outcome).toBe('iteration-limit');
    expect(trace.iterations.map((it) => it.consensus)).toEqual([
      { threshold: 0.9, score: 0.75, passed: false },
      { threshold: 0.9, score: 0.775, passed: false },
    ]);
    expect(trace.decisions.map((d) => `${d.iteration}:${d.by}:${d.decision}`)).toEqual([
      '1:consensus:ITERATE',
      '2:consensus:ITERATE',
      '2:iteration-limit:ABORT',
    ]);
    expect(trace.agents.some((a) => a.role === 'product-owner')).toBe(false);
  });
});
