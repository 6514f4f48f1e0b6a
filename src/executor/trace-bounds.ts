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

/** Items (at any depth) one value shows before the rest is summarised. */
export const TRACED_VALUE_ITEMS = 1000;

/** A reply (or any JSON value) for the trace: long strings by their size, long or deep lists by their first items. */
export function boundTraceValue(value: unknown): unknown {
  const budget = { items: TRACED_VALUE_ITEMS };
  return bound(value, 0, budget);
}

function bound(value: unknown, depth: number, budget: { items: number }): unknown {
  if (typeof value === 'string') return traceString(value);
  if (Array.isArray(value)) {
    if (depth >= 4) return `(${value.length} nested items, not shown)`;
    const shown: unknown[] = [];
    for (const item of value) {
      if (shown.length >= TRACED_LIST_ITEMS || budget.items <= 0) break;
      budget.items--;
      shown.push(bound(item, depth + 1, budget));
    }
    if (value.length > shown.length) shown.push(`(${value.length - shown.length} more items, not shown)`);
    return shown;
  }
  if (value !== null && typeof value === 'object') {
    if (depth >= 4) return '(nested value, not shown)';
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (budget.items-- <= 0) break;
      out[key] = bound(item, depth + 1, budget);
    }
    return out;
  }
  return value;
}
