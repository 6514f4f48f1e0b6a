import type { Profile } from '../profile/profile.js';
import type { HookScript, SourceSegment } from './types.js';

/** Info strings of fenced code blocks that hold shell a reader may copy into a hook. */
const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell', 'zsh']);

const OPENING_FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/;

/**
 * The fenced ```bash / ```sh code blocks of a profile's Markdown body, as
 * HookScript values (`keyPath: ['body']`, `name: 'body:<line>'`) so the same
 * shell rules can read them. Each content line is a verbatim segment, so
 * positions map to the file exactly, CRLF included.
 */
export function bodyCodeBlocks(profile: Profile): HookScript[] {
  const lines = profile.lines;
  const text = profile.source.text;
  const blocks: HookScript[] = [];
  const firstLine = lines.positionAt(profile.bodyStart).line;
  let open: { indent: number; fence: string; line: number; shell: boolean; contentLines: number[] } | undefined;
  for (let line = firstLine; line <= lines.lineCount; line++) {
    const content = lines.lineText(line);
    if (!open) {
      const match = OPENING_FENCE.exec(content);
      if (!match) continue;
      const fence = match[2]!;
      // A backtick fence's info string may not contain backticks (CommonMark).
      if (fence.startsWith('`') && content.slice(match[1]!.length + fence.length).includes('`')) continue;
      open = { indent: match[1]!.length, fence, line, shell: SHELL_LANGUAGES.has(match[3]!.toLowerCase()), contentLines: [] };
      continue;
    }
    if (isClosingFence(content, open.fence)) {
      if (open.shell) blocks.push(toScript(profile, text, open.line, open.indent, open.contentLines));
      open = undefined;
      continue;
    }
    open.contentLines.push(line);
  }
  // An unclosed fence runs to the end of the document (CommonMark).
  if (open?.shell) blocks.push(toScript(profile, text, open.line, open.indent, open.contentLines));
  return blocks;
}

/** Up to three spaces, at least as many of the opening fence's character, then only blanks. */
function isClosingFence(line: string, fence: string): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return match !== null && match[1]![0] === fence[0] && match[1]!.length >= fence.length;
}

function toScript(profile: Profile, text: string, fenceLine: number, indent: number, contentLines: number[]): HookScript {
  const lines = profile.lines;
  const segments: SourceSegment[] = [];
  let script = '';
  for (const line of contentLines) {
    const start = lines.lineStarts[line - 1]!;
    const end = lines.lineEnd(line);
    let skip = 0;
    while (skip < indent && start + skip < end && text[start + skip] === ' ') skip++;
    const lineText = text.slice(start + skip, end);
    segments.push({ scriptOffset: script.length, fileOffset: start + skip, length: lineText.length });
    script += `${lineText}\n`;
  }
  const fenceStart = lines.lineStarts[fenceLine - 1]!;
  const keyRange = lines.rangeOf(fenceStart, lines.lineEnd(fenceLine));
  const lastLine = contentLines[contentLines.length - 1] ?? fenceLine;
  return {
    runtime: 'claude-flow',
    file: profile.path,
    name: `body:${fenceLine}`,
    keyPath: ['body'],
    text: script,
    style: 'literal',
    keyRange,
    valueRange: lines.rangeOf(fenceStart, lines.lineEnd(lastLine)),
    segments,
  };
}
