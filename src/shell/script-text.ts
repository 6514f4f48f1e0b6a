import { ansiCPiece } from './ansi-c.js';
import type { ShellWord } from './commands.js';
import type { SyntaxNode } from './parser.js';

/** A text and where each of its characters is written: from `at[i]` (its escaping backslash, if any) to before `after[i]`. */
export interface Piece {
  text: string;
  at: number[];
  after: number[];
}

export function wordText(word: ShellWord, text: string): Piece | undefined {
  return textOf(word.node, word.start, word.end, text);
}

/**
 * A word's text as the inner shell gets it, quotes removed, each character
 * with its script offset; an expansion inside it kept as written. Undefined
 * for a word that is only an expansion, built at run time.
 */
export function textOf(node: SyntaxNode, start: number, end: number, text: string, inWord = false): Piece | undefined {
  switch (node.type) {
    case 'heredoc_body':
      return slice(text, start, end);
    case 'raw_string':
      return slice(text, start + 1, end - 1);
    case 'ansi_c_string':
      return ansiCPiece(text, start + 2, end - 1);
    case 'string':
      // `"$CMD"`: nothing but what is built at run time.
      if (!inWord && !node.namedChildren.some((child) => child?.type === 'string_content')) return undefined;
      return unescaped(text, start + 1, end - 1, '$`"\\\n');
    case 'word':
      return unescaped(text, start, end, undefined);
    case 'concatenation': {
      const pieces: Piece[] = [];
      for (const child of node.children) {
        if (!child) continue;
        const piece = child.isNamed
          ? textOf(child, child.startIndex, child.endIndex, text, true)
          : slice(text, child.startIndex, child.endIndex);
        if (!piece) return undefined;
        pieces.push(piece);
      }
      return { text: pieces.map((p) => p.text).join(''), at: pieces.flatMap((p) => p.at), after: pieces.flatMap((p) => p.after) };
    }
    default:
      return inWord ? slice(text, start, end) : undefined;
  }
}

export function slice(text: string, start: number, end: number): Piece {
  return {
    text: text.slice(start, end),
    at: Array.from({ length: end - start }, (_, i) => start + i),
    after: Array.from({ length: end - start }, (_, i) => start + i + 1),
  };
}

/** Quote removal of backslashes: before any character (`escapes` undefined) or only before those in `escapes`; a backslash-newline goes. */
function unescaped(text: string, start: number, end: number, escapes: string | undefined): Piece {
  const chars: string[] = [];
  const at: number[] = [];
  const after: number[] = [];
  for (let i = start; i < end; i++) {
    const from = i;
    const next = text[i + 1];
    if (text[i] === '\\' && i + 1 < end && next !== undefined && (escapes === undefined || escapes.includes(next))) {
      i++;
      if (next === '\n') continue;
    }
    chars.push(text[i]!);
    at.push(from);
    after.push(i + 1);
  }
  return { text: chars.join(''), at, after };
}

/** `eval a b` runs `a b`: the words joined by spaces (or by `separator`), which stand where the word before them ends. */
export function joinPieces(pieces: readonly Piece[], separator = ' '): Piece {
  const text: string[] = [];
  const at: number[] = [];
  const after: number[] = [];
  pieces.forEach((piece, i) => {
    if (i > 0 && separator !== '') {
      text.push(separator);
      at.push(after[after.length - 1]!);
      after.push(after[after.length - 1]!);
    }
    text.push(piece.text);
    at.push(...piece.at);
    after.push(...piece.after);
  });
  return { text: text.join(''), at, after };
}

/** A command's text for a message: its first line, cut to 60 characters. */
export function messageText(text: string): string {
  const first = text.split('\n')[0]!;
  return first.length > 60 ? `${first.slice(0, 59)}…` : first;
}
