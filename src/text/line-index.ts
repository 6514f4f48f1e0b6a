import type { Position, Range } from '../diagnostics.js';

/**
 * Offsets ⇄ 1-based (line, column) for one text. A line ends at `\n`; a `\r`
 * right before it belongs to the line ending, so CRLF files get the same
 * columns as LF files.
 */
export class LineIndex {
  readonly lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    // The `\n` of a `\r\n` is inside the line break: it is the line's end, as its `\r` is.
    const inBreak = this.text[clamped] === '\n' && clamped > this.lineStarts[low]! && this.text[clamped - 1] === '\r' ? 1 : 0;
    return { line: low + 1, column: clamped - this.lineStarts[low]! + 1 - inBreak };
  }

  offsetAt(position: Position): number {
    const lineIndex = Math.max(0, Math.min(position.line - 1, this.lineStarts.length - 1));
    const start = this.lineStarts[lineIndex]!;
    return Math.min(start + Math.max(0, position.column - 1), this.lineEnd(lineIndex + 1));
  }

  /** Offset just past the line's content (before its `\r\n` or `\n`). */
  lineEnd(line: number): number {
    const next = this.lineStarts[line];
    // The last line: a `\r` that ends the file is a line break's start, as it is before a `\n`.
    if (next === undefined)
      return this.text.length > this.lineStarts[line - 1]! && this.text.endsWith('\r') ? this.text.length - 1 : this.text.length;
    let end = next - 1;
    if (end > 0 && this.text[end - 1] === '\r') end--;
    return Math.max(end, this.lineStarts[line - 1]!);
  }

  lineText(line: number): string {
    const start = this.lineStarts[line - 1];
    if (start === undefined) return '';
    return this.text.slice(start, this.lineEnd(line));
  }

  rangeOf(start: number, end: number): Range {
    const from = this.positionAt(start);
    const to = this.positionAt(Math.max(start, end));
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
  }
}
