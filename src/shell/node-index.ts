import type { SyntaxNode, SyntaxTree } from './parser.js';

interface IndexedNode {
  node: SyntaxNode;
  start: number;
  end: number;
  /** Position in the tree's pre-order: document order, an ancestor before its descendants. */
  order: number;
}

interface TreeIndex {
  byType: Map<string, IndexedNode[]>;
  types: ReadonlySet<string>;
}

const indexes = new WeakMap<SyntaxTree, TreeIndex>();

/** Whether each symbol of the shell grammar (the one language of the process) is a named node's. */
const namedSymbols = new Map<number, boolean>();

/** Every node type a rule has asked for in this process; the rules ask for about a dozen. */
const wantedTypes = new Set<string>();

/**
 * The named nodes of the types rules ask for, by type, from one
 * `descendantsOfType` call per tree: the walk stays in WASM and only the
 * wanted nodes come out as JS objects. (Walking every named node with a
 * cursor and materialising each cost 2-4x the parse; answering each
 * question with `descendantsOfType` under its own node walked the subtree
 * again every time.) A type first asked for after the tree was indexed
 * indexes the tree again, once.
 */
function treeIndex(tree: SyntaxTree, types: readonly string[]): TreeIndex {
  const existing = indexes.get(tree);
  if (existing && types.every((type) => existing.types.has(type))) return existing;
  for (const type of types) wantedTypes.add(type);
  const index: TreeIndex = { byType: new Map(), types: new Set(wantedTypes) };
  const language = tree.language;
  tree.rootNode.descendantsOfType([...wantedTypes]).forEach((node, order) => {
    if (!node) return;
    // One call into WASM for the symbol answers both the type and whether it is named (per symbol, once).
    const symbol = node.typeId;
    let named = namedSymbols.get(symbol);
    if (named === undefined) namedSymbols.set(symbol, (named = language.nodeTypeIsNamed(symbol)));
    if (!named) return;
    const entry = { node, start: node.startIndex, end: node.endIndex, order };
    const type = language.types[symbol] || 'ERROR';
    const list = index.byType.get(type);
    if (list) list.push(entry);
    else index.byType.set(type, [entry]);
  });
  indexes.set(tree, index);
  return index;
}

/**
 * The nodes of the given types at or below `root`, in document order — the
 * same answer as `root.descendantsOfType(types)`, from the tree's index.
 */
export function nodesOfType(root: SyntaxNode, types: readonly string[]): SyntaxNode[] {
  if (types.length === 0) return [];
  if (types.includes('ERROR')) {
    // A tree without errors has no ERROR node to find (most hooks): the other types come from the index.
    if (!root.hasError)
      return nodesOfType(
        root,
        types.filter((type) => type !== 'ERROR'),
      );
    // web-tree-sitter's descendantsOfType finds nothing at all when ERROR is among the types.
    return walkForTypes(root, types);
  }
  return placedNodesOfType(root, types).map((entry) => entry.node);
}

/** The same nodes as `nodesOfType` (which see; no `ERROR`), each with its start and end offsets, which the index has read. */
export function placedNodesOfType(root: SyntaxNode, types: readonly string[]): readonly { node: SyntaxNode; start: number; end: number }[] {
  const index = treeIndex(root.tree, types);
  const start = root.startIndex;
  const end = root.endIndex;
  const found: IndexedNode[] = [];
  for (const type of types) {
    for (const entry of index.byType.get(type) ?? []) {
      if (entry.start < start) continue;
      if (entry.start > end) break;
      if (entry.end > end) continue;
      // A node of some width inside the root's range, but not its very range, descends from it:
      // siblings do not overlap, and an ancestor spans all of the root. One with the root's very range,
      // or empty, may be an ancestor or a neighbour, and is asked (each `parent` is a walk down from the
      // tree's root in tree-sitter: asking every node of a left-nested `a && b && …` list was cubic).
      const clear = entry.start < entry.end && (entry.start > start || entry.end < end);
      if (entry.node.id === root.id || clear || descendsFrom(entry.node, root)) found.push(entry);
    }
  }
  if (types.length > 1) found.sort((a, b) => a.order - b.order);
  return found;
}

function descendsFrom(node: SyntaxNode, root: SyntaxNode): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.id === root.id) return true;
    if (parent.startIndex < root.startIndex || parent.endIndex > root.endIndex) return false;
  }
  return false;
}

/**
 * The same answer as `nodesOfType`, by a walk of the subtree: for a question
 * asked only under a few small nodes, which would otherwise index every node
 * of its type in every tree (the index holds each type any rule asked for).
 */
export function walkedNodesOfType(root: SyntaxNode, types: readonly string[]): SyntaxNode[] {
  return walkForTypes(root, types);
}

/** The named nodes of the types at or below `root`, in pre-order, by a cursor walk of the subtree. */
function walkForTypes(root: SyntaxNode, types: readonly string[]): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const cursor = root.walk();
  // The depth below `root` says when the walk is back at it; reading the cursor's node at every step
  // would make a JS object of each node of the tree.
  let depth = 0;
  try {
    for (;;) {
      if (cursor.nodeIsNamed && types.includes(cursor.nodeType)) found.push(cursor.currentNode);
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      for (;;) {
        if (depth === 0) return found;
        if (cursor.gotoNextSibling()) break;
        cursor.gotoParent();
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}
