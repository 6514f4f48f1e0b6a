import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';
import { checkMermaidSequence, parseScenario, simulateLifecycle, simulateSwarm } from '../../src/simulate/index.js';
import { needsSandbox, profileText, sandboxMissing, workDir } from './helpers.js';

/** Bugs that only show across hooks and agents, reported at the line of the hook that has them. */
describe.skipIf(sandboxMissing !== undefined)(needsSandbox('simulate: findings from the run'), () => {
  const work = workDir();
  afterAll(() => work.remove());

  it('finds a restore from another key, an invalid priority, a wait that blocked forever and a hook timeout, at their lines', async () => {
    const profile = work.write(
      'buggy.md',
      profileText('buggy', {
        on_blocking_start: [
          'echo saving',
          '/sqlite-memory store --key "agent:${AGENT_ID}:blocking:context" --level agent --data \'{"s":1}\'',
          'redis-cli blpop "swarm:${SWARM_ID}:go" 0',
        ].join('\n'),
        on_signal_received: [
          'CTX=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:context" --level agent)',
          "/eventbus publish --type agent.blocking.resume --data '{}' --priority 12",
        ].join('\n'),
      }),
    );
    const trace = await simulateLifecycle(profile, { scenario: 'signal', signalAfterMs: 10, hookTimeoutMs: 400, agentId: 'b-1' });
    const found = trace.findings[0]!.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId} ${d.severity}`);
    expect(found).toEqual([
      '5:3 hook-timed-out error',
      '8:5 wait-blocked-forever error',
      // The rejected publish fails the hook too: logged, and the lifecycle goes on.
      '9:3 hook-failed warning',
      // At `/sqlite-memory` inside `CTX=$(…)`.
      '10:11 memory-read-unwritten warning',
      '11:5 event-priority-invalid error',
    ]);
    const unwritten = trace.findings[0]!.diagnostics.find((d) => d.ruleId === 'memory-read-unwritten')!;
    expect(unwritten.message).toContain('`agent:b-1:context`');
    expect(unwritten.message).toContain('did you mean `agent:b-1:blocking:context`');
    expect(unwritten.related?.[0]).toMatchObject({ file: profile, range: { line: 7, column: 5 } });
    expect(trace.findings[0]!.diagnostics.find((d) => d.ruleId === 'wait-blocked-forever')!.endLine).toBe(8);
  });

  it('finds an agent-level entry another agent was denied, and a Redis key nothing wrote, once for many agents', async () => {
    const writer = work.write(
      'writer.md',
      profileText('writer', {
        pre_task: [
          '/sqlite-memory store --key "shared:plan" --level agent --data \'{"plan":1}\'',
          'redis-cli set "swarm:${SWARM_ID#swarm-}:ready" 1 >/dev/null',
        ].join('\n'),
      }),
    );
    const reader = work.write(
      'reader.md',
      profileText('reader', {
        post_task: [
          'PLAN=$(/sqlite-memory retrieve --key "shared:plan" --level agent || echo none)',
          'redis-cli get "swarm:${SWARM_ID#swarm-}:plan:final" >/dev/null',
          // EXISTS of a flag nobody set is an answer; of a near spelling of a key that was written, a typo.
          '[ "$(redis-cli exists "swarm:${SWARM_ID#swarm-}:redy")" = 1 ] || echo waiting',
          '[ "$(redis-cli exists "swarm:${SWARM_ID#swarm-}:cancel")" = 1 ] && exit 0',
          'echo done',
        ].join('\n'),
      }),
    );
    const loaded = await parseScenario(
      join(work.dir, 'cross.yaml'),
      [
        'task: cross',
        'maxIterations: 1',
        'loop3:',
        '  - { id: writer-1, profile: writer.md, confidence: 0.9 }',
        'loop2:',
        '  - { id: reader-1, profile: reader.md, consensus: 0.95 }',
        '  - { id: reader-2, profile: reader.md, consensus: 0.95 }',
      ].join('\n'),
    );
    if (!loaded.ok) throw new Error('invalid');
    const trace = await simulateSwarm(loaded.scenario);
    const readerFindings = trace.findings.find((r) => r.filePath === reader)!.diagnostics;
    expect(readerFindings.map((d) => `${d.line}:${d.ruleId}`)).toEqual([
      '6:memory-read-denied',
      '7:redis-read-unwritten',
      '8:redis-read-unwritten',
    ]);
    expect(readerFindings[2]!.message).toContain('did you mean `swarm:cross:ready`');
    expect(readerFindings[0]!.message).toMatch(/private to agent `writer-1`.*\[simulated: reader-1, reader-2\]/);
    expect(readerFindings[0]!.related?.[0]?.file).toBe(writer);
    expect(readerFindings[1]!.message).toContain('`swarm:cross:plan:final`');
    expect(trace.findings.some((r) => r.filePath === writer)).toBe(false);
  });

  it("the CLI prints the timeline, the JSON trace, a diagram that parses, and the findings through the linter's reporters", async () => {
    work.write(
      'cli.md',
      profileText('cli', {
        on_blocking_start: '/sqlite-memory store --key "agent:${AGENT_ID}:x" --level agent --data 1',
        on_blocking_timeout: "/eventbus publish --type agent.timeout --data '{}' --priority 0",
      }),
    );
    const timeline = memoryIO({ cwd: work.dir });
    expect(await main(['simulate', 'cli.md', '--scenario', 'timeout', '--timeout-threshold-ms', '50'], timeline)).toBe(1);
    expect(timeline.out()).toMatch(/on_blocking_start: exit 0/);
    expect(timeline.out()).toMatch(/⏰ blocking timeout/);
    expect(timeline.out()).toMatch(/cli\.md:\d+:\d+ {2}error {2}Invalid event priority/);

    const json = memoryIO({ cwd: work.dir });
    expect(await main(['simulate', 'cli.md', '--scenario', 'signal', '--signal-after-ms', '5', '--format', 'json'], json)).toBe(0);
    const trace = JSON.parse(json.out());
    expect(trace).toMatchObject({ kind: 'lifecycle', outcome: 'signal', source: 'cli.md', findings: [] });
    expect(Object.keys(trace)).toEqual(
      expect.arrayContaining(['iterations', 'hookRuns', 'redisWrites', 'redisKeys', 'memory', 'events', 'decisions', 'timeline']),
    );

    const mermaid = memoryIO({ cwd: work.dir });
    await main(['simulate', 'cli.md', '--scenario', 'timeout', '--timeout-threshold-ms', '20', '--format', 'mermaid'], mermaid);
    expect(mermaid.out().startsWith('sequenceDiagram\n')).toBe(true);
    expect(checkMermaidSequence(mermaid.out())).toEqual([]);

    const sarif = memoryIO({ cwd: work.dir });
    await main(['simulate', 'cli.md', '--scenario', 'timeout', '--timeout-threshold-ms', '20', '--format', 'sarif'], sarif);
    expect(JSON.parse(sarif.out()).runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toContain('event-priority-invalid');

    const usage = memoryIO({ cwd: work.dir });
    expect(await main(['simulate', 'cli.md'], usage)).toBe(2);
    expect(usage.err()).toContain('missing --scenario signal|timeout');
    const bad = memoryIO({ cwd: work.dir });
    work.write('bad.yaml', 'task: t\nloop3: []\nloop2: []\n');
    expect(await main(['simulate', '--swarm', 'bad.yaml'], bad)).toBe(2);
    expect(bad.err()).toMatch(/^bad\.yaml:2:8: Invalid `loop3`/m);
  });
});
