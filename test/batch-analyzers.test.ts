import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Diagnostic } from '../src/diagnostics.js';
import { defaultConfig } from '../src/engine/config.js';
import { lintInputs, type BatchAnalyzer } from '../src/engine/lint.js';

/** An analyzer that reports one finding per hook, naming the hook's first line, and records each call. */
function recordingAnalyzer(lanes: number) {
  const calls: { hooks: number; processes: number | undefined }[] = [];
  const analyzer: BatchAnalyzer = {
    lanes,
    analyze(hooks, options) {
      calls.push({ hooks: hooks.length, processes: options?.processes });
      return Promise.resolve(hooks.map(({ hook }): Diagnostic[] => [{ ruleId: 'fake/echo', severity: 'warning', message: hook.text.split('\n')[0]!, line: 1, column: 1, endLine: 1, endColumn: 2 }]));
    },
  };
  return { analyzer, calls };
}

const id = (i: number) => String(i).padStart(2, '0');
const inputs = (count: number) => Array.from({ length: count }, (_, i) => ({ filePath: `/virtual/${id(i)}.md`, text: `---\nname: f${id(i)}\ndescription: d\nhooks:\n  pre: |\n    echo f${id(i)}\n---\n` }));

describe('batch analyzers (ShellCheck) over many files', () => {
  it('get the files in one slice per lane, each as soon as it is read, and their findings go back to the right file', async () => {
    const { analyzer, calls } = recordingAnalyzer(2);
    const results = await lintInputs(inputs(40), { rules, config: defaultConfig(), batchAnalyzers: [analyzer] });
    expect(calls).toEqual([{ hooks: 20, processes: 1 }, { hooks: 20, processes: 1 }]);
    results.forEach((result, i) => expect(result.diagnostics.filter((d) => d.ruleId === 'fake/echo').map((d) => d.message)).toEqual([`echo f${id(i)}`]));
  });

  it('the first slice is analysed before the second is read', async () => {
    const events: string[] = [];
    const { analyzer } = recordingAnalyzer(2);
    const analyze = analyzer.analyze.bind(analyzer);
    analyzer.analyze = (hooks, options) => { events.push('analyze'); return analyze(hooks, options); };
    const files = inputs(8).map((input, i) => ({
      text: input.text,
      get filePath() { if (!events.includes(`read ${i}`)) events.push(`read ${i}`); return input.filePath; },
    }));
    await lintInputs(files, { rules, config: defaultConfig(), batchAnalyzers: [analyzer] });
    expect(events.slice(0, 10)).toEqual(['read 0', 'read 1', 'read 2', 'read 3', 'analyze', 'read 4', 'read 5', 'read 6', 'read 7', 'analyze']);
  });

  it('a handful of files is one call, spread as the analyzer likes', async () => {
    const { analyzer, calls } = recordingAnalyzer(4);
    await lintInputs(inputs(3), { rules, config: defaultConfig(), batchAnalyzers: [analyzer] });
    expect(calls).toEqual([{ hooks: 3, processes: undefined }]);
  });

  it('slices follow the size of the files, not their count', async () => {
    const { analyzer, calls } = recordingAnalyzer(2);
    const files = inputs(12);
    files[0]!.text = files[0]!.text.replace('description: d', `description: ${'x'.repeat(5000)}`);
    await lintInputs(files, { rules, config: defaultConfig(), batchAnalyzers: [analyzer] });
    expect(calls).toEqual([{ hooks: 1, processes: 1 }, { hooks: 11, processes: 1 }]);
  });
});
