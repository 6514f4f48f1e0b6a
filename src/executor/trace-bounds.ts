/**
 * How big a value may be in the trace. A hook decides what it sends and what
 * it reads back; the report must stay readable and its size bounded whatever
 * it does, so long strings are shown by their size and long lists by their
 * first items and a count.
 */

/** Strings longer than this (in UTF-8 bytes) appear as `(N bytes, not shown)`. */
export const TRACED_STRING_BYTES = 4096;
/** Lists longer than this show their first items and `(N more items, not shown)`. */
export const TRACED_LIST_ITEMS = 100;

export function traceString(text: string): string {
  if (text.length <= TRACED_STRING_BYTES / 4) return text;
  const bytes = Buffer.byteLength(text);
  return bytes > TRACED_STRING_BYTES ? `(${bytes} bytes, not shown)` : text;
}

/** A command's words for the trace. */
export function traceWords(words: readonly string[]): string[] {
  const shown = words.slice(0, TRACED_LIST_ITEMS).map(traceString);
  if (words.length > TRACED_LIST_ITEMS) shown.push(`(${words.length - TRACED_LIST_ITEMS} more arguments, not shown)`);
  return shown;
}

/** A reply (or any JSON value) for the trace. */
export function boundTraceValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return traceString(value);
  if (Array.isArray(value)) {
    if (depth > 8) return `(nested ${value.length} items, not shown)`;
    const shown = value.slice(0, TRACED_LIST_ITEMS).map((item) => boundTraceValue(item, depth + 1));
    if (value.length > TRACED_LIST_ITEMS) shown.push(`(${value.length - TRACED_LIST_ITEMS} more items, not shown)`);
    return shown;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = boundTraceValue(item, depth + 1);
    return out;
  }
  return value;
}
