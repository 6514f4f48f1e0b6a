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
  const between = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  let open: { indent: number; fence: string; line: number; shell: boolean } | undefined;
  // Only a line that starts like a fence can open or close a block: they are found with one search
  // of the text, and the lines between an opening and its closing fence are the block's content.
  for (const line of fenceLikeLines(profile, firstLine)) {
    const content = lines.lineText(line);
    if (!open) {
      const match = OPENING_FENCE.exec(content);
      if (!match) continue;
      const fence = match[2]!;
      // A backtick fence's info string may not contain backticks (CommonMark).
      if (fence.startsWith('`') && content.slice(match[1]!.length + fence.length).includes('`')) continue;
      open = { indent: match[1]!.length, fence, line, shell: SHELL_LANGUAGES.has(match[3]!.toLowerCase()) };
      continue;
    }
    if (isClosingFence(content, open.fence)) {
      if (open.shell) blocks.push(toScript(profile, text, open.line, open.indent, between(open.line + 1, line - 1)));
      open = undefined;
    }
  }
  // An unclosed fence runs to the end of the document (CommonMark).
  if (open?.shell) blocks.push(toScript(profile, text, open.line, open.indent, between(open.line + 1, lines.lineCount)));
  return blocks;
}

/** FENCE_START matches at every line start (a line ends at `\n`) where a fence may be; each line once, in order. */
const FENCE_START = /^ {0,3}(?:`{3}|~{3})/gm;

function fenceLikeLines(profile: Profile, firstLine: number): number[] {
  const text = profile.source.text;
  const found: number[] = [];
  FENCE_START.lastIndex = profile.lines.lineStarts[firstLine - 1] ?? text.length;
  for (let match = FENCE_START.exec(text); match; match = FENCE_START.exec(text)) {
    const line = profile.lines.positionAt(match.index).line;
    if (found[found.length - 1] !== line) found.push(line);
  }
  return found;
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
