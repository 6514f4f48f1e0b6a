import { describe, expect, it } from 'vitest';
import { createExecutorSession } from '../../src/executor/session.js';
import { hookScript, needsSandbox, sandboxMissing } from './helpers.js';

/**
 * The executor's cost, measured: the targets are ≤ 150 ms per empty hook and
 * ≤ 15 ms per redis-cli or /sqlite-memory call at the median. The assertions
 * allow twice that, since other test files share the CPU while this runs;
 * the numbers are printed for the record.
 */

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('executor overhead'), () => {
  it('runs an empty hook well within 150 ms, sandbox, fakes and trace included', async () => {
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const session = await createExecutorSession();
      await session.runHook(hookScript('pre', 'true'));
      await session.close();
      cold.push(performance.now() - started);
    }
    const session = await createExecutorSession();
    const warm: number[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        const started = performance.now();
        const result = await session.runHook(hookScript('pre', ''), { agentId: `empty-${i % 3}` });
        warm.push(performance.now() - started);
        expect(result.exitCode).toBe(0);
      }
    } finally {
      await session.close();
    }
    console.log(
      `[executor overhead] empty hook: ${median(warm).toFixed(1)} ms per run in a session (median of 15), ` +
        `${median(cold).toFixed(1)} ms with a new session each time (median of 3)`,
    );
    expect(median(warm)).toBeLessThan(300);
    expect(median(cold)).toBeLessThan(300);
  });

  it('costs well under 15 ms per redis-cli and /sqlite-memory call inside the sandbox', async () => {
    const session = await createExecutorSession({ timeoutMs: 20_000 });
    try {
      // Each call timed on its own inside the sandbox, so the hook's loop is not counted.
      const timeEach = (command: string, count: number): string =>
        [
          `for i in $(seq ${count}); do`,
          '  start=$EPOCHREALTIME',
          `  ${command} >/dev/null`,
          '  end=$EPOCHREALTIME',
          '  echo $(( ${end/./} - ${start/./} ))',
          'done',
        ].join('\n');
      const result = await session.runHook(
        hookScript(
          'on_blocking_start',
          [
            '/sqlite-memory store --key warm --level agent --data 1',
            'echo redis',
            timeEach('redis-cli SET "swarm:t:$i" "$i"', 30),
            'echo store',
            timeEach('/sqlite-memory store --key "k:$i" --level agent --data "{\\"i\\":$i}"', 30),
            'echo retrieve',
            timeEach('/sqlite-memory retrieve --key "k:$i" --level agent', 30),
          ].join('\n'),
        ),
      );
      expect(result.exitCode, result.stderr).toBe(0);
      const sections: Record<string, number[]> = {};
      let current = '';
      for (const line of result.stdout.trim().split('\n')) {
        if (/^\d+$/.test(line)) sections[current]!.push(Number(line) / 1000);
        else sections[(current = line)] = [];
      }
      const medians = Object.fromEntries(Object.entries(sections).map(([name, values]) => [name, median(values)]));
      console.log(
        `[executor overhead] median per call inside the sandbox: redis-cli ${medians.redis!.toFixed(1)} ms, ` +
          `/sqlite-memory store ${medians.store!.toFixed(1)} ms, retrieve ${medians.retrieve!.toFixed(1)} ms`,
      );
      for (const [name, value] of Object.entries(medians)) expect(value, name).toBeLessThan(30);
      expect(result.operations.filter((op) => op.kind === 'redis')).toHaveLength(30);
    } finally {
      await session.close();
    }
  });
});
