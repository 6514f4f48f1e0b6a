/**
 * Byte strings: JS strings whose char codes are bytes (latin1). That keeps the
 * fake binary-safe like Redis (STRLEN counts bytes, any byte sequence
 * round-trips) while Map keys and `<` comparisons still behave like Redis's
 * memcmp. Convert at the edges with `toByteString` / `fromByteString`.
 */

export function toByteString(value: string | Buffer): string {
  return (typeof value === 'string' ? Buffer.from(value, 'utf8') : value).toString('latin1');
}

/** Decodes a byte string as UTF-8 text, for traces and snapshots. */
export function fromByteString(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Lower-cases ASCII only, like C's strcasecmp: command and option names are ASCII, other bytes stay. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
