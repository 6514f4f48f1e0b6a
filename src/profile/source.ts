/**
 * Turns a file's bytes into text the rest of the tool can trust, or says
 * precisely why it cannot: binary content, invalid UTF-8, a file too large.
 */

export const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface SourceText {
  /** Decoded text without its byte order mark. */
  text: string;
  hasBom: boolean;
  /** The dominant line ending, kept so fixes write the file back the same way. */
  eol: '\n' | '\r\n';
}

export type SourceProblem =
  | { kind: 'binary'; offset: number }
  | { kind: 'encoding'; offset: number }
  /** `atLeast`: the file is a pipe or device read only to one byte past the limit. */
  | { kind: 'too-large'; bytes: number; atLeast?: boolean };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `size`: the file's size on disk, when only its first bytes were read (see
 * readBounded in src/cli/discover.ts); undefined for a pipe or device.
 */
export function decodeSource(bytes: Uint8Array, maxBytes = MAX_FILE_BYTES, size?: number): SourceText | SourceProblem {
  if (size !== undefined && size > maxBytes) return { kind: 'too-large', bytes: size };
  if (bytes.length > maxBytes)
    return { kind: 'too-large', bytes: bytes.length, atLeast: size === undefined && bytes.length === maxBytes + 1 };
  // Git's own heuristic: a NUL byte in the first 8000 bytes means binary.
  const nul = bytes.subarray(0, 8000).indexOf(0);
  if (nul !== -1) return { kind: 'binary', offset: nul };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: 'encoding', offset: firstInvalidUtf8(bytes) };
  }
  return fromText(text);
}

/** For text that arrives decoded already (stdin, an editor buffer). */
export function fromText(raw: string): SourceText {
  const hasBom = raw.charCodeAt(0) === 0xfeff;
  const text = hasBom ? raw.slice(1) : raw;
  // Counted in place: splitting made a string of every line of every file only to count them.
  let newlines = 0;
  let crlf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    newlines++;
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
  }
  return { text, hasBom, eol: crlf > newlines - crlf ? '\r\n' : '\n' };
}

/** Byte offset of the first invalid UTF-8 sequence, for a positioned diagnostic. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    // Overlongs and surrogates: the strict decoder rejected something; these are the rest.
    if (need === 2) {
      const c = bytes[i + 1]!;
      if ((b === 0xe0 && c < 0xa0) || (b === 0xed && c >= 0xa0)) return i;
    }
    if (need === 3) {
      const c = bytes[i + 1]!;
      if ((b === 0xf0 && c < 0x90) || (b === 0xf4 && c >= 0x90)) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}

/** Line and column (1-based, UTF-16 units of the valid prefix) of a byte offset. */
export function bytePosition(bytes: Uint8Array, offset: number): { line: number; column: number } {
  const prefix = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
  const body = prefix.charCodeAt(0) === 0xfeff ? prefix.slice(1) : prefix;
  const lastNewline = body.lastIndexOf('\n');
  const line = body.split('\n').length;
  return { line, column: body.length - lastNewline };
}
