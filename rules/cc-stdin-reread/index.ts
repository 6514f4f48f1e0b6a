import { messageText } from '../../src/shell/script-text.js';
import { defineRule } from '../../src/engine/rule.js';
import { firstStage, readsStdin, takesHookStdin } from '../../src/runtimes/claude-code/stdin-taint.js';
import { nodesOfType } from '../../src/shell/analysis.js';
import { isStdinPath } from '../../src/shell/stdin-script.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

/** Statements that may run their body or not, or more than once, or elsewhere: a reader inside one is not certain to run in order. */
const BRANCHING = new Set([
  'if_statement',
  'case_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'function_definition',
  'list',
]);

/**
 * A hook's stdin is one JSON document, read once: `INPUT=$(cat)` (or a `jq`
 * reading stdin) takes all of it, and a later reader gets nothing. The
 * classic slip is a guard that keeps `INPUT=$(cat)` for logging and then
 * asks `jq -r .tool_input.command` for the command: empty, so it never
 * matches and the guard never blocks.
 */
export default defineRule({
  id: 'cc-stdin-reread',
  meta: {
    description: 'A Claude Code hook reads its stdin JSON again after an earlier command read all of it: the second reader gets nothing.',
    severity: 'error',
    category: 'runtime',
    runtimes: ['claude-code'],
  },
  messages: {
    reread:
      "Unexpected second read of the hook's stdin: `{{first}}` (line {{line}}) already read all of it, so `{{second}}` gets nothing and a test of its output never matches. Read the input once into a variable (`INPUT=$(cat)`) and give that to each reader (`printf '%s' \"$INPUT\" | jq -r …`).",
    afterRead:
      "Unexpected read of the hook's stdin after `{{first}}` (line {{line}}) took its first line: `{{second}}` gets at most the rest (nothing when the JSON is on one line), never the whole document, so a test of its output never matches. Read the input once into a variable (`INPUT=$(cat)`) and give that to each reader (`printf '%s' \"$INPUT\" | jq -r …`).",
  },
  checkScript(context) {
    const root = context.tree.rootNode;
    // `exec < file` gives the script another stdin part way through.
    if (/(?:^|[;&|({\n])\s*exec\s+(?:\d*<(?!<)|<>)/.test(context.hook.text)) return;
    const readers = [
      ...nodesOfType(root, ['command']).filter((c) => (readsStdin(c) || readsLine(c)) && firstStage(c)),
      // `$(</dev/stdin)`: bash reads the file without a command.
      ...nodesOfType(root, ['command_substitution']).filter((s) => isStdinPath(/^\$\(\s*<\s*(\S+)\s*\)$/.exec(s.text)?.[1] ?? '')),
    ]
      .filter(runsInOrder)
      .sort((a, b) => a.startIndex - b.startIndex);
    const [first, second] = readers;
    if (!first || !second) return;
    const line = context.mapRange(context.range(first.startIndex, first.endIndex)).line;
    context.report({
      messageId: readsLine(first) ? 'afterRead' : 'reread',
      data: { first: messageText(first.text), line: String(line), second: messageText(second.text) },
      range: context.range(second.startIndex, second.endIndex),
    });
  },
});

/** `read -r J` with no input of its own: it takes the first line of the hook's stdin (all of it when the JSON is on one line). */
function readsLine(command: SyntaxNode): boolean {
  if (command.childForFieldName('name')?.text !== 'read') return false;
  if (command.childrenForFieldName('argument').some((a) => a !== null && /^-[A-Za-z]*u/.test(a.text))) return false;
  return takesHookStdin(command);
}

/**
 * Whether the node runs once, in the script's order: no branch, loop,
 * function or `||` list around it. A `case` subject, an `if`'s first
 * condition and both sides of `&&` run in order, so a reader there counts.
 */
function runsInOrder(node: SyntaxNode): boolean {
  let from = node;
  for (let at = node.parent; at; from = at, at = at.parent) {
    if (!BRANCHING.has(at.type) || alwaysRuns(at, from)) continue;
    return false;
  }
  return true;
}

function alwaysRuns(statement: SyntaxNode, child: SyntaxNode): boolean {
  // `A && B`: A runs, and B after it; `A || B`: B only when A failed.
  if (statement.type === 'list') return statement.namedChildren[0]?.id === child.id || statement.children.some((c) => c?.type === '&&');
  if (statement.type === 'case_statement') return statement.childForFieldName('value')?.id === child.id;
  if (statement.type === 'if_statement') return statement.childForFieldName('condition')?.id === child.id;
  return false;
}
