import { defineRule } from '../../src/engine/rule.js';
import { nodesOfType } from '../../src/shell/analysis.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

/**
 * `${#VAR:-0}`, `${#arr[@]:-}`, `${$VAR}`: bash parses the script (`bash -n`
 * is happy) but stops the command with `bad substitution` when it reaches the
 * expansion, so the assignment or call never happens. The tree-sitter grammar
 * cannot build an expansion from these either and marks them as errors; the
 * text of those error nodes is read with bash's own grammar of `${…}`.
 */
export default defineRule({
  id: 'substitution-invalid',
  meta: {
    description: 'A `${…}` expansion bash rejects with "bad substitution" when the line runs.',
    severity: 'error',
    category: 'shell',
    runtimes: ['claude-flow', 'claude-code'],
    // `${#X:-0}`: the grammar cannot read it either, and says so less precisely.
    supersedes: ['shell-syntax'],
  },
  messages: {
    lengthWithOperator:
      'Invalid substitution `{{text}}`: a length `${#…}` takes no operator, so bash stops this command with "bad substitution". Write `${#{{name}}}` (a length is never unset), or `{{fallback}}` for a default value.',
    nestedDollar:
      'Invalid substitution `{{text}}`: bash takes no `$` inside `${…}` before the name ("bad substitution"). Write `${{{name}}}`, or `${!{{name}}}` to read the variable whose name it holds.',
  },
  checkScript(context) {
    const text = context.hook.text;
    const seen = new Set<number>();
    for (const [from, to] of mergedSpans(nodesOfType(context.tree.rootNode, ['ERROR', 'expansion']))) {
      const span = text.slice(from, to);
      for (const match of span.matchAll(BAD_SUBSTITUTION)) {
        const start = from + match.index;
        if (seen.has(start)) continue;
        seen.add(start);
        const end = closingBrace(text, start);
        if (end === undefined) continue;
        const whole = text.slice(start, end);
        const name = match[2] ?? match[4]!;
        context.report({
          messageId: match[1] === '#' ? 'lengthWithOperator' : 'nestedDollar',
          data: { text: whole, name: match[3] ? `${name}${match[3]}` : name, fallback: `\${${name}:-…}` },
          range: context.range(start, end),
        });
      }
    }
  },
});

/**
 * `${#NAME` (with an optional `[…]` subscript) followed by anything but `}`,
 * and `${$NAME` / `${#$NAME`. `${#}`, `${##}`, `${#-}` and `${$}` are valid and
 * do not match.
 */
const BAD_SUBSTITUTION = /\$\{(?:(#)([A-Za-z_]\w*)(\[[^\]]*\])?(?![}[\]\w])|#?\$([A-Za-z_]\w*))/g;

/**
 * The spans to read, each once: error nodes nest and overlap, and reading
 * each one's text would be quadratic in a large broken script. The `${` of a
 * broken expansion sits at its error node's start or just before it.
 */
function mergedSpans(nodes: readonly SyntaxNode[]): [number, number][] {
  const spans = nodes.map((n): [number, number] => [Math.max(0, n.startIndex - 3), n.endIndex]).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}

/** Offset just past the `}` that closes the `${` at `start`, counting nested `${`. */
function closingBrace(text: string, start: number): number | undefined {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '\n') return undefined;
    if (text[i] === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}' && --depth === 0) return i + 1;
  }
  return undefined;
}
