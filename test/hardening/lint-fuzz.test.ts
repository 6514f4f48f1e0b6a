import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc, { VerbosityLevel } from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { memoryIO } from '../../src/io.js';
import { main } from '../../src/cli/main.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs, type LintInput } from '../../src/engine/lint.js';
import { shellcheckAnalyzer, shellcheckVersion } from '../../src/shellcheck/index.js';
import { buildHostile, corpusFiles, hostileInputArb, lineLengths, lintedText, rangeProblems, runs, SEED, note } from './helpers.js';

/**
 * Property-based tests of the linter on hostile inputs: real profiles from
 * the corpus, mutated (truncated, byte-flipped, odd Unicode, mixed line
 * endings, deep nesting, huge scalars, duplicate keys, alias bombs, NUL,
 * invalid UTF-8). Invariants: no exception, no internal-error exit, every
 * range inside the file with start <= end. The slowest case is noted, not asserted (timing
 * belongs to `npm run bench`; a hang still fails the test at its timeout).
 */

const files = corpusFiles();
const config = defaultConfig();
const HAS_SHELLCHECK = shellcheckVersion() !== undefined;
if (!HAS_SHELLCHECK) console.warn('lint-fuzz.test.ts: ShellCheck is not installed: the fuzz run with it is skipped (CI installs it).');
const stats = { cases: 0, diagnostics: 0, maxMsPerKB: 0, slowest: { ms: 0, bytes: 0 } };

function checkResults(inputs: readonly LintInput[], results: Awaited<ReturnType<typeof lintInputs>>): void {
  expect(results).toHaveLength(inputs.length);
  results.forEach((result, i) => {
    const input = inputs[i]!;
    const lengths = lineLengths(lintedText(input.text ?? input.bytes!, result.source));
    const problems = result.diagnostics.flatMap((d) => rangeProblems(d, lengths));
    stats.diagnostics += result.diagnostics.length;
    expect(problems, `ranges of ${input.filePath}`).toEqual([]);
  });
}

afterAll(() => {
  note(
    `lint fuzz: seed ${SEED}, ${stats.cases} cases, ${stats.diagnostics} diagnostics checked; slowest ${stats.slowest.ms.toFixed(0)} ms for ${stats.slowest.bytes} bytes`,
  );
});

describe('linter on hostile inputs (fast-check)', () => {
  it(`never throws and keeps every range inside the file (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(hostileInputArb(files), async (spec) => {
        const bytes = buildHostile(files, spec);
        // Editors and stdin hand over text (lossily decoded, lone surrogates and all); the CLI hands over bytes.
        const input: LintInput = spec.asText
          ? { filePath: '/x/.claude/agents/fuzz.md', text: bytes.toString('utf8') }
          : { filePath: '/x/.claude/agents/fuzz.md', bytes };
        const started = performance.now();
        const results = await lintInputs([input], { rules, config });
        const ms = performance.now() - started;
        stats.cases++;
        if (ms > stats.slowest.ms) stats.slowest = { ms, bytes: bytes.length };
        checkResults([input], results);
      }),
      { seed: SEED, numRuns: runs(1500), verbose: VerbosityLevel.Verbose },
    );
    // A hang guard, not a time limit: on a 2-core machine shared with other test runs this took 147 s.
  }, 600_000);

  it('regression: deeply nested YAML (`? ? ? …`, `[[[…`) is refused before the parser recurses, and CRLF ends stay inside the line', async () => {
    for (const yaml of [
      `${'? '.repeat(5000)}x`,
      `a: ${'['.repeat(5000)}x${']'.repeat(5000)}`,
      `a:\n  ${'- '.repeat(3000)}x`,
      `a: ${'[\n  '.repeat(70)}x`,
      `a: [\n  b,\n  ${'{c: '.repeat(70)}x`,
    ]) {
      const [result] = await lintInputs([{ filePath: '/x/deep.md', text: `---\nname: deep\n${yaml}\n---\n` }], { rules, config });
      expect(result!.diagnostics.map((d) => d.message)).toContain('Invalid YAML: collections nested deeper than 64 levels are not read.');
    }
    // Block maps and sequences of the shapes the fast path reads (src/profile/fast-yaml.ts) are refused too,
    // however deep; one level under the limit they are read.
    const blockMaps = (depth: number): string =>
      Array.from({ length: depth }, (_, level) => `${'  '.repeat(level)}k${level}:${level === depth - 1 ? ' x' : ''}`).join('\n');
    const blockSeqs = (depth: number): string =>
      Array.from({ length: depth }, (_, level) => `${'  '.repeat(level)}- k${level}:${level === depth - 1 ? ' x' : ''}`).join('\n');
    for (const yaml of [blockMaps(70), blockMaps(3000), `a:\n${blockSeqs(70)}`]) {
      const [result] = await lintInputs([{ filePath: '/x/deep.md', text: `---\nname: deep\n${yaml}\n---\n` }], { rules, config });
      expect(result!.diagnostics.map((d) => d.message)).toContain('Invalid YAML: collections nested deeper than 64 levels are not read.');
    }
    const [fits] = await lintInputs([{ filePath: '/x/fits.md', text: `---\nname: fits\n${blockMaps(60)}\n---\n` }], { rules, config });
    expect(fits!.diagnostics.map((d) => d.message)).not.toContain('Invalid YAML: collections nested deeper than 64 levels are not read.');
    expect(fits!.diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml')).toEqual([]);
    // Brackets closed on a line of their own are counted out again: two flows of 40 in a row are not 80 deep.
    const closed = `---\nname: ok\na: ${'['.repeat(40)}\n  ${']'.repeat(40)}\nb: ${'['.repeat(40)}x${']'.repeat(40)}\n---\n`;
    const [shallow] = await lintInputs([{ filePath: '/x/shallow.md', text: closed }], { rules, config });
    expect(shallow!.diagnostics.map((d) => d.message)).not.toContain(
      'Invalid YAML: collections nested deeper than 64 levels are not read.',
    );
    const crlf = '---\r\nname: a\r\ntools:\r\n  - x\r  - y\rhooks:\r\n  pre:\r\n---\r\n';
    const [result] = await lintInputs([{ filePath: '/x/cr.md', text: crlf }], { rules, config });
    expect(result!.diagnostics.length).toBeGreaterThan(0);
    expect(result!.diagnostics.flatMap((d) => rangeProblems(d, lineLengths(crlf)))).toEqual([]);
  });

  it('refuses a file over the size limit with a positioned diagnostic', async () => {
    const bytes = Buffer.alloc(10 * 1024 * 1024, 'a');
    const [result] = await lintInputs([{ filePath: '/x/big.md', bytes }], { rules, config });
    expect(result!.diagnostics.map((d) => [d.ruleId, d.line, d.column])).toEqual([['file-unreadable', 1, 1]]);
    expect(result!.diagnostics[0]!.message).toMatch(/Unexpected file size of 10485760 bytes/);
  });

  it(`main() never exits with an internal error on batches of hostile files (seed ${SEED + 1})`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'vah-fuzz-main-'));
    let batch = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileInputArb(files), { minLength: 1, maxLength: 6 }), async (specs) => {
          const dir = join(root, String(batch++));
          mkdirSync(dir);
          const written = specs.map((spec, i) => {
            const path = join(dir, `p${i}.md`);
            const bytes = buildHostile(files, spec);
            writeFileSync(path, bytes);
            return { path, bytes };
          });
          const io = memoryIO({ cwd: dir });
          const code = await main([dir, '--format', 'json', '--no-shellcheck'], io);
          expect(io.err()).not.toContain('internal error');
          expect([0, 1]).toContain(code);
          const report = JSON.parse(io.out()) as {
            filePath: string;
            messages: { ruleId: string; line: number; column: number; endLine: number; endColumn: number }[];
            source?: string;
          }[];
          expect(report).toHaveLength(written.length);
          for (const file of report) {
            const bytes = written.find((w) => w.path === file.filePath)!.bytes;
            const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
            const problems = file.messages.flatMap((m) => rangeProblems({ ...m, ruleId: m.ruleId ?? 'null' }, lineLengths(text)));
            expect(problems, file.filePath).toEqual([]);
          }
          stats.cases += specs.length;
          rmSync(dir, { recursive: true, force: true });
        }),
        { seed: SEED + 1, numRuns: runs(60), verbose: VerbosityLevel.Verbose },
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);

  it.skipIf(!HAS_SHELLCHECK)(
    `with ShellCheck on: no throw and ranges inside the file (seed ${SEED + 2})${HAS_SHELLCHECK ? '' : ' [skipped: ShellCheck is not installed]'}`,
    async () => {
      const analyzer = shellcheckAnalyzer({ infoSeverity: 'warning', processes: 1 });
      await fc.assert(
        fc.asyncProperty(fc.array(hostileInputArb(files), { minLength: 1, maxLength: 4 }), async (specs) => {
          const inputs: LintInput[] = specs.map((spec, i) => {
            const bytes = buildHostile(files, spec);
            return spec.asText ? { filePath: `/x/${i}.md`, text: bytes.toString('utf8') } : { filePath: `/x/${i}.md`, bytes };
          });
          const results = await lintInputs(inputs, { rules, config, batchAnalyzers: [analyzer] });
          stats.cases += inputs.length;
          checkResults(inputs, results);
        }),
        { seed: SEED + 2, numRuns: runs(25), verbose: VerbosityLevel.Verbose },
      );
    },
    120_000,
  );
});
