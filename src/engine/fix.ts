import { randomBytes } from 'node:crypto';
import { chmod, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { pushAll } from '../arrays.js';
import { writeTarget } from '../fs-write.js';
import type { Diagnostic, Fix, LintResult, TextEdit } from '../diagnostics.js';
import { decodeSource, fromText, type SourceText } from '../profile/source.js';
import { LineIndex } from '../text/line-index.js';
import type { LintInput } from './lint.js';

export const MAX_FIX_PASSES = 10;

/** An edit in offsets of one text: [start, end) replaced by `text`. */
interface OffsetEdit {
  start: number;
  end: number;
  text: string;
}

export interface AppliedFixes {
  text: string;
  /** The fixes applied, in file order. */
  applied: { ruleId: string; fix: Fix }[];
}

/**
 * Applies the first safe fix of each diagnostic, skipping any fix that
 * overlaps (or inserts at the same point as) one already taken; the skipped
 * ones get their turn in the next pass. Edits' text uses `\n` for new lines;
 * it is written with the file's own line ending.
 */
export function applySafeFixes(text: string, diagnostics: readonly Diagnostic[], eol: '\n' | '\r\n' = '\n'): AppliedFixes {
  const lines = new LineIndex(text);
  const candidates = diagnostics
    .map((d) => ({ d, fix: d.fixes?.find((f) => f.safe && f.edits.length > 0) }))
    .filter((c): c is { d: Diagnostic; fix: Fix } => c.fix !== undefined)
    .map((c) => ({ ...c, edits: c.fix.edits.map((e) => toOffsets(lines, e, eol)).sort((a, b) => a.start - b.start || a.end - b.end) }))
    .filter((c) => c.edits.every((e, i) => i === 0 || !overlaps(c.edits[i - 1]!, e)))
    .sort((a, b) => a.edits[0]!.start - b.edits[0]!.start || a.edits[0]!.end - b.edits[0]!.end);
  const taken: OffsetEdit[] = [];
  const applied: AppliedFixes['applied'] = [];
  for (const candidate of candidates) {
    if (candidate.edits.some((e) => taken.some((t) => overlaps(t, e)))) continue;
    // An edit that changes nothing is no fix; taking it would loop forever.
    if (candidate.edits.every((e) => text.slice(e.start, e.end) === e.text)) continue;
    pushAll(taken, candidate.edits);
    applied.push({ ruleId: candidate.d.ruleId, fix: candidate.fix });
  }
  taken.sort((a, b) => b.start - a.start);
  let out = text;
  for (const edit of taken) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { text: out, applied };
}

function toOffsets(lines: LineIndex, edit: TextEdit, eol: string): OffsetEdit {
  const start = lines.offsetAt({ line: edit.range.line, column: edit.range.column });
  const end = Math.max(start, lines.offsetAt({ line: edit.range.endLine, column: edit.range.endColumn }));
  return { start, end, text: edit.text.replace(/\r?\n/g, eol) };
}

function overlaps(a: OffsetEdit, b: OffsetEdit): boolean {
  if (a.start === b.start) return true;
  return a.start < b.end && b.start < a.end;
}

export interface FixedFile {
  filePath: string;
  /** The file's bytes before, and the bytes to write (BOM and line endings kept). */
  before: Uint8Array;
  after: Uint8Array;
  /** Text (without BOM) before and after, for diffs. */
  beforeText: string;
  afterText: string;
  applied: { ruleId: string; fix: Fix }[];
  passes: number;
}

export interface FixOutcome {
  /** The findings that remain after fixing (what the report shows). */
  results: LintResult[];
  /** Files whose text the fixes changed. */
  fixed: FixedFile[];
}

/**
 * Lints, applies safe fixes, and lints again until nothing more applies (at
 * most `maxPasses` times): one fix can uncover or unblock another. `lint` is
 * the caller's engine call, so fixes see exactly the checks the report does.
 */
export async function fixInputs(
  inputs: readonly LintInput[],
  lint: (inputs: LintInput[]) => Promise<LintResult[]>,
  maxPasses = MAX_FIX_PASSES,
): Promise<FixOutcome> {
  interface State {
    input: LintInput;
    source?: SourceText;
    text?: string;
    result?: LintResult;
    applied: FixedFile['applied'];
    passes: number;
  }
  const states: State[] = inputs.map((input) => {
    const state: State = { input, applied: [], passes: 0 };
    const decoded = input.text !== undefined ? fromText(input.text) : decodeSource(input.bytes ?? new Uint8Array());
    if (!('kind' in decoded)) {
      state.source = decoded;
      state.text = decoded.text;
    }
    return state;
  });
  let pending = states;
  for (let pass = 0; pending.length > 0; pass++) {
    const results = await lint(pending.map((s) => (s.text !== undefined ? { ...s.input, bytes: undefined, text: s.text } : s.input)));
    const next: State[] = [];
    pending.forEach((state, i) => {
      state.result = results[i]!;
      if (state.text === undefined || !state.source || pass >= maxPasses) return;
      const { text, applied } = applySafeFixes(state.text, state.result.diagnostics, state.source.eol);
      if (applied.length === 0) return;
      state.text = text;
      pushAll(state.applied, applied);
      state.passes = pass + 1;
      next.push(state);
    });
    pending = next;
  }
  const fixed: FixedFile[] = [];
  for (const state of states) {
    if (!state.source || state.text === undefined || state.text === state.source.text) continue;
    fixed.push({
      filePath: state.input.filePath,
      before: state.input.bytes ?? encodeSource(state.source.text, state.source.hasBom),
      after: encodeSource(state.text, state.source.hasBom),
      beforeText: state.source.text,
      afterText: state.text,
      applied: state.applied,
      passes: state.passes,
    });
  }
  return { results: states.map((s) => s.result!), fixed };
}

export function encodeSource(text: string, hasBom: boolean): Uint8Array {
  return Buffer.from(hasBom ? `\uFEFF${text}` : text, 'utf8');
}

/**
 * Writes through a temporary file in the same directory and a rename, so a
 * reader (or a crash) sees the old file or the new one, never half of one.
 * The file keeps its permission bits; a symbolic link is written through, as
 * `writeFile` would.
 */
export async function writeFileAtomic(filePath: string, data: Uint8Array): Promise<void> {
  // A profile shared through a symbolic link is fixed where it lives, and stays shared.
  const target = writeTarget(filePath);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const mode = (await stat(target).catch(() => undefined))?.mode;
  try {
    await writeFile(temp, data, { flag: 'wx' });
    if (mode !== undefined) await chmod(temp, mode & 0o7777);
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * A unified diff (3 lines of context) of two texts, `git apply`-able. Lines
 * keep a `\r` of CRLF endings, so the patch applies to the file as it is.
 */
export function unifiedDiff(before: string, after: string, oldName: string, newName: string, context = 3): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a.lines, b.lines);
  let out = `--- ${oldName}\n+++ ${newName}\n`;
  // Group the operations into hunks separated by more than 2 * context unchanged lines.
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === ' ') i++;
    if (i >= ops.length) break;
    let start = i;
    let ctxBefore = 0;
    while (start > 0 && ops[start - 1]!.kind === ' ' && ctxBefore < context) {
      start--;
      ctxBefore++;
    }
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let run = 0;
      while (end + run < ops.length && ops[end + run]!.kind === ' ') run++;
      if (end + run < ops.length && run <= 2 * context) {
        end += run;
        continue;
      }
      end += Math.min(run, context);
      break;
    }
    const hunk = ops.slice(start, end);
    const oldStart = hunk[0]!.aIndex;
    const newStart = hunk[0]!.bIndex;
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    out += `@@ -${oldCount === 0 ? oldStart : oldStart + 1},${oldCount} +${newCount === 0 ? newStart : newStart + 1},${newCount} @@\n`;
    for (const op of hunk) {
      const line = op.kind === '+' ? b.lines[op.bIndex]! : a.lines[op.aIndex]!;
      const last =
        op.kind === '+' ? op.bIndex === b.lines.length - 1 && !b.finalNewline : op.aIndex === a.lines.length - 1 && !a.finalNewline;
      out += `${op.kind}${line}\n${last ? '\\ No newline at end of file\n' : ''}`;
    }
    i = end;
  }
  return out;
}

function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  const finalNewline = text.endsWith('\n');
  const lines = text.split('\n');
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

interface DiffOp {
  kind: ' ' | '-' | '+';
  aIndex: number;
  bIndex: number;
}

/** Line diff: common prefix and suffix trimmed, an LCS table for the middle (profiles are small). */
function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const ops: DiffOp[] = [];
  for (let k = 0; k < prefix; k++) ops.push({ kind: ' ', aIndex: k, bIndex: k });
  const n = a.length - prefix - suffix;
  const m = b.length - prefix - suffix;
  if (n * m > 4_000_000) {
    for (let k = 0; k < n; k++) ops.push({ kind: '-', aIndex: prefix + k, bIndex: prefix });
    for (let k = 0; k < m; k++) ops.push({ kind: '+', aIndex: prefix + n, bIndex: prefix + k });
  } else {
    // lcs[x][y]: length of the LCS of a[x..] and b[y..] within the middle.
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let x = n - 1; x >= 0; x--) {
      for (let y = m - 1; y >= 0; y--) {
        lcs[x]![y] = a[prefix + x] === b[prefix + y] ? lcs[x + 1]![y + 1]! + 1 : Math.max(lcs[x + 1]![y]!, lcs[x]![y + 1]!);
      }
    }
    let x = 0;
    let y = 0;
    while (x < n || y < m) {
      if (x < n && y < m && a[prefix + x] === b[prefix + y]) {
        ops.push({ kind: ' ', aIndex: prefix + x, bIndex: prefix + y });
        x++;
        y++;
      } else if (x < n && (y >= m || lcs[x + 1]![y]! >= lcs[x]![y + 1]!)) {
        ops.push({ kind: '-', aIndex: prefix + x, bIndex: prefix + y });
        x++;
      } else {
        ops.push({ kind: '+', aIndex: prefix + x, bIndex: prefix + y });
        y++;
      }
    }
  }
  for (let k = 0; k < suffix; k++) ops.push({ kind: ' ', aIndex: a.length - suffix + k, bIndex: b.length - suffix + k });
  return ops;
}

/**
 * `--fix` and `--fix-dry-run` across the CLI's lint calls (one per
 * configuration): collects what changed, then writes it or prints the diff.
 */
export class FixSession {
  readonly fixed: FixedFile[] = [];

  constructor(private readonly maxPasses = MAX_FIX_PASSES) {}

  async lint(inputs: readonly LintInput[], lint: (inputs: LintInput[]) => Promise<LintResult[]>): Promise<LintResult[]> {
    const outcome = await fixInputs(inputs, lint, this.maxPasses);
    pushAll(this.fixed, outcome.fixed);
    return outcome.results;
  }

  /** Writes the fixed files (or, on a dry run, prints their diff); says what it did on `log`. */
  async finish(options: { dryRun: boolean; cwd: string; stdout: (text: string) => void; log: (text: string) => void }): Promise<void> {
    const problems = this.fixed.reduce((n, f) => n + f.applied.length, 0);
    const files = `${this.fixed.length} file${this.fixed.length === 1 ? '' : 's'}`;
    if (options.dryRun) {
      for (const file of this.fixed) {
        const name = (relative(options.cwd, file.filePath) || file.filePath).split(sep).join('/');
        options.stdout(unifiedDiff(file.beforeText, file.afterText, `a/${name}`, `b/${name}`));
      }
      if (problems > 0)
        options.log(
          `validate-agent-hooks: would fix ${problems} problem${problems === 1 ? '' : 's'} in ${files} (dry run: nothing written).\n`,
        );
      return;
    }
    for (const file of this.fixed) await writeFileAtomic(file.filePath, file.after);
    if (problems > 0) options.log(`validate-agent-hooks: fixed ${problems} problem${problems === 1 ? '' : 's'} in ${files}.\n`);
  }
}
