import type { SourceSegment } from './types.js';

/**
 * Decodes the raw text of a JSON string literal (between its quotes) and
 * records where every piece of the decoded text stands in the file: runs of
 * plain characters map one to one; each escape (`\"`, `\n`, `\u00e9`, a
 * surrogate pair `\uD83D\uDE00`) is an atomic segment whose decoded units
 * stand for the whole escape. So every script position maps to an exact file
 * line and column, including positions right after an escape.
 */
export function decodeJsonString(raw: string, fileOffset: number): { text: string; segments: SourceSegment[] } {
  const segments: SourceSegment[] = [];
  let text = '';
  let runStart = 0;
  const flushRun = (end: number): void => {
    if (end > runStart) {
      segments.push({ scriptOffset: text.length, fileOffset: fileOffset + runStart, length: end - runStart });
      text += raw.slice(runStart, end);
    }
  };
  let i = 0;
  while (i < raw.length) {
    if (raw[i] !== '\\') {
      i++;
      continue;
    }
    flushRun(i);
    const { decoded, width } = decodeEscape(raw, i);
    segments.push({ scriptOffset: text.length, fileOffset: fileOffset + i, length: decoded.length, fileLength: width });
    text += decoded;
    i += width;
    runStart = i;
  }
  flushRun(raw.length);
  return { text, segments };
}

const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function decodeEscape(raw: string, at: number): { decoded: string; width: number } {
  const c = raw[at + 1];
  if (c === undefined) return { decoded: '\\', width: 1 };
  if (c !== 'u') return { decoded: SIMPLE[c] ?? c, width: 2 };
  const hex = raw.slice(at + 2, at + 6);
  if (!/^[0-9a-fA-F]{4}$/.test(hex)) return { decoded: 'u', width: 2 };
  const unit = Number.parseInt(hex, 16);
  // A high surrogate followed by an escaped low surrogate is one character: map the pair as one.
  if (unit >= 0xd800 && unit <= 0xdbff && raw.slice(at + 6, at + 8) === '\\u') {
    const low = raw.slice(at + 8, at + 12);
    if (/^[0-9a-fA-F]{4}$/.test(low)) {
      const lowUnit = Number.parseInt(low, 16);
      if (lowUnit >= 0xdc00 && lowUnit <= 0xdfff) return { decoded: String.fromCharCode(unit, lowUnit), width: 12 };
    }
  }
  return { decoded: String.fromCharCode(unit), width: 6 };
}
