import type { Piece } from './script-text.js';

const ANSI_C_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const ESCAPE = /\\(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|c(.)|(.))/gs;

/** What one escape of `$'…'` stands for; an escape bash does not know stays as written. */
function decoded(match: RegExpMatchArray): string {
  const [whole, octal, hex, u, longU, control, other] = match;
  if (control !== undefined) return String.fromCharCode(control.charCodeAt(0) & 0x1f);
  if (other !== undefined) return ANSI_C_ESCAPES[other] ?? (`\\'"?`.includes(other) ? other : whole);
  const code = octal !== undefined ? parseInt(octal, 8) & 0xff : parseInt((hex ?? u ?? longU)!, 16);
  return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
}

/** The text of `$'…'` as bash decodes it: `$'\x72m'` and `$'\162\155'` are `rm`. */
export function ansiCValue(inner: string): string {
  return inner.replace(ESCAPE, (...match) => decoded(match));
}

/** The decoded text of `$'…'` between `start` and `end` of `text`, each character at its place (an escape's at the whole escape). */
export function ansiCPiece(text: string, start: number, end: number): Piece {
  const piece: Piece = { text: '', at: [], after: [] };
  const chars: string[] = [];
  const add = (value: string, from: number, to: number): void => {
    chars.push(value);
    for (let i = 0; i < value.length; i++) {
      piece.at.push(from);
      piece.after.push(to);
    }
  };
  let i = start;
  for (const match of text.slice(start, end).matchAll(ESCAPE)) {
    const at = start + match.index;
    for (; i < at; i++) add(text[i]!, i, i + 1);
    i = at + match[0].length;
    add(decoded(match), at, i);
  }
  for (; i < end; i++) add(text[i]!, i, i + 1);
  piece.text = chars.join('');
  return piece;
}
