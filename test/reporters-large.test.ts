import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { maxOf, pushAll } from '../src/arrays.js';
import type { Diagnostic, LintResult } from '../src/diagnostics.js';
import { defaultConfig } from '../src/engine/config.js';
import { lintInputs } from '../src/engine/lint.js';
import { formatTimeline } from '../src/simulate/format.js';
import type { SimulationTrace } from '../src/simulate/trace.js';
import { stylishReporter } from '../src/reporters/stylish.js';

/** More items than V8 takes as arguments of one call: `f(...items)` throws "Maximum call stack size exceeded". */
const MANY = 200_000;

const finding = (i: number): Diagnostic => ({
  ruleId: 'command-sudo',
  severity: i % 2 ? 'warning' : 'error',
  message: `Avoid sudo ${i}`,
  line: i + 1,
  column: 5,
  endLine: i + 1,
  endColumn: 9,
});

describe('input-sized arrays are never spread into a call', () => {
  it('pushAll and maxOf take any number of items', () => {
    const items = Array.from({ length: MANY }, (_, i) => i);
    expect(() => Math.max(...Array.from({ length: 1_000_000 }, () => 0))).toThrow(RangeError);
    expect(pushAll([-1], items)).toHaveLength(MANY + 1);
    expect(maxOf(items)).toBe(MANY - 1);
    expect(maxOf([], 0)).toBe(0);
    expect(maxOf([-3, -7])).toBe(-3);
  });

  it('the stylish reporter prints a file with 200,000 findings', () => {
    const results: LintResult[] = [{ filePath: '/p/b.md', diagnostics: Array.from({ length: MANY }, (_, i) => finding(i)) }];
    const out = stylishReporter(results, { cwd: '/p', color: false, verbose: false });
    const lines = out.split('\n');
    // Columns aligned to the widest position, "200000:5".
    expect(lines[2]).toBe(`  1:5       error    Avoid sudo 0       command-sudo`);
    expect(out).toContain(`  200000:5  warning  Avoid sudo 199999  command-sudo\n`);
    expect(out).toContain('✖ 200000 problems (100000 errors, 100000 warnings)');
  });

  it('the engine takes 200,000 findings of a batch analyzer for one hook', async () => {
    const text = '---\nname: a\nhooks:\n  on_blocking_start: |\n    echo hi\n---\n';
    const [result] = await lintInputs([{ filePath: '/virtual/p.md', text }], {
      rules,
      config: defaultConfig(),
      batchAnalyzers: [
        {
          analyze: (hooks) =>
            Promise.resolve(
              hooks.map(() => Array.from({ length: MANY }, (_, i) => ({ ...finding(0), ruleId: 'shellcheck/SC2086', message: `m${i}` }))),
            ),
        },
      ],
    });
    expect(result!.diagnostics.filter((d) => d.ruleId === 'shellcheck/SC2086')).toHaveLength(MANY);
  });

  it('the simulation timeline formats 200,000 steps', () => {
    const trace = {
      source: '/p/s.yaml',
      swarmId: 's',
      sandbox: 'none',
      kind: 'lifecycle',
      outcome: 'signal',
      memory: [],
      events: [],
      findings: [],
      timeline: Array.from({ length: MANY }, (_, i) => ({ t: i, actor: `agent-${i % 7}`, kind: 'note', text: 'x' })),
      hookRuns: [],
    } as unknown as SimulationTrace;
    const out = formatTimeline(trace, '/p');
    expect(out.split('\n').filter((line) => line.includes('agent-6')).length).toBeGreaterThan(28_000);
  });
});
