/**
 * `/sqlite-memory` key globs (`*` any run of characters, `?` one), matched
 * without backtracking. The fake used to turn a glob into a regular
 * expression, and `*a*a*a*…b` against a long key made V8's backtracking
 * engine run for minutes on the executor's own event loop, where no timeout
 * could stop it. Here a glob is split at its stars; the first piece must
 * start the key, the last must end it, and each one between is taken at its
 * leftmost place after the previous one — the leftmost choice never loses a
 * match, so nothing is ever retried. Cost: about key length × piece length
 * at worst, bounded by the size caps below.
 */

/** Longest key and pattern the memory commands accept (UTF-16 units). */
export const MAX_MEMORY_KEY_LENGTH = 1024;

export function compileGlob(glob: string): (key: string) => boolean {
  const pieces = glob.split('*');
  if (pieces.length === 1) return (key) => key.length === glob.length && matchesAt(key, 0, glob);
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((piece) => piece.length > 0);
  return (key) => {
    if (key.length < first.length + last.length) return false;
    if (!matchesAt(key, 0, first) || !matchesAt(key, key.length - last.length, last)) return false;
    let from = first.length;
    const end = key.length - last.length;
    for (const piece of middle) {
      const at = find(key, piece, from, end);
      if (at < 0) return false;
      from = at + piece.length;
    }
    return true;
  };
}

function matchesAt(key: string, at: number, piece: string): boolean {
  for (let i = 0; i < piece.length; i++) {
    const wanted = piece.charCodeAt(i);
    if (wanted !== 0x3f /* ? */ && key.charCodeAt(at + i) !== wanted) return false;
  }
  return true;
}

/** Leftmost place in key[from, end) where piece matches; -1 if none. */
function find(key: string, piece: string, from: number, end: number): number {
  if (!piece.includes('?')) {
    const at = key.indexOf(piece, from);
    return at >= 0 && at + piece.length <= end ? at : -1;
  }
  for (let at = from; at + piece.length <= end; at++) if (matchesAt(key, at, piece)) return at;
  return -1;
}

/** Filters a list in slices, yielding to the event loop between them, so a timer (the run's timeout) is never held up. */
export async function filterInSlices<T>(items: readonly T[], keep: (item: T) => boolean, slice = 64): Promise<T[]> {
  const kept: T[] = [];
  for (let start = 0; start < items.length; start += slice) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const item of items.slice(start, start + slice)) if (keep(item)) kept.push(item);
  }
  return kept;
}
