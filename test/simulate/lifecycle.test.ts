import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_LOG_KEY, HOOK_METRICS_KEY, simulateLifecycle } from '../../src/simulate/index.js';
import { needsSandbox, profileText, sandboxMissing, workDir } from './helpers.js';

/**
 * One agent's blocking lifecycle with a profile written here, independently
 * of the fixtures: what on_blocking_start stores, on_signal_received must
 * read back; the timeout path must publish its event.
 */
describe.skipIf(sandboxMissing !== undefined)(needsSandbox("simulate: one agent's blocking lifecycle"), () => {
  const work = workDir();
  afterAll(() => work.remove());
  const profile = work.write(
    'saver.md',
    profileText('saver', {
      on_blocking_start: [
        'STATE=$(printf \'{"step":"%s","phase":"%s"}\' "$ITERATION" "$PHASE")',
        '/sqlite-memory store --key "agent:${AGENT_ID}:saved" --level agent --data "$STATE"',
        'echo "type=$BLOCKING_TYPE threshold=$TIMEOUT_THRESHOLD signal=${SIGNAL_DATA-unset}"',
      ].join('\n'),
      on_signal_received: [
        'RESTORED=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:saved" --level agent)',
        'echo "restored=$RESTORED"',
        'echo "signal=$SIGNAL_DATA waited=$WAIT_DURATION timeout=${TIMEOUT_DURATION-unset}"',
      ].join('\n'),
      on_blocking_timeout: [
        '/eventbus publish --type agent.timeout --data "{\\"exceeded\\":$EXCEEDED_BY}" --priority 9',
        'echo "duration=$TIMEOUT_DURATION exceeded=$EXCEEDED_BY"',
        'exit 3',
      ].join('\n'),
    }),
  );

  it('signal: on_signal_received reads back exactly what on_blocking_start stored, with SIGNAL_DATA and WAIT_DURATION', async () => {
    const trace = await simulateLifecycle(profile, {
      scenario: 'signal',
      signalAfterMs: 150,
      agentId: 'saver-7',
      iteration: 4,
      phase: 'auth',
      signalData: '{"from":"lead"}',
    });
    expect(trace.outcome).toBe('signal');
    expect(trace.hookRuns.map((run) => run.hook)).toEqual(['on_blocking_start', 'on_signal_received']);
    const [start, received] = trace.hookRuns;
    expect(start!.stdout).toBe('type=consensus threshold=300000 signal=unset\n');
    const stored = trace.memory.find((entry) => entry.key === 'agent:saver-7:saved')!;
    expect(stored).toMatchObject({ level: 'agent', owner: 'saver-7', value: '{"step":"4","phase":"auth"}' });
    const lines = received!.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`restored=${stored.value}`);
    const waited = Number(/waited=(\d+)/.exec(lines[1]!)![1]);
    expect(lines[1]).toMatch(/^signal=\{"from":"lead"\} waited=\d+ timeout=unset$/);
    // WAIT_DURATION is at least the scenario's 150 ms: a lower bound only, which load cannot break.
    expect(waited).toBeGreaterThanOrEqual(145);
    expect(received!.env).toMatchObject({ SIGNAL_DATA: '{"from":"lead"}', AGENT_ID: 'saver-7', ITERATION: '4' });
    expect(trace.findings).toEqual([]);
  });

  it('timeout: on_blocking_timeout runs with TIMEOUT_DURATION and EXCEEDED_BY, publishes its event, and a failing hook is logged, not fatal', async () => {
    const trace = await simulateLifecycle(profile, { scenario: 'timeout', timeoutThresholdMs: 200, agentId: 'saver-8' });
    expect(trace.outcome).toBe('timeout');
    const timeoutRun = trace.hookRuns.find((run) => run.hook === 'on_blocking_timeout')!;
    expect(trace.hookRuns.map((run) => run.hook)).toEqual(['on_blocking_start', 'on_blocking_timeout']);
    const [, duration, exceeded] = /duration=(\d+) exceeded=(\d+)/.exec(timeoutRun.stdout)!.map(Number);
    expect(duration).toBeGreaterThanOrEqual(195);
    expect(duration! - exceeded!).toBeGreaterThanOrEqual(195);
    expect(duration! - exceeded!).toBeLessThanOrEqual(205);
    expect(timeoutRun.env.SIGNAL_DATA).toBeUndefined();
    expect(trace.events).toEqual([
      expect.objectContaining({ type: 'agent.timeout', priority: 9, agentId: 'saver-8', data: { exceeded: exceeded } }),
    ]);
    expect(timeoutRun).toMatchObject({ exitCode: 3, failed: true });
    expect(trace.timeline.at(-1)).toMatchObject({ kind: 'outcome', text: 'timed out: escalated' });
    const finding = trace.findings[0]!.diagnostics.find((d) => d.ruleId === 'hook-failed')!;
    expect(finding).toMatchObject({ severity: 'warning', hook: 'on_blocking_timeout', line: 13, column: 3 });

    // The runtime's log and metrics, in project-level memory, as its documentation describes.
    const log = JSON.parse(
      trace.memory.find((entry) => entry.key === HOOK_LOG_KEY('saver-8') && entry.level === 'project')!.value,
    ) as Array<Record<string, unknown>>;
    expect(log.map((entry) => [entry.hook, entry.exit_code, entry.level, entry.component, entry.agent])).toEqual([
      ['on_blocking_start', 0, 'debug', 'AgentHookExecutor', 'saver-8'],
      ['on_blocking_timeout', 3, 'error', 'AgentHookExecutor', 'saver-8'],
    ]);
    expect(log[1]).toMatchObject({ output: expect.stringContaining('exceeded='), error: 'Command failed with exit code 3' });
    expect(typeof log[0]!.duration_ms).toBe('number');
    const metrics = JSON.parse(trace.memory.find((entry) => entry.key === HOOK_METRICS_KEY)!.value);
    expect(metrics.hooks.on_blocking_timeout).toMatchObject({ executions: 1, failures: 1 });
    expect(metrics.hooks.on_blocking_start).toMatchObject({ executions: 1, failures: 0 });
    expect(metrics.hooks.on_blocking_start.max_duration_ms).toBeGreaterThanOrEqual(metrics.hooks.on_blocking_start.avg_duration_ms);
  });

  it('a signal later than the threshold ends in a timeout, as the runtime would see it', async () => {
    const trace = await simulateLifecycle(profile, { scenario: 'signal', signalAfterMs: 400, timeoutThresholdMs: 100, agentId: 'saver-9' });
    expect(trace.outcome).toBe('timeout');
    expect(trace.timeline.some((step) => step.kind === 'note' && step.text.includes('came too late'))).toBe(true);
  });
});
