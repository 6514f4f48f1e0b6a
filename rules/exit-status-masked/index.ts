import { defineRule } from '../../src/engine/rule.js';
import { nodesOfType } from '../../src/shell/analysis.js';
import { staticValue } from '../../src/shell/static-value.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

/** Commands that always succeed: `cmd || true` ends with their status. */
const ALWAYS_TRUE = new Set(['true', ':']);

/**
 * `cmd || true` makes the list succeed whatever `cmd` did, and `$?` is the
 * status of the list: the `X=$?` or `[ $? -ne 0 ]` on the next line is always
 * 0, so the failure branch never runs. Reported at the `$?`, with the
 * `|| true` as related location.
 */
export default defineRule({
  id: 'exit-status-masked',
  meta: {
    description: '`$?` read right after `cmd || true`: it is always 0.',
    severity: 'warning',
    category: 'shell',
    runtimes: ['claude-flow', 'claude-code'],
  },
  messages: {
    masked:
      'Unexpected `$?` after `{{mask}}`: the list always succeeds, so `$?` is always 0 and the failure is never seen. Test the command itself (`if ! cmd; then …`) or save its status (`cmd || status=$?`).',
  },
  checkScript(context) {
    for (const list of nodesOfType(context.tree.rootNode, ['list'])) {
      const mask = maskingTail(list);
      if (!mask) continue;
      const next = nextStatement(list);
      const read = next ? firstStatusRead(next) : undefined;
      if (!read) continue;
      const maskText = `|| ${mask.text}`;
      context.report({
        messageId: 'masked',
        data: { mask: maskText },
        range: context.range(read.startIndex, read.endIndex),
        related: [
          {
            message: `\`${maskText}\` makes the status 0 here`,
            file: context.hook.file,
            range: context.mapRange(context.range(mask.startIndex, mask.endIndex)),
          },
        ],
      });
    }
  },
});

/** The `true` / `:` of a list that ends in `|| true`, when it does. */
function maskingTail(list: SyntaxNode): SyntaxNode | undefined {
  const operator = list.children.filter((c) => c !== null && !c.isNamed).pop();
  const last = list.lastNamedChild;
  if (operator?.type !== '||' || last?.type !== 'command') return undefined;
  const name = staticValue(last.childForFieldName('name') ?? last);
  return name !== undefined && ALWAYS_TRUE.has(name) && last.childrenForFieldName('argument').length === 0 ? last : undefined;
}

/** The statement that runs after this one (comments skipped); undefined when the list is part of something bigger. */
function nextStatement(node: SyntaxNode): SyntaxNode | undefined {
  if (node.parent?.type === 'list' || node.parent?.type === 'pipeline') return undefined;
  let next = node.nextNamedSibling;
  while (next?.type === 'comment') next = next.nextNamedSibling;
  return next ?? undefined;
}

/** A `$?` the statement reads before it runs any command of its own (not one inside `$(…)`). */
function firstStatusRead(statement: SyntaxNode): SyntaxNode | undefined {
  for (const expansion of nodesOfType(statement, ['simple_expansion', 'expansion'])) {
    if (expansion.text !== '$?' && expansion.text !== '${?}') continue;
    for (let parent = expansion.parent; parent && parent.id !== statement.id; parent = parent.parent) {
      if (parent.type === 'command_substitution' || parent.type === 'process_substitution') return undefined;
    }
    return expansion;
  }
  return undefined;
}
