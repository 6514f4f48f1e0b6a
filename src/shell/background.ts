import type { SyntaxNode, SyntaxTree } from './parser.js';

const found = new WeakMap<SyntaxTree, readonly (readonly [number, number])[]>();

/**
 * Script ranges of the statements a script runs as background jobs
 * (`cmd &`), which it does not wait for. The tree is walked only when the
 * text has a lone `&` at all, once per tree, with a cursor: asking each node
 * for its next sibling costs a scan of the parent's children every time.
 */
export function backgroundJobs(root: SyntaxNode, text: string): readonly (readonly [number, number])[] {
  let ranges = found.get(root.tree);
  if (!ranges) found.set(root.tree, (ranges = hasLoneAmpersand(text) ? walk(root) : []));
  return ranges;
}

/** Whether `[start, end)` runs in a background job; with `within`, in one inside that range, not the range itself. */
export function inBackgroundJob(
  jobs: readonly (readonly [number, number])[],
  start: number,
  end: number,
  within?: readonly [number, number],
): boolean {
  return jobs.some(
    ([from, to]) =>
      from <= start && end <= to && (!within || (within[0] <= from && to <= within[1] && (from !== within[0] || to !== within[1]))),
  );
}

/** An `&` that sends a command to the background: not part of `&&`, `&>`, `>&`, `|&`. */
function hasLoneAmpersand(text: string): boolean {
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    const before = text[at - 1];
    const after = text[at + 1];
    if (before !== '&' && before !== '>' && before !== '|' && after !== '&' && after !== '>') return true;
  }
  return false;
}

function walk(root: SyntaxNode): [number, number][] {
  const ranges: [number, number][] = [];
  const cursor = root.walk();
  const previous: ([number, number] | undefined)[] = [undefined];
  let depth = 0;
  try {
    for (;;) {
      if (cursor.nodeType === '&') {
        const before = previous[depth];
        if (before) ranges.push(before);
      } else {
        previous[depth] = [cursor.startIndex, cursor.endIndex];
      }
      if (cursor.gotoFirstChild()) {
        previous[++depth] = undefined;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return ranges;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}
