import type { Range } from '../diagnostics.js';
import { LineIndex } from '../text/line-index.js';
import type { HookScript, SourceSegment } from './types.js';

/**
 * Puts positions inside a hook script back into its file. A position in a
 * verbatim segment maps exactly; anything else (text produced by folding or
 * escapes) maps to the whole value, so a finding is never placed on the wrong
 * line — at worst it is placed on the whole block.
 */
export class ScriptSourceMap {
  readonly scriptLines: LineIndex;

  constructor(
    readonly hook: HookScript,
    private readonly fileLines: LineIndex,
  ) {
    this.scriptLines = new LineIndex(hook.text);
  }

  /** File offset of a script offset, or undefined where the script text is not verbatim in the file. */
  fileOffset(scriptOffset: number): number | undefined {
    const index = this.segmentIndex(scriptOffset);
    if (index === undefined) return undefined;
    const segment = this.hook.segments[index]!;
    if (segment.fileLength === undefined) return segment.fileOffset + (scriptOffset - segment.scriptOffset);
    // An escape maps as a whole: its start to the backslash, its end past the escape.
    return scriptOffset >= segment.scriptOffset + segment.length ? segment.fileOffset + segment.fileLength : segment.fileOffset;
  }

  /** Index of the segment holding a script offset (its end included), by binary search. */
  private segmentIndex(scriptOffset: number): number | undefined {
    const segments = this.hook.segments;
    let low = 0;
    let high = segments.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const segment = segments[mid]!;
      if (scriptOffset < segment.scriptOffset) high = mid - 1;
      else if (scriptOffset > segment.scriptOffset + segment.length) low = mid + 1;
      else return mid;
    }
    return undefined;
  }

  /** Maps a 1-based, end-exclusive script range to the file. `exact` is false when it fell back. */
  mapRange(range: Range): { range: Range; exact: boolean } {
    const start = this.scriptLines.offsetAt({ line: range.line, column: range.column });
    const end = this.scriptLines.offsetAt({ line: range.endLine, column: range.endColumn });
    const fileStart = this.fileOffset(start);
    let fileEnd = this.fileOffset(end);
    if (fileStart === undefined) return { range: this.hook.valueRange, exact: false };
    // A range that is not verbatim throughout (it spans a folded line break or an escape) ends where its first verbatim stretch does.
    if (fileEnd === undefined || fileEnd < fileStart || !this.verbatimBetween(start, end)) {
      fileEnd = this.endOfSegment(start) ?? fileStart;
      return { range: this.fileLines.rangeOf(fileStart, fileEnd), exact: false };
    }
    return { range: this.fileLines.rangeOf(fileStart, fileEnd), exact: true };
  }

  /**
   * Whether script offsets [start, end) stand verbatim in the file: inside one
   * segment, or across segments joined only by line breaks that are line
   * breaks in the file too (a block scalar's lines, whose indentation the
   * script drops). An escape or a folded line break between them is not.
   */
  private verbatimBetween(start: number, end: number): boolean {
    const segments = this.hook.segments;
    let index = this.segmentIndex(start);
    if (index === undefined) return false;
    for (let segment = segments[index]!; end > segment.scriptOffset + segment.length; segment = segments[index]!) {
      const next = segments[++index];
      if (!next) return false;
      // Escapes and the runs around them follow each other without a gap in both texts.
      if (next.scriptOffset === segment.scriptOffset + segment.length && next.fileOffset === fileEnd(segment)) continue;
      const scriptGap = this.hook.text.slice(segment.scriptOffset + segment.length, next.scriptOffset);
      const fileGap = this.fileLines.text.slice(segment.fileOffset + segment.length, next.fileOffset);
      if (!/^\n+$/.test(scriptGap) || !/^\s*$/.test(fileGap) || fileGap.split('\n').length !== scriptGap.length + 1) return false;
    }
    return true;
  }

  private endOfSegment(scriptOffset: number): number | undefined {
    const index = this.segmentIndex(scriptOffset);
    const segment = index === undefined ? undefined : this.hook.segments[index];
    return segment ? fileEnd(segment) : undefined;
  }
}

function fileEnd(segment: SourceSegment): number {
  return segment.fileOffset + (segment.fileLength ?? segment.length);
}
