import { nodesOfType, variableUse } from '../shell/analysis.js';
import type { ShellCommand } from '../shell/commands.js';
import type { SyntaxNode } from '../shell/parser.js';
import { commandNode } from '../shell/printed-text.js';

/**
 * Whether a hook is ready for a read that finds nothing, from its syntax
 * tree: the two ways the runtime's own document writes a fallback
 * (agent-lifecycle-hooks.md: `DATA=$(/sqlite-memory retrieve … 2>/dev/null
 * || echo '{}')`; AGENT_LIFECYCLE.md: `CONFIDENCE=$(redis-cli get …)` then
 * `if [ -z "$CONFIDENCE" ] …; then CONFIDENCE=0.0`).
 *
 * - `status`: the read's exit status is tested — it is the left side of `||`
 *   or `&&` (`|| echo '{}'`, `|| true`), a condition of `if` / `elif` /
 *   `while` / `until` (also under `!`), directly or as the last command of a
 *   `$(…)` that is assigned on its own (`X=$(…) || X=…`; `local X=$(…)` hides
 *   the status, as in bash). Only a miss that fails the command is caught so:
 *   `/sqlite-memory retrieve` exits 1 on a miss, `redis-cli GET` exits 0 with
 *   an empty reply.
 * - `value`: what the read prints, captured by `$(…)`, is tested for
 *   emptiness or compared as a string in `[ … ]`, `[[ … ]]` or `test`
 *   (`[ -z "$(…)" ]`, `[ "$(…)" = done ]`), or the variable it is assigned
 *   to is, after the assignment (`[ -z "$X" ] && X=…`, `[ "$X" = "(nil)" ]`,
 *   `${X:-…}`, `${X:=…}`, `${X:+…}`).
 */
export interface MissHandling {
  status: boolean;
  value: boolean;
}

/** Operators of a test that give an answer for an empty value: emptiness and string (in)equality. */
const EMPTINESS_TESTS = new Set(['-z', '-n']);
const STRING_COMPARISONS = new Set(['=', '==', '!=']);
/** `${X:-…}` and its kin: a value for an empty X (`:?` aborts instead). */
const EMPTY_DEFAULTS = new Set([':-', ':=', ':+']);

export function missHandling(command: ShellCommand, root: SyntaxNode): MissHandling {
  const node = commandNode(command);
  if (!node) return { status: false, value: false };
  return { status: statusTested(node), value: valueTested(node, root) };
}

/** The command's status is what the statement around it tests, passed up through what keeps it. */
function statusTested(command: SyntaxNode): boolean {
  let node = command;
  for (let parent = node.parent; parent; node = parent, parent = parent.parent) {
    switch (parent.type) {
      case 'redirected_statement':
      case 'negated_command':
      case 'variable_assignments':
        continue;
      case 'pipeline':
      case 'compound_statement':
      case 'subshell':
        if (!isLast(parent, node)) return false;
        continue;
      case 'list':
        // The left side of `&&` / `||` is tested; the right side's status is the list's.
        if (!isLast(parent, node)) return true;
        continue;
      case 'if_statement':
      case 'elif_clause':
      case 'while_statement':
        return inCondition(parent, node);
      case 'command_substitution': {
        if (!isLast(parent, node)) return false;
        const assignment = carrier(parent);
        // `X=$(…)` alone has the substitution's status; `X=$(…) cmd`, `local X=$(…)` have their command's.
        if (assignment?.type !== 'variable_assignment' || ['command', 'declaration_command'].includes(assignment.parent?.type ?? ''))
          return false;
        parent = assignment;
        continue;
      }
      default:
        return false;
    }
  }
  return false;
}

/** What the command prints reaches a `$(…)` (through pipes, lists and groups) whose value the script tests. */
function valueTested(command: SyntaxNode, root: SyntaxNode): boolean {
  for (let parent = command.parent; parent; parent = parent.parent) {
    const statement = parent;
    switch (statement.type) {
      case 'redirected_statement':
        // `2>/dev/null` keeps stdout; `>/dev/null`, `>&2`, `&>…` send it elsewhere.
        if (nodesOfType(statement, ['file_redirect']).some((r) => r.parent?.id === statement.id && /^(?:1?>|&>)/.test(r.text)))
          return false;
        continue;
      case 'pipeline':
      case 'list':
      case 'compound_statement':
      case 'subshell':
      case 'negated_command':
        continue;
      case 'command_substitution':
        return substitutionTested(statement, root);
      default:
        return false;
    }
  }
  return false;
}

function substitutionTested(substitution: SyntaxNode, root: SyntaxNode): boolean {
  const holder = carrier(substitution);
  if (!holder) return false;
  if (testsValue(holder)) return true;
  if (holder.type !== 'variable_assignment') return false;
  const name = holder.childForFieldName('name')?.text;
  if (!name) return false;
  const after = holder.endIndex;
  return nodesOfType(root, ['simple_expansion', 'expansion']).some((expansion) => {
    if (expansion.startIndex < after) return false;
    const use = variableUse(expansion);
    if (use?.name !== name) return false;
    return (use.operator !== undefined && EMPTY_DEFAULTS.has(use.operator)) || testsValue(carrier(expansion) ?? expansion);
  });
}

/** The node a value stands in: up through the quotes and concatenations it is part of. */
function carrier(node: SyntaxNode): SyntaxNode | undefined {
  let child = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent)
    if (parent.type !== 'string' && parent.type !== 'concatenation') return parent.type === 'variable_assignment' ? parent : child;
  return undefined;
}

/** A word that is the operand of an emptiness test or a string comparison. */
function testsValue(word: SyntaxNode): boolean {
  const parent = word.parent;
  if (!parent) return false;
  if (parent.type === 'unary_expression') return EMPTINESS_TESTS.has(parent.childForFieldName('operator')?.text ?? '');
  if (parent.type === 'binary_expression') return STRING_COMPARISONS.has(parent.childForFieldName('operator')?.text ?? '');
  if (parent.type !== 'command') return false;
  // `test -z "$X"`, `[ "$X" = x ]` as a command.
  const name = parent.childForFieldName('name')?.text;
  if (name !== 'test' && name !== '[') return false;
  const operands = parent.childrenForFieldName('argument').map((arg) => arg?.text ?? '');
  return operands.some((operand) => EMPTINESS_TESTS.has(operand) || STRING_COMPARISONS.has(operand));
}

/** Whether `child` is the last statement of `parent` (comments aside). */
function isLast(parent: SyntaxNode, child: SyntaxNode): boolean {
  const statements = parent.namedChildren.filter((n): n is SyntaxNode => n !== null && n.type !== 'comment');
  return statements[statements.length - 1]?.id === child.id;
}

/** Whether `child` is in the condition of an `if` / `elif` / `while` / `until`: before its `then` or `do`. */
function inCondition(statement: SyntaxNode, child: SyntaxNode): boolean {
  const body = statement.children.find((n) => n?.type === 'then' || n?.type === 'do_group');
  return body !== undefined && body !== null && child.endIndex <= body.startIndex;
}
