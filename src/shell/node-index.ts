import type { SyntaxNode, SyntaxTree } from './parser.js';

interface IndexedNode {
  node: SyntaxNode;
  depth: number;
  start: number;
  end: number;
}

interface TreeIndex {
  byType: Map<string, IndexedNode[]>;
  depthById: Map<number, number>;
}

const indexes = new WeakMap<SyntaxTree, TreeIndex>();

/**
 * The named nodes of a tree by type, built in one walk the first time a rule
 * asks. Rules ask "which nodes of type T are under N" many times per hook;
 * answered by web-tree-sitter's `descendantsOfType`, each question walked the
 * whole subtree in WASM and took most of a lint's time.
 */
function treeIndex(tree: SyntaxTree): TreeIndex {
  let index = indexes.get(tree);
  if (index) return index;
  index = { byType: new Map(), depthById: new Map() };
  const cursor = tree.walk();
  try {
    let depth = 0;
    for (;;) {
      if (cursor.nodeIsNamed) {
        const node = cursor.currentNode;
        const entry = { node, depth, start: node.startIndex, end: node.endIndex };
        const list = index.byType.get(node.type);
        if (list) list.push(entry);
        else index.byType.set(node.type, [entry]);
        index.depthById.set(node.id, depth);
      }
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          indexes.set(tree, index);
          return index;
        }
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/**
 * The nodes of the given types at or below `root`, in document order — the
 * same answer as `root.descendantsOfType(types)`, from the tree's index.
 */
export function nodesOfType(root: SyntaxNode, types: readonly string[]): SyntaxNode[] {
  const index = treeIndex(root.tree);
  const rootDepth = index.depthById.get(root.id);
  if (rootDepth === undefined) return root.descendantsOfType([...types]).filter((n): n is SyntaxNode => n !== null);
  const start = root.startIndex;
  const end = root.endIndex;
  const found: IndexedNode[] = [];
  for (const type of types) {
    for (const entry of index.byType.get(type) ?? []) {
      if (entry.start < start) continue;
      if (entry.start > end) break;
      if (entry.end <= end && (entry.depth > rootDepth || entry.node.id === root.id)) found.push(entry);
    }
  }
  if (types.length > 1) found.sort((a, b) => a.start - b.start || a.depth - b.depth);
  return found.map((entry) => entry.node);
}
