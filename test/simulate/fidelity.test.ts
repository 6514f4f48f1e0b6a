import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';
import { parseScenario, simulateSwarm, type Scenario, type SimulationTrace } from '../../src/simulate/index.js';
import { needsSandbox, profileText, sandboxMissing, workDir } from './helpers.js';

/**
 * One test per behaviour row of the README's fidelity table (AGENT_LIFECYCLE
 * v2 and agent-lifecycle-hooks.md against what the simulator does).
 */

async function scenarioFrom(file: string, text: string): Promise<Scenario> {
  const loaded = await parseScenario(file, text);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  return loaded.scenario;
}

const findingsOf = (trace: SimulationTrace) => trace.findings.flatMap((r) => r.diagnostics.map((d) => ({ file: r.filePath, ...d })));

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('simulate: lifecycle v2 fidelity'), () => {
  const work = workDir();
  afterAll(() => work.remove());
  work.write(
    'plain.md',
    profileText('plain', {
      pre_task: 'echo "task ${TASK_ID-unset} iteration ${ITERATION}"',
      on_blocking_start: 'echo "blocking $BLOCKING_TYPE"',
      on_signal_received: 'echo "$SIGNAL_DATA"',
      on_blocking_timeout: 'echo "timeout $EXCEEDED_BY"',
      on_error: 'echo "error in $AGENT_ID"',
    }),
  );
  const run = async (name: string, body: string): Promise<SimulationTrace> =>
    simulateSwarm(await scenarioFrom(join(work.dir, `${name}.yaml`), body));

  it('agents report and exit: no blocking hook runs unless declared, nothing wakes Loop 3, fresh ids each iteration, no TASK_ID in hooks', async () => {
    const trace = await run(
      'v2',
      'task: v2\nmaxIterations: 2\nloop3:\n  - { id: c1, profile: plain.md, confidence: [0.5, 0.9] }\nloop2:\n  - { id: r1, profile: plain.md, consensus: 0.95 }\n',
    );
    expect(trace.outcome).toBe('completed');
    expect(trace.hookRuns.map((r) => r.hook).filter((h) => h.startsWith('on_'))).toEqual([]);
    expect(trace.timeline.filter((s) => s.kind === 'block' || (s.kind === 'signal' && s.text.startsWith('wakes')))).toEqual([]);
    expect(trace.agents.map((a) => `${a.id}:${a.status}:${String(a.exitCode)}`)).toEqual([
      'c1:exited:0',
      'c1-it2:exited:0',
      'r1-it2:exited:0',
    ]);
    const pre = trace.hookRuns.filter((r) => r.hook === 'pre_task');
    expect(pre.map((r) => r.stdout.trim())).toEqual(['task unset iteration 1', 'task unset iteration 2', 'task unset iteration 2']);
    expect(pre.every((r) => !('TASK_ID' in r.env))).toBe(true);
  });

  it('a declared wait runs the blocking hooks with its BLOCKING_TYPE; after a timeout the documented follow-ups happen', async () => {
    const trace = await run(
      'blocking',
      [
        'task: b1',
        'maxIterations: 1',
        'loop3:',
        '  - id: waits',
        '    profile: plain.md',
        '    confidence: 0.9',
        '    blocking: [{ type: dependency, from: c-escalate, signalAfterMs: 10 }]',
        '  - { id: c-escalate, profile: plain.md, confidence: 0.9, blocking: [{ type: consensus, thresholdMs: 60 }] }',
        '  - { id: c-retry, profile: plain.md, confidence: 0.9, blocking: [{ type: validation, thresholdMs: 200, signalAfterMs: 300, afterTimeout: retry }] }',
        '  - { id: c-resched, profile: plain.md, confidence: 0.9, blocking: [{ type: consensus, thresholdMs: 60, afterTimeout: reschedule }] }',
        'loop2:',
        '  - { id: r1, profile: plain.md, consensus: 0.95 }',
      ].join('\n'),
    );
    const hooksOf = (id: string) => trace.hookRuns.filter((r) => r.agentId === id && r.hook.startsWith('on_'));
    expect(hooksOf('waits').map((r) => [r.hook, r.env.BLOCKING_TYPE])).toEqual([
      ['on_blocking_start', 'dependency'],
      ['on_signal_received', 'dependency'],
    ]);
    expect(JSON.parse(hooksOf('waits')[1]!.env.SIGNAL_DATA!)).toEqual({ source: 'c-escalate', action: 'approved' });
    const kinds = (id: string) => trace.timeline.filter((s) => s.actor === id).map((s) => s.kind);
    // escalate: on_blocking_timeout, escalated, then it carries on and reports.
    expect(hooksOf('c-escalate').map((r) => r.hook)).toEqual(['on_blocking_start', 'on_blocking_timeout']);
    expect(kinds('c-escalate')).toEqual(expect.arrayContaining(['escalate', 'report', 'exit']));
    // retry: a second wait, in which the signal (300 ms after the first began) arrives.
    expect(hooksOf('c-retry').map((r) => r.hook)).toEqual([
      'on_blocking_start',
      'on_blocking_timeout',
      'on_blocking_start',
      'on_signal_received',
    ]);
    expect(kinds('c-retry')).toContain('retry');
    // reschedule: the task goes to a fresh agent, which reports in its place.
    expect(kinds('c-resched')).toContain('reschedule');
    expect(trace.agents.find((a) => a.id === 'c-resched-r1')).toMatchObject({ replaces: 'c-resched', status: 'exited' });
    expect(trace.iterations[0]!.implementers.map((i) => [i.agentId, i.score])).toEqual([
      ['waits', 0.9],
      ['c-escalate', 0.9],
      ['c-retry', 0.9],
      ['c-resched-r1', 0.9],
    ]);
    expect(findingsOf(trace)).toEqual([]);
  });

  it(':done is required; missing reports count 0.0; a non-zero exit or a timeout spawns a replacement; role timeouts as documented', async () => {
    const trace = await run(
      'failures',
      [
        'task: f1',
        'maxIterations: 1',
        'agentTimeoutMs: 150',
        'loop3:',
        '  - { id: no-done, profile: plain.md, confidence: 0.9, noDoneIn: [1] }',
        '  - { id: silent, profile: plain.md, confidence: 0.9, noReportIn: [1] }',
        '  - { id: crashes, profile: plain.md, confidence: 0.8, failIn: [1] }',
        '  - { id: hangs, profile: plain.md, confidence: 0.7, timeoutIn: [1] }',
        '  - { id: digs, profile: plain.md, confidence: 0.9, timeoutRole: researcher }',
        'loop2:',
        '  - { id: r1, profile: plain.md, consensus: 0.95 }',
        'productOwner: { profile: plain.md }',
      ].join('\n'),
    );
    const implementers = trace.iterations[0]!.implementers;
    expect(implementers).toEqual([
      { agentId: 'no-done', score: 0, reported: false, reason: 'no completion signal (:confidence without :done)' },
      { agentId: 'silent', score: 0, reported: false, reason: 'no completion signal' },
      { agentId: 'crashes-r1', score: 0.8, reported: true },
      { agentId: 'hangs-r1', score: 0.7, reported: true },
      { agentId: 'digs', score: 0.9, reported: true },
    ]);
    // Its confidence was there, but without :done the orchestrator counts it failed.
    expect(trace.redisKeys.find((k) => k.key === 'swarm:f1:no-done:confidence')?.value).toBe('0.9');
    expect(trace.agents.find((a) => a.id === 'crashes')).toMatchObject({ status: 'replaced', exitCode: 1 });
    expect(trace.hookRuns.some((r) => r.agentId === 'crashes' && r.hook === 'on_error')).toBe(true);
    expect(trace.agents.find((a) => a.id === 'hangs')).toMatchObject({ status: 'replaced', exitCode: null });
    expect(trace.agents.find((a) => a.id === 'hangs-r1')!.replaces).toBe('hangs');
    const timeouts = Object.fromEntries(trace.agents.map((a) => [a.id, a.timeoutMs]));
    expect(timeouts).toMatchObject({ 'no-done': 3_600_000, digs: 7_200_000 });
    expect(trace.iterations[0]!.gate.passed).toBe(false);
    expect(trace.iterations[0]!.gate.confidence).toBeCloseTo((0.8 + 0.7 + 0.9) / 5, 12);
  });

  it('a 0.7496 mean fails the 0.75 gate in a run; validators each BLPOP one "1", and a stolen element leaves one validator without', async () => {
    const gate = await run(
      'gate',
      'task: g\nmaxIterations: 1\nloop3:\n  - { id: a, profile: plain.md, confidence: 0.8 }\n  - { id: b, profile: plain.md, confidence: 0.6992 }\nloop2:\n  - { id: r, profile: plain.md, consensus: 1 }\n',
    );
    expect(gate.iterations[0]!.gate).toEqual({ threshold: 0.75, confidence: 0.7496, passed: false });
    expect(gate.timeline.find((s) => s.kind === 'gate')!.text).toBe('gate failed: mean confidence 0.7496 < 0.75 (standard)');

    // v1's hooks take its own element (so v1 leaves the BLPOP to them) and steal a second; v2 and v3 pop later.
    const thief = work.write(
      'thief.md',
      profileText('thief', {
        pre_task:
          'redis-cli blpop "swarm:${SWARM_ID#swarm-}:gate-passed" 1 >/dev/null\nredis-cli blpop "swarm:${SWARM_ID#swarm-}:gate-passed" 1 >/dev/null',
      }),
    );
    const trace = await run(
      'blpop',
      [
        'task: q',
        'maxIterations: 1',
        'agentTimeoutMs: 300',
        'loop3:',
        '  - { id: c, profile: plain.md, confidence: 0.9 }',
        'loop2:',
        `  - { id: v1, profile: ${thief}, consensus: 1 }`,
        '  - { id: v2, profile: plain.md, consensus: 1, blocking: [{ type: validation, signalAfterMs: 3000 }] }',
        '  - { id: v3, profile: plain.md, consensus: 1, blocking: [{ type: validation, signalAfterMs: 3000 }] }',
      ].join('\n'),
    );
    expect(trace.redisWrites.find((w) => w.command[1] === 'swarm:q:gate-passed')!.command).toEqual([
      'LPUSH',
      'swarm:q:gate-passed',
      '1',
      '1',
      '1',
    ]);
    // redisWrites keeps only the pops that took something.
    const blpops = trace.redisWrites.filter((w) => w.command[0]!.toUpperCase() === 'BLPOP');
    // Three elements, four pops (two by v1's hooks, v2's and v3's): exactly three got one, and v2 or v3 none.
    expect(blpops.filter((w) => w.command[1] === 'swarm:q:gate-passed')).toHaveLength(3);
    const validators = trace.iterations[0]!.validators!;
    expect(validators.filter((v) => v.reported)).toHaveLength(2);
    expect(validators.filter((v) => !v.reported).map((v) => v.reason)).toEqual(['timed out']);
    expect(validators.find((v) => v.agentId === 'v1')!.reported).toBe(true);
    expect(trace.redisKeys.some((k) => k.key === 'swarm:q:gate-passed')).toBe(false);
  });

  it('a Product Owner that LPUSHes its decision JSON as documented decides the run, with no WRONGTYPE; one that GETs the list is told, at its line', async () => {
    const faithful = work.write(
      'po.md',
      profileText('po', {
        // The document's PO protocol, step by step, in its hooks.
        pre_task: [
          'T="${SWARM_ID#swarm-}"',
          'redis-cli blpop "swarm:${T}:consensus-complete" 0 >/dev/null',
          'redis-cli get "swarm:${T}:loop2:consensus" >/dev/null',
          'redis-cli lrange "swarm:${T}:loop2:feedback" 0 -1 >/dev/null',
          'redis-cli get "swarm:${T}:success-criteria" >/dev/null',
        ].join('\n'),
        post_task: [
          'T="${SWARM_ID#swarm-}"',
          'if [ "$ITERATION" = 1 ]; then D=ITERATE; else D=ABORT; fi',
          'redis-cli lpush "swarm:${T}:product-owner:decision" "{\\"decision\\":\\"$D\\",\\"iteration\\":$ITERATION}" >/dev/null',
        ].join('\n'),
      }),
    );
    const body = (profile: string) =>
      `task: po\nmaxIterations: 5\nloop3:\n  - { id: c, profile: plain.md, confidence: 0.9 }\nloop2:\n  - { id: r, profile: plain.md, consensus: 0.95 }\nproductOwner: { id: owner, profile: ${profile} }\n`;
    const trace = await run('po', body(faithful));
    expect(trace.decisions.map((d) => `${d.iteration}:${d.by}:${d.decision}`)).toEqual([
      '1:product-owner:ITERATE',
      '2:product-owner:ABORT',
    ]);
    expect(trace.outcome).toBe('aborted');
    expect(Object.fromEntries(trace.agents.map((a) => [a.id, a.timeoutMs]))).toMatchObject({ c: 3_600_000, r: 1_800_000, owner: 900_000 });
    expect(
      trace.hookRuns
        .flatMap((r) => r.operations)
        .filter((op) => op.kind === 'redis' && JSON.stringify(op.reply ?? '').includes('WRONGTYPE')),
    ).toEqual([]);
    expect(findingsOf(trace)).toEqual([]);

    const wrong = work.write(
      'po-get.md',
      profileText('po-get', { post_task: 'T="${SWARM_ID#swarm-}"\nredis-cli get "swarm:${T}:product-owner:decision"' }),
    );
    const told = await run('po-get', body(wrong));
    const findings = findingsOf(told).filter((f) => f.ruleId === 'redis-error-reply');
    expect(findings.map((f) => [f.file, f.line])).toEqual([[wrong, 7]]);
    expect(findings[0]!.message).toMatch(/WRONGTYPE.*written by owner with LPUSH/);
    expect(told.outcome).toBe('completed');
  });

  it("a hook that writes a protocol key with the wrong type is told at its line, and the agent's report counts 0.0", async () => {
    const setsDone = work.write(
      'sets-done.md',
      profileText('sets-done', { pre_task: 'redis-cli set "swarm:${SWARM_ID#swarm-}:${AGENT_ID}:done" complete >/dev/null' }),
    );
    const trace = await run(
      'types',
      `task: ty1\nmaxIterations: 1\nloop3:\n  - { id: a, profile: ${setsDone}, confidence: 0.9 }\n  - { id: b, profile: ${setsDone}, confidence: 0.9 }\nloop2:\n  - { id: r, profile: plain.md, consensus: 1 }\n`,
    );
    const findings = findingsOf(trace);
    expect(findings.map((f) => [f.file, f.line, f.ruleId])).toEqual([[setsDone, 6, 'redis-error-reply']]);
    expect(findings[0]!.message).toMatch(
      /this hook's SET made the protocol's `LPUSH swarm:ty1:\$\{AGENT_ID\}:done`.*WRONGTYPE.*\[simulated: a, b\]/,
    );
    expect(trace.iterations[0]!.implementers.map((i) => i.score)).toEqual([0, 0]);
  });

  it('two misspelt keys read by many agents over two iterations are two findings, naming the agents', async () => {
    const typo = work.write(
      'typo.md',
      profileText('typo', {
        pre_task: '/sqlite-memory store --key "agent:${AGENT_ID}:context" --level agent --data 1',
        post_task: [
          '/sqlite-memory retrieve --key "agent:${AGENT_ID}:contxt" --level agent >/dev/null',
          'redis-cli get "swarm:${SWARM_ID#swarm-}:${AGENT_ID}:confidnce" >/dev/null',
        ].join('\n'),
      }),
    );
    const loop3 = Array.from({ length: 4 }, (_, i) => `  - { id: t${i + 1}, profile: ${typo}, confidence: [0.5, 0.9] }`);
    const trace = await run(
      'typo',
      ['task: ty', 'maxIterations: 2', 'loop3:', ...loop3, 'loop2:', '  - { id: r, profile: plain.md, consensus: 1 }'].join('\n'),
    );
    const findings = findingsOf(trace);
    expect(findings.map((f) => `${f.line}:${f.ruleId}`)).toEqual(['8:memory-read-unwritten', '9:redis-read-unwritten']);
    expect(findings[0]!.message).toContain('`agent:${AGENT_ID}:contxt`');
    expect(findings[0]!.message).toContain('[simulated: t1, t1-it2, t2, +5 more]');
  });

  it('waiting mode is only an explicit option, and reported as the v2 anti-pattern (as is a hook that enters it)', async () => {
    const parks = work.write(
      'parks.md',
      profileText('parks', {
        post_task: './.claude/skills/redis-coordination/invoke-waiting-mode.sh wait --task-id "$SWARM_ID" --agent-id "$AGENT_ID" || true',
      }),
    );
    const file = join(work.dir, 'waiting.yaml');
    const trace = await simulateSwarm(
      await scenarioFrom(
        file,
        `task: w\nmaxIterations: 1\nwaitingMode: true\nloop3:\n  - { id: c, profile: ${parks}, confidence: 0.9 }\nloop2:\n  - { id: r, profile: plain.md, consensus: 1 }\n`,
      ),
    );
    expect(trace.outcome).toBe('completed');
    expect(trace.hookRuns.filter((r) => r.agentId === 'c').map((r) => r.hook)).toEqual(['post_task']);
    expect(trace.timeline.some((s) => s.kind === 'signal' && s.text.startsWith('wakes Loop 3') && s.to?.includes('c'))).toBe(true);
    const findings = findingsOf(trace).filter((f) => f.ruleId === 'lifecycle-waiting-mode');
    expect(findings.map((f) => [f.file, f.line])).toEqual([
      [parks, 6],
      [file, 3],
    ]);
  });

  it('end to end through the CLI: the bar in one scenario, as JSON and as the linter prints findings', async () => {
    const typo = work.write(
      'cli-typo.md',
      profileText('cli-typo', {
        post_task: [
          '/sqlite-memory retrieve --key "agent:${AGENT_ID}:contxt" --level agent >/dev/null',
          'redis-cli get "swarm:${SWARM_ID#swarm-}:${AGENT_ID}:confidnce" >/dev/null',
        ].join('\n'),
      }),
    );
    work.write(
      'bar.yaml',
      [
        'task: bar',
        'maxIterations: 3',
        'loop3:',
        `  - { id: a, profile: ${typo}, confidence: [0.8, 0.9] }`,
        `  - { id: b, profile: ${typo}, confidence: [0.6992, 0.9] }`,
        `  - { id: c, profile: ${typo}, confidence: [0.7496, 0.9], noDoneIn: [2] }`,
        'loop2:',
        '  - { id: r, profile: plain.md, consensus: 1, blocking: [{ type: validation, signalAfterMs: 5 }] }',
      ].join('\n'),
    );
    const json = memoryIO({ cwd: work.dir });
    expect(await main(['simulate', '--swarm', 'bar.yaml', '--format', 'json'], json)).toBe(0);
    const trace = JSON.parse(json.out()) as SimulationTrace;
    // (0.8 + 0.6992 + 0.7496) / 3 = 0.7496 fails; then c never signals :done, (0.9 + 0.9 + 0) / 3 = 0.6 fails; then all pass.
    expect(trace.iterations.map((it) => [it.gate.confidence, it.gate.passed])).toEqual([
      [0.7496, false],
      [0.6, false],
      [0.9, true],
    ]);
    expect(trace.outcome).toBe('completed');
    expect(trace.iterations[1]!.implementers[2]).toMatchObject({ agentId: 'c-it2', score: 0, reported: false });
    expect(trace.hookRuns.filter((r) => r.hook === 'on_blocking_start').map((r) => r.env.BLOCKING_TYPE)).toEqual(['validation']);
    expect(trace.agents.filter((a) => a.role === 'implementer').every((a) => a.status === 'exited')).toBe(true);
    const stylish = memoryIO({ cwd: work.dir });
    await main(['simulate', '--swarm', 'bar.yaml', '--format', 'stylish'], stylish);
    // Two misspelt keys, nine agent instances over three iterations: two findings.
    expect(stylish.out().match(/^ +\d+:\d+ +warning /gm)?.length).toBe(2);
    expect(stylish.out()).toContain('✖ 2 problems (0 errors, 2 warnings)');
  });

  it('the JSON trace and the diagram use one clock: hook runs and Redis writes fall between the steps around them', async () => {
    const trace = await run(
      'clock',
      'task: k\nmaxIterations: 1\nloop3:\n  - { id: c, profile: plain.md, confidence: 0.9 }\nloop2:\n  - { id: r, profile: plain.md, consensus: 1 }\n',
    );
    const gateStep = trace.timeline.find((s) => s.kind === 'gate')!;
    const push = trace.redisWrites.find((w) => w.command[1] === 'swarm:k:gate-passed')!;
    const signalStep = trace.timeline.find((s) => s.kind === 'signal' && s.text.startsWith('LPUSH swarm:k:gate-passed'))!;
    expect(push.t).toBeGreaterThanOrEqual(gateStep.t);
    expect(push.t).toBeLessThanOrEqual(signalStep.t);
    for (const hookRun of trace.hookRuns) {
      const step = trace.timeline.find((s) => s.runId === hookRun.runId)!;
      const spawn = trace.timeline.find((s) => s.kind === 'spawn' && s.actor === hookRun.agentId)!;
      expect(hookRun.startedAt).toBeGreaterThanOrEqual(spawn.t);
      expect(hookRun.startedAt).toBeLessThanOrEqual(step.t);
    }
  });
});
