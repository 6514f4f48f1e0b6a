import { nodesOfType } from './analysis.js';
import type { SyntaxNode } from './parser.js';

/** Statements that may run their body or not: a self-call inside one may have a base case. */
const CONDITIONAL = new Set([
  'if_statement',
  'case_statement',
  'list',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'function_definition',
]);

/**
 * Functions that call themselves at least twice at once, with no condition
 * around the calls: `:(){ :|:& };:`, `b() { b & b; }`. Each call starts
 * two more, so once called the processes double until none can be forked.
 * Returns the definitions of those the script calls.
 */
export function forkBombs(root: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  for (const definition of nodesOfType(root, ['function_definition'])) {
    const name = definition.childForFieldName('name')?.text;
    const body = definition.childForFieldName('body');
    if (!name || !body) continue;
    const calls = nodesOfType(body, ['command']).filter((c) => c.childForFieldName('name')?.text === name && unconditional(c, definition));
    const concurrent = calls.filter((c) => c.parent?.type === 'pipeline' || c.nextSibling?.type === '&');
    if (calls.length < 2 || concurrent.length === 0) continue;
    const called = nodesOfType(root, ['command']).some(
      (c) => c.childForFieldName('name')?.text === name && !(c.startIndex >= definition.startIndex && c.endIndex <= definition.endIndex),
    );
    if (called) found.push(definition);
  }
  return found;
}

function unconditional(call: SyntaxNode, definition: SyntaxNode): boolean {
  for (let at = call.parent; at && at.id !== definition.id; at = at.parent) if (CONDITIONAL.has(at.type)) return false;
  return true;
}
