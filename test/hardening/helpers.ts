/** Shared pieces of the hardening suite: the corpus, hostile mutations of it, and the range invariant. */
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Diagnostic } from '../../src/diagnostics.js';

export const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus', 'claude-flow-novice');
export const corpusMissing = existsSync(CORPUS)
  ? undefined
  : `the real corpus is not at ${CORPUS} (../shared beside the repository; CI has it)`;
if (corpusMissing)
  console.warn(`hardening: ${corpusMissing}: the corpus tests are skipped, and the fuzzers mutate generated profiles only.`);

/**
 * The seed of every property in the suite: fixed so a run is reproducible,
 * overridable (`HARDENING_SEED=123 npx vitest run test/hardening`) to explore.
 * fast-check prints the seed and the failing case's path on a failure.
 */
export const SEED = Number(process.env.HARDENING_SEED ?? 20240611);
/** Scales the number of cases (`HARDENING_RUNS=10` for a long exploration). */
export const RUNS_FACTOR = Number(process.env.HARDENING_RUNS ?? 1);
export const runs = (n: number): number => Math.max(1, Math.round(n * RUNS_FACTOR));

export function corpusFiles(): { path: string; bytes: Buffer }[] {
  if (corpusMissing) return [];
  return readdirSync(CORPUS, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => ({ path: join(CORPUS, f), bytes: readFileSync(join(CORPUS, f)) }));
}

/** Awkward characters: astral, emoji with joiners, RTL overrides, NUL, BOM, separators, lone surrogates. */
const NASTY = [
  '\u0000',
  '\uFEFF',
  '\u202E',
  '\u200F',
  '\u2028',
  '\u2029',
  '\u0085',
  '\t',
  '\r',
  '\r\n',
  '\n',
  '\v',
  '\f',
  '🎉',
  '👩‍👩‍👧‍👦',
  '𝕏',
  '\u{10FFFF}',
  '\uD800',
  '\uDFFF',
  'ﷺ',
  'עברית',
  'Z̷̢͈a̴l̶g̵o̷',
  '\u0301',
  '\\',
  '"',
  "'",
  '`',
  '$(',
  '${',
  '#',
  ': ',
  '- ',
  '? ',
  '|',
  '>',
  '&a',
  '*a',
  '!!binary',
  '%YAML 1.2',
  '---',
  '...',
  '{',
  '[',
  ']',
  '}',
  '<<: *a',
];

/** One hostile change to a file's bytes. */
export type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; bits: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'invalid-utf8'; at: number; bytes: readonly number[] }
  | { kind: 'line-endings'; seed: number }
  | { kind: 'deep-nesting'; depth: number; flow: boolean }
  | { kind: 'huge-scalar'; size: number; where: 'key' | 'hook' | 'body' }
  | { kind: 'duplicate-line'; at: number }
  | { kind: 'alias-bomb'; width: number; depth: number }
  | { kind: 'tabs'; at: number };

const position = fc.nat({ max: 1_000_000 });
export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
  fc.record({ kind: fc.constant('flip' as const), at: position, bits: fc.integer({ min: 1, max: 255 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: position,
    text: fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom(...NASTY),
      fc.array(fc.constantFrom(...NASTY), { maxLength: 8 }).map((a) => a.join('')),
    ),
  }),
  fc.record({
    kind: fc.constant('invalid-utf8' as const),
    at: position,
    bytes: fc.constantFrom(
      [0xff],
      [0xc3, 0x28],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
      [0x80],
      [0xf0, 0x9f, 0x98],
    ),
  }),
  fc.record({ kind: fc.constant('line-endings' as const), seed: fc.nat() }),
  fc.record({ kind: fc.constant('deep-nesting' as const), depth: fc.integer({ min: 50, max: 3000 }), flow: fc.boolean() }),
  fc.record({
    kind: fc.constant('huge-scalar' as const),
    size: fc.integer({ min: 10_000, max: 100_000 }),
    where: fc.constantFrom('key' as const, 'hook' as const, 'body' as const),
  }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: position }),
  fc.record({ kind: fc.constant('alias-bomb' as const), width: fc.integer({ min: 2, max: 12 }), depth: fc.integer({ min: 2, max: 12 }) }),
  fc.record({ kind: fc.constant('tabs' as const), at: position }),
);

/** Line `n` of the frontmatter (after the opening fence), or the start of the file. */
function afterFirstLine(bytes: Buffer): number {
  const nl = bytes.indexOf(0x0a);
  return nl === -1 ? bytes.length : nl + 1;
}

function lineStart(bytes: Buffer, at: number): number {
  const target = at % (bytes.length + 1);
  const nl = bytes.lastIndexOf(0x0a, target - 1);
  return nl === -1 ? 0 : nl + 1;
}

function splice(bytes: Buffer, at: number, remove: number, insert: Buffer | string): Buffer {
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(insert as string), bytes.subarray(at + remove)]);
}

export function applyMutation(bytes: Buffer, m: Mutation): Buffer {
  const at = (n: number): number => n % (bytes.length + 1);
  switch (m.kind) {
    case 'truncate':
      return bytes.subarray(0, at(m.at));
    case 'flip': {
      if (bytes.length === 0) return bytes;
      const copy = Buffer.from(bytes);
      const i = m.at % copy.length;
      copy[i] = copy[i]! ^ m.bits;
      return copy;
    }
    case 'insert':
      return splice(bytes, at(m.at), 0, m.text);
    case 'invalid-utf8':
      return splice(bytes, at(m.at), 0, Buffer.from(m.bytes));
    case 'line-endings': {
      let state = m.seed || 1;
      const endings = ['\n', '\r\n', '\r'];
      return Buffer.from(
        bytes.toString('latin1').replace(/\r?\n/g, () => {
          state = (state * 1103515245 + 12345) & 0x7fffffff;
          return endings[state % 3]!;
        }),
        'latin1',
      );
    }
    case 'deep-nesting': {
      const nested = m.flow
        ? `deep: ${'['.repeat(m.depth)}x${']'.repeat(m.depth)}\n`
        : `deep:\n${Array.from({ length: Math.min(m.depth, 400) }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} x\n`;
      return splice(bytes, afterFirstLine(bytes), 0, nested);
    }
    case 'huge-scalar': {
      const big = 'a'.repeat(m.size);
      if (m.where === 'body') return Buffer.concat([bytes, Buffer.from(`\n${big}\n`)]);
      const text =
        m.where === 'key'
          ? `${big}: x\nlong: ${big}\n`
          : `hooks:\n  pre: |\n${Array.from({ length: Math.ceil(m.size / 40) }, (_, i) => `    echo "line ${i}" $AGENT_ID && rm -rf /tmp/x${i}`).join('\n')}\n`;
      return splice(bytes, afterFirstLine(bytes), 0, text);
    }
    case 'duplicate-line': {
      const start = lineStart(bytes, m.at);
      const nl = bytes.indexOf(0x0a, start);
      const end = nl === -1 ? bytes.length : nl + 1;
      const line = bytes.subarray(start, end);
      return splice(bytes, start, 0, line.length && line[line.length - 1] !== 0x0a ? Buffer.concat([line, Buffer.from('\n')]) : line);
    }
    case 'alias-bomb': {
      const lines = [`l0: &l0 [${Array(m.width).fill('"lol"').join(', ')}]`];
      for (let i = 1; i <= m.depth; i++)
        lines.push(
          `l${i}: &l${i} [${Array(m.width)
            .fill(`*l${i - 1}`)
            .join(', ')}]`,
        );
      return splice(bytes, afterFirstLine(bytes), 0, `${lines.join('\n')}\n`);
    }
    case 'tabs': {
      const start = lineStart(bytes, m.at);
      let end = start;
      while (bytes[end] === 0x20) end++;
      return splice(bytes, start, end - start, '\t'.repeat(Math.max(1, (end - start) >> 1)));
    }
  }
}

/** A corpus file (or a tiny seed) and up to five mutations applied in order. */
export function hostileInputArb(
  files: readonly { path: string; bytes: Buffer }[],
): fc.Arbitrary<{ base: number; mutations: Mutation[]; asText: boolean }> {
  return fc.record({
    base: fc.nat({ max: Math.max(0, files.length - 1) }),
    mutations: fc.array(mutationArb, { minLength: 1, maxLength: 5 }),
    asText: fc.boolean(),
  });
}

export function buildHostile(files: readonly { path: string; bytes: Buffer }[], input: { base: number; mutations: Mutation[] }): Buffer {
  let bytes = files[input.base]?.bytes ?? Buffer.from('---\nname: x\nhooks:\n  pre: echo hi\n---\n');
  for (const m of input.mutations) bytes = applyMutation(bytes, m);
  return bytes;
}

/**
 * Lines as the tool counts them: split at `\n`, a `\r` right before it is
 * part of the line ending. The text is what the engine linted (BOM removed).
 */
export function lineLengths(text: string): number[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.length - 1 : line.length));
}

/** Every problem with a diagnostic's range against the linted text; [] when it lies inside and starts before it ends. */
export function rangeProblems(
  d: Pick<Diagnostic, 'line' | 'column' | 'endLine' | 'endColumn' | 'ruleId'>,
  lengths: readonly number[],
): string[] {
  const problems: string[] = [];
  const where = `${d.ruleId} ${d.line}:${d.column}-${d.endLine}:${d.endColumn}`;
  for (const [line, column, name] of [
    [d.line, d.column, 'start'],
    [d.endLine, d.endColumn, 'end'],
  ] as const) {
    if (!Number.isInteger(line) || !Number.isInteger(column)) {
      problems.push(`${where}: ${name} is not whole numbers`);
      continue;
    }
    if (line < 1 || line > lengths.length) problems.push(`${where}: ${name} line outside 1..${lengths.length}`);
    else if (column < 1 || column > lengths[line - 1]! + 1) problems.push(`${where}: ${name} column outside 1..${lengths[line - 1]! + 1}`);
  }
  if (d.line > d.endLine || (d.line === d.endLine && d.column > d.endColumn)) problems.push(`${where}: start after end`);
  return problems;
}

/** The text the engine saw for a file: decoded (lossily, for files it refused), BOM removed. */
export function lintedText(bytes: Uint8Array | string, source: string | undefined): string {
  if (source !== undefined) return source;
  const text = typeof bytes === 'string' ? bytes : new TextDecoder('utf-8').decode(bytes);
  return text.replace(/^\uFEFF/, '');
}

/** A line for the log and, under scripts/reliability.mjs (HARDENING_NOTES=file), for the README's Reliability table. */
export function note(line: string): void {
  console.log(`[hardening] ${line}`);
  if (process.env.HARDENING_NOTES) appendFileSync(process.env.HARDENING_NOTES, `${line}\n`);
}
