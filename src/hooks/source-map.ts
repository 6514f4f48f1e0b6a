import type { Range } from '../diagnostics.js';
import { LineIndex } from '../text/line-index.js';
import type { HookScript } from './types.js';

/**
 * Puts positions inside a hook script back into its file. A position in a
 * verbatim segment maps exactly; anything else (text produced by folding or
 * escapes) maps to the whole value, so a finding is never placed on the wrong
 * line — at worst it is placed on the whole block.
 */
export class ScriptSourceMap {
  readonly scriptLines: LineIndex;

  constructor(readonly hook: HookScript, private readonly fileLines: LineIndex) {
    this.scriptLines = new LineIndex(hook.text);
  }

  /** File offset of a script offset, or undefined where the script text is not verbatim in the file. */
  fileOffset(scriptOffset: number): number | undefined {
    const segments = this.hook.segments;
    let low = 0;
    let high = segments.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const segment = segments[mid]!;
      if (scriptOffset < segment.scriptOffset) high = mid - 1;
      else if (scriptOffset > segment.scriptOffset + segment.length) low = mid + 1;
      else return segment.fileOffset + (scriptOffset - segment.scriptOffset);
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
    // A range that spans a folded line break ends where its first verbatim stretch does.
    if (fileEnd === undefined || fileEnd < fileStart || end - start !== fileEnd - fileStart && !this.sameLines(start, end, fileStart, fileEnd)) {
      fileEnd = this.endOfSegment(start) ?? fileStart;
      return { range: this.fileLines.rangeOf(fileStart, fileEnd), exact: false };
    }
    return { range: this.fileLines.rangeOf(fileStart, fileEnd), exact: true };
  }

  /** A multi-line range in a block scalar skips the indentation, so its lengths differ yet it maps exactly. */
  private sameLines(start: number, end: number, fileStart: number, fileEnd: number): boolean {
    const scriptStart = this.scriptLines.positionAt(start);
    const scriptEnd = this.scriptLines.positionAt(end);
    const fileStartPos = this.fileLines.positionAt(fileStart);
    const fileEndPos = this.fileLines.positionAt(fileEnd);
    return scriptEnd.line - scriptStart.line === fileEndPos.line - fileStartPos.line;
  }

  private endOfSegment(scriptOffset: number): number | undefined {
    const segment = this.hook.segments.find((s) => scriptOffset >= s.scriptOffset && scriptOffset <= s.scriptOffset + s.length);
    return segment ? segment.fileOffset + segment.length : undefined;
  }
}
