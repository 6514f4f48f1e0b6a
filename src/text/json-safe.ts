/**
 * How deep a printed JSON value may nest (stringifyJson in control-chars.ts
 * applies it). A value nested deeper than `MAX_REPORT_JSON_DEPTH` levels (a hook can print
 * `{"a":` 150,000 times) would overflow the stack of `JSON.stringify`; past
 * that depth a value is replaced by the string `DEEP_JSON_PLACEHOLDER`, so a
 * report is always produced.
 */

/** Levels of arrays and objects shown in a JSON report; deeper values are replaced. */
export const MAX_REPORT_JSON_DEPTH = 100;
export const DEEP_JSON_PLACEHOLDER = `(nested deeper than ${MAX_REPORT_JSON_DEPTH} levels: not shown)`;

/** How deep arrays and objects nest in a parsed JSON value, counted without recursion (stops counting past `cap`). */
export function jsonDepth(value: unknown, cap = Number.MAX_SAFE_INTEGER): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > cap) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** The value with everything deeper than `maxDepth` levels replaced by the placeholder; the value itself when nothing is. */
export function limitJsonDepth(value: unknown, maxDepth = MAX_REPORT_JSON_DEPTH): unknown {
  if (jsonDepth(value, maxDepth) <= maxDepth) return value;
  const copy = (item: unknown, depth: number): unknown => {
    if (item === null || typeof item !== 'object') return item;
    if (typeof (item as { toJSON?: unknown }).toJSON === 'function') item = (item as { toJSON(): unknown }).toJSON();
    if (item === null || typeof item !== 'object') return item;
    if (depth >= maxDepth) return DEEP_JSON_PLACEHOLDER;
    if (Array.isArray(item)) return item.map((child) => copy(child, depth + 1));
    return Object.fromEntries(Object.entries(item).map(([key, child]) => [key, copy(child, depth + 1)]));
  };
  return copy(value, 0);
}
