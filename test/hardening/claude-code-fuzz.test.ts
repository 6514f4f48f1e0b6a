import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';
import { lineLengths, rangeProblems, runs, SEED } from './helpers.js';

/**
 * Claude Code sources under mutation: settings JSON cut, spliced and
 * byte-flipped, and frontmatter hooks reshaped. Invariants: no exception,
 * every finding inside the file with start <= end (bad JSON is a positioned
 * `json-syntax` error, never a crash).
 */
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-code');
const SETTINGS = readFileSync(join(FIXTURES, 'project', '.claude', 'settings.json'), 'utf8');
const AGENT = readFileSync(join(FIXTURES, 'project', '.claude', 'agents', 'reviewer.md'), 'utf8');
const config = defaultConfig();

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      '\\u12',
      ',',
      ':',
      '\n',
      'null',
      '"\\uD83D"',
      '\u00e9',
      '😀',
      '\r\n',
      '  - ',
      ': |',
    ),
  }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
);

type Step =
  | { kind: 'cut'; at: number; length: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'swap'; at: number; with: number };

function mutate(text: string, steps: readonly Step[]): string {
  let out = text;
  for (const step of steps) {
    const at = out.length ? step.at % out.length : 0;
    if (step.kind === 'cut') out = out.slice(0, at) + out.slice(at + step.length);
    else if (step.kind === 'insert') out = out.slice(0, at) + step.text + out.slice(at);
    else if (out.length) {
      const other = step.with % out.length;
      const chars = Array.from(out);
      if (at < chars.length && other < chars.length) [chars[at], chars[other]] = [chars[other]!, chars[at]!];
      out = chars.join('');
    }
  }
  return out;
}

async function check(filePath: string, text: string): Promise<void> {
  const [result] = await lintInputs([{ filePath, text }], { rules, config });
  const lengths = lineLengths(text.replace(/^\uFEFF/, ''));
  expect(result!.diagnostics.flatMap((d) => rangeProblems(d, lengths))).toEqual([]);
}

describe('Claude Code sources survive hostile edits', () => {
  it('mutated settings.json: positioned findings, no exception', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 6 }), async (steps) => {
        await check('/fuzz/.claude/settings.json', mutate(SETTINGS, steps));
      }),
      { seed: SEED, numRuns: runs(120) },
    );
  });

  it('mutated agent frontmatter with Claude Code hooks: positioned findings, no exception', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 6 }), async (steps) => {
        await check('/fuzz/.claude/agents/a.md', mutate(AGENT, steps));
      }),
      { seed: SEED, numRuns: runs(120) },
    );
  });
});
