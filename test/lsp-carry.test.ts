import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/diagnostics.js';
import { carryDiagnostics, changeBetween } from '../src/lsp/carry.js';

const at = (line: number, column: number, endLine: number, endColumn: number, fix?: string): Diagnostic => ({
  ruleId: 'shellcheck/SC2086',
  severity: 'warning',
  message: 'm',
  line,
  column,
  endLine,
  endColumn,
  ...(fix !== undefined
    ? { fixes: [{ title: 't', safe: true, edits: [{ range: { line, column, endLine, endColumn }, text: fix }] }] }
    : {}),
});
const range = (d: Diagnostic) => [d.line, d.column, d.endLine, d.endColumn];

describe('carrying findings across edits', () => {
  it('finds the one changed span', () => {
    expect(changeBetween('abcdef', 'abXYef')).toEqual({ start: 2, oldEnd: 4, newEnd: 4 });
    expect(changeBetween('aaa', 'aaaa')).toEqual({ start: 3, oldEnd: 3, newEnd: 4 });
    expect(changeBetween('same', 'same')).toBeUndefined();
  });

  it('keeps findings before the edit, shifts those after it by lines and columns', () => {
    const before = 'a\necho $x\nrm $y\n';
    const after = 'a\nnew line\necho $x\nrm $y\n';
    const moved = carryDiagnostics([at(2, 6, 2, 8), at(3, 4, 3, 6), at(1, 1, 1, 2)], before, after);
    expect(moved.map(range)).toEqual([
      [3, 6, 3, 8],
      [4, 4, 4, 6],
      [1, 1, 1, 2],
    ]);
    // Typing on the same line before a finding shifts its columns.
    expect(carryDiagnostics([at(2, 6, 2, 8)], before, 'a\necho  $x\nrm $y\n').map(range)).toEqual([[2, 7, 2, 9]]);
  });

  it('stretches a finding typed inside, and snaps one whose text was replaced to the new text', () => {
    expect(carryDiagnostics([at(1, 6, 1, 8)], 'echo $x done', 'echo $abx done').map(range)).toEqual([[1, 6, 1, 10]]);
    // Typed right after it: the finding keeps its own text.
    expect(carryDiagnostics([at(1, 6, 1, 8)], 'echo $x done', 'echo $xyz done').map(range)).toEqual([[1, 6, 1, 8]]);
    expect(carryDiagnostics([at(1, 6, 1, 8)], 'echo $x done', 'echo "$v" done').map(range)).toEqual([[1, 6, 1, 10]]);
    // Deleted lines under a finding: it collapses onto the deletion point, still inside the text.
    const moved = carryDiagnostics([at(2, 1, 3, 3)], 'a\nbb\ncc\nd', 'a\nd');
    expect(moved.map(range)).toEqual([[2, 1, 2, 1]]);
  });

  it('moves a fix with its finding, and drops a fix whose text the edit touched', () => {
    const [kept] = carryDiagnostics([at(2, 6, 2, 8, '"$x"')], 'a\necho $x\n', 'new\na\necho $x\n');
    expect(kept!.fixes![0]!.edits[0]!.range).toEqual({ line: 3, column: 6, endLine: 3, endColumn: 8 });
    const [touched] = carryDiagnostics([at(1, 6, 1, 8, '"$x"')], 'echo $x', 'echo $xy z');
    expect(touched!.fixes).toBeUndefined();
    expect(range(touched!)).toEqual([1, 6, 1, 8]);
  });

  it("follows the editor's own edits in order, where one span would lose track", () => {
    // A line inserted at the top, then a word retyped below: the finding on line 3 moves down one line, untouched.
    const before = 'a\nb\necho $x\nc';
    const after = 'new\na\nb\necho $x\nd';
    const changes = [
      { start: 0, oldEnd: 0, newEnd: 4 },
      { start: 4 + 13, oldEnd: 4 + 14, newEnd: 4 + 14 },
    ];
    const [moved] = carryDiagnostics([at(3, 6, 3, 8, '"$x"')], before, after, changes);
    expect(range(moved!)).toEqual([4, 6, 4, 8]);
    expect(moved!.fixes).toHaveLength(1);
    // One span from the first change to the last would have swallowed it.
    expect(range(carryDiagnostics([at(3, 6, 3, 8)], before, after)[0]!)).not.toEqual([4, 6, 4, 8]);
  });
});
