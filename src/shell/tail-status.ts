import type { SyntaxNode } from './parser.js';

/**
 * Where a script's exit status comes from when it runs off its end (no
 * `exit`): the last statement, through `if`/`case` branches, `{ }` groups,
 * subshells, pipelines (their last stage) and the functions it calls (their
 * last statement and every `return` in them). The left side of a final
 * `A && B` decides the status when it fails.
 */
export interface TailStatus {
  /** A command, a `[[ … ]]` test or a `return`. */
  node: SyntaxNode;
  /** Its status becomes the script's only when it fails (`A` of a final `A && B`). */
  onFailure: boolean;
}

const GROUPS = new Set(['program', 'compound_statement', 'subshell', 'else_clause', 'do_group']);
const LEAVES = new Set(['command', 'test_command']);

export function tailStatuses(root: SyntaxNode): TailStatus[] {
  const functions = new Map<string, SyntaxNode>();
  for (const child of root.namedChildren) {
    const name = child?.type === 'function_definition' ? child.childForFieldName('name')?.text : undefined;
    const body = child?.childForFieldName('body');
    if (name && body) functions.set(name, body);
  }
  const found: TailStatus[] = [];
  collect(lastStatement(root, true), false, { functions, found, entered: new Set() });
  return found;
}

interface Walk {
  functions: ReadonlyMap<string, SyntaxNode>;
  found: TailStatus[];
  entered: Set<string>;
}

function collect(node: SyntaxNode | undefined, onFailure: boolean, walk: Walk): void {
  if (!node) return;
  const inner = innerStatements(node);
  if (inner) for (const statement of inner) collect(statement, onFailure, walk);
  else if (node.type === 'list') collectList(node, onFailure, walk);
  else if (LEAVES.has(node.type)) collectLeaf(node, onFailure, walk);
}

/** The statements whose status a compound statement ends with: its last, or each branch's last. */
function innerStatements(node: SyntaxNode): (SyntaxNode | undefined)[] | undefined {
  if (GROUPS.has(node.type)) return [lastStatement(node, false)];
  if (node.type === 'redirected_statement') return [node.childForFieldName('body') ?? undefined];
  if (node.type === 'pipeline') return [node.namedChildren.at(-1) ?? undefined];
  if (node.type === 'if_statement' || node.type === 'elif_clause') {
    const branches = node.namedChildren.filter((c): c is SyntaxNode => c?.type === 'elif_clause' || c?.type === 'else_clause');
    return [lastStatement(node, false, thenBody(node)), ...branches];
  }
  if (node.type === 'case_statement') {
    const items = node.namedChildren.filter((c): c is SyntaxNode => c?.type === 'case_item');
    return items.map((item) => lastStatement(item, false, caseBody(item)));
  }
  return undefined;
}

/** A command or test; a call of one of the script's functions stands for its body's last statement and its returns. */
function collectLeaf(node: SyntaxNode, onFailure: boolean, walk: Walk): void {
  const name = node.type === 'command' ? node.childForFieldName('name')?.text : undefined;
  const body = name === undefined || walk.entered.has(name) ? undefined : walk.functions.get(name);
  if (!body) {
    walk.found.push({ node, onFailure });
    return;
  }
  walk.entered.add(name!);
  collect(body, onFailure, walk);
  for (const command of returnsOf(body)) walk.found.push({ node: command, onFailure });
}

/** `A && B`: B's status, or A's when A fails; `A || B`: B's (A's only when it succeeds, 0). */
function collectList(list: SyntaxNode, onFailure: boolean, walk: Walk): void {
  const [left, right] = [list.namedChildren[0] ?? undefined, list.namedChildren.at(-1) ?? undefined];
  const and = list.children.some((c) => c?.type === '&&');
  collect(right, onFailure, walk);
  if (!and) return;
  // The left side's failures: a leaf, or the failures of a list under it.
  const failing = left && statusNode(left);
  if (failing?.type === 'list') collectList(failing, true, walk);
  else if (failing && LEAVES.has(failing.type)) walk.found.push({ node: failing, onFailure: true });
}

/** The node whose status a statement has: a pipeline's last stage, a redirected statement's body. */
export function statusNode(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type === 'pipeline') {
    const last = node.namedChildren.at(-1);
    return last ? statusNode(last) : undefined;
  }
  if (node.type === 'redirected_statement') return node.childForFieldName('body') ?? undefined;
  return node;
}

/** The last statement of a group (comments aside); at a script's top, `exit` or `exit $?` hands on the one before. */
function lastStatement(node: SyntaxNode, top: boolean, within?: readonly SyntaxNode[]): SyntaxNode | undefined {
  const statements = (within ?? node.namedChildren.filter((c): c is SyntaxNode => c !== null)).filter(
    (c) => c.type !== 'comment' && c.type !== 'function_definition' && c.type !== 'heredoc_body',
  );
  let last = statements.at(-1);
  if (top && last?.type === 'command' && /^exit(?:\s+"?\$\?"?)?$/.test(last.text.trim())) last = statements.at(-2);
  return last;
}

/** The statements after `then`, before any `elif`/`else`. */
function thenBody(node: SyntaxNode): SyntaxNode[] {
  return statementsAfter(node, 'then');
}

/** The statements of a `case` item, after its patterns and `)`. */
function caseBody(item: SyntaxNode): SyntaxNode[] {
  return statementsAfter(item, ')');
}

/** The named children after the first `marker` token, up to an `elif` or `else` clause. */
export function statementsAfter(node: SyntaxNode, marker: string): SyntaxNode[] {
  const body: SyntaxNode[] = [];
  let after = false;
  for (const child of node.children) {
    if (!child) continue;
    if (!after) after = child.type === marker;
    else if (child.type === 'elif_clause' || child.type === 'else_clause') break;
    else if (child.isNamed) body.push(child);
  }
  return body;
}

/** The `return` commands of a function body, not those of functions or subshells inside it. */
function returnsOf(body: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const visit = (node: SyntaxNode): void => {
    for (const child of node.namedChildren) {
      if (!child || child.type === 'function_definition' || child.type === 'subshell' || child.type === 'command_substitution') continue;
      if (child.type === 'command' && child.childForFieldName('name')?.text === 'return') found.push(child);
      else visit(child);
    }
  };
  visit(body);
  return found;
}
