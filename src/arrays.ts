/**
 * Array helpers for lists whose length the input decides. Spreading an array
 * into a call (`Math.max(...xs)`, `out.push(...xs)`) passes each element as an
 * argument on the stack, and past about 100,000 of them V8 throws "Maximum
 * call stack size exceeded": a file with that many findings crashed the run.
 * These loop instead.
 */

/** Appends every item of `items` to `target` (what `target.push(...items)` does, for any length). */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`, or `empty` when there are none (`Math.max(...values)` for any length). */
export function maxOf(values: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let max = Number.NEGATIVE_INFINITY;
  let any = false;
  for (const value of values) {
    any = true;
    if (value > max) max = value;
  }
  return any ? max : empty;
}
