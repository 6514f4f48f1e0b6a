import { defineRule } from '../../src/engine/rule.js';
import { nodesOfType } from '../../src/shell/analysis.js';
import { staticValue } from '../../src/shell/static-value.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

/** Commands that print a fallback value. */
const PRINTERS = new Set(['echo', 'printf']);

/**
 * `grep -c` prints the count even when it is 0 — and then exits 1. So
 * `N=$(grep -c x f || echo 0)` is `0` and `0` on two lines when nothing
 * matches, and `[ "$N" -gt 0 ]` fails with "integer expression expected"
 * exactly in the case the fallback was written for.
 */
export default defineRule({
  id: 'grep-count-fallback',
  meta: {
    description: '`grep -c … || echo 0`: when nothing matches both print, and the value is two lines.',
    severity: 'warning',
    category: 'shell',
    runtimes: ['claude-flow', 'claude-code'],
  },
  messages: {
    twoLines:
      'Unexpected `{{fallback}}` after `grep -c`: grep prints `0` and exits 1 when nothing matches, so both print and the value is two lines (`0` and `{{value}}`); a numeric test on it fails. Write `grep -c … || true`.',
  },
  checkScript(context) {
    for (const list of nodesOfType(context.tree.rootNode, ['list'])) {
      const operator = list.children.find((c) => c !== null && !c.isNamed);
      const [left, right] = list.namedChildren;
      if (operator?.type !== '||' || !left || !right || right.type !== 'command') continue;
      if (!countsWithGrep(left)) continue;
      const printer = staticValue(right.childForFieldName('name') ?? right);
      if (printer === undefined || !PRINTERS.has(printer)) continue;
      const value = right
        .childrenForFieldName('argument')
        .map((a) => (a ? staticValue(a) : undefined))
        .filter((v) => v !== undefined && !v.startsWith('-'))
        .join(' ');
      context.report({
        messageId: 'twoLines',
        data: { fallback: `|| ${right.text}`, value: value || '…' },
        range: context.range(operator.startIndex, right.endIndex),
      });
    }
  },
});

/** The command (or the last stage of the pipeline) is `grep -c` / `grep --count`. */
function countsWithGrep(node: SyntaxNode): boolean {
  let last: SyntaxNode | null = node;
  if (last.type === 'redirected_statement') last = last.childForFieldName('body');
  if (last?.type === 'pipeline') last = last.lastNamedChild;
  if (last?.type === 'redirected_statement') last = last.childForFieldName('body');
  if (last?.type !== 'command') return false;
  const name = staticValue(last.childForFieldName('name') ?? last);
  if (name !== 'grep' && name !== 'egrep' && name !== 'fgrep') return false;
  return last.childrenForFieldName('argument').some((arg) => {
    const value = arg ? staticValue(arg) : undefined;
    return value !== undefined && (value === '--count' || /^-[A-Za-z]*c[A-Za-z]*$/.test(value));
  });
}
