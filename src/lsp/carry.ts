import type { Diagnostic, Range } from '../diagnostics.js';

/**
 * Findings carried across edits. ShellCheck's findings are minutes of user
 * attention old by the time it answers again; dropping them at each keystroke
 * made them blink. They are kept, moved the way an editor moves its markers:
 * the text between two versions differs in one span (the common prefix and
 * suffix are unchanged; several edits between two runs become one span that
 * covers them all). Positions before it stay, positions after it shift,
 * positions inside it snap to its edges. A fix whose edit touches the span is
 * dropped: the text it was written for is gone.
 */
export interface Change {
  /** Offsets into the old text: [start, oldEnd) became [start, newEnd) of the new one. */
  start: number;
  oldEnd: number;
  newEnd: number;
}

export function changeBetween(before: string, after: string): Change | undefined {
  if (before === after) return undefined;
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (suffix < max - start && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  return { start, oldEnd: before.length - suffix, newEnd: after.length - suffix };
}

/** 1-based lines and UTF-16 columns ⇄ offsets, for one text. */
class Lines {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  offset(line: number, column: number): number {
    const start = this.starts[Math.min(Math.max(line, 1), this.starts.length) - 1]!;
    return Math.min(start + Math.max(column, 1) - 1, this.text.length);
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

/**
 * The findings of `before`, moved onto `after`: through `changes` when the
 * editor said what it changed (offsets into the text as it was before each
 * change, in order), else through the one span the two texts differ in.
 */
export function carryDiagnostics(
  diagnostics: readonly Diagnostic[],
  before: string,
  after: string,
  changes?: readonly Change[],
): Diagnostic[] {
  const steps = changes ?? [changeBetween(before, after)].filter((c): c is Change => c !== undefined);
  if (steps.length === 0 && before === after) return [...diagnostics];
  const old = new Lines(before);
  const now = new Lines(after);
  const clampOld = (offset: number): number => Math.min(offset, before.length);
  const toOffsets = (range: Range): [number, number] => [
    clampOld(old.offset(range.line, range.column)),
    clampOld(old.offset(range.endLine, range.endColumn)),
  ];
  const toRange = ([start, end]: [number, number]): Range => {
    const s = now.position(Math.min(start, after.length));
    const e = now.position(Math.min(Math.max(start, end), after.length));
    return { line: s.line, column: s.column, endLine: e.line, endColumn: e.column };
  };
  const moveThrough = ([start, end]: [number, number]): [number, number] => {
    for (const change of steps) {
      start = move(start, 'start', change);
      end = Math.max(start, move(end, 'end', change));
    }
    return [start, end];
  };
  /** Whether no change touches the text of this edit, followed through the changes. */
  const untouched = ([start, end]: [number, number]): boolean => {
    for (const change of steps) {
      // Touching counts: text typed right against an edit's text may have changed what it means (`$x` to `$xy`).
      if (end >= change.start && start <= change.oldEnd) return false;
      start = move(start, 'start', change);
      end = Math.max(start, move(end, 'end', change));
    }
    return true;
  };
  return diagnostics.map((d) => {
    const moved: Diagnostic = { ...d, ...toRange(moveThrough(toOffsets(d))) };
    if (d.fixes) {
      const fixes = d.fixes
        .filter((fix) => fix.edits.every((edit) => untouched(toOffsets(edit.range))))
        .map((fix) => ({ ...fix, edits: fix.edits.map((edit) => ({ ...edit, range: toRange(moveThrough(toOffsets(edit.range))) })) }));
      if (fixes.length) moved.fixes = fixes;
      else delete moved.fixes;
    }
    return moved;
  });
}

function move(offset: number, edge: 'start' | 'end', change: Change): number {
  const shift = change.newEnd - change.oldEnd;
  if (offset < change.start) return offset;
  if (offset > change.oldEnd) return offset + shift;
  // At a pure insertion point a range keeps clear of the inserted text: its start moves past it, its end stays before it.
  if (change.start === change.oldEnd) return edge === 'start' ? offset + shift : offset;
  if (offset === change.start) return change.start;
  if (offset === change.oldEnd) return change.newEnd;
  return edge === 'start' ? change.start : change.newEnd;
}
