import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Language as TSLanguage, Node as TSNode, Parser as TSParser, Tree } from 'web-tree-sitter';

export type SyntaxNode = TSNode;
export type SyntaxTree = Tree;

let parserPromise: Promise<TSParser> | undefined;
let loaded: TSParser | undefined;

/**
 * For short runs (a file on save, a pre-commit of a few files), keep V8 on
 * its baseline WASM compiler: tiering the grammar up with TurboFan costs
 * ~400 ms of background compilation that a short run waits for at exit,
 * while a long run (thousands of files, the language server) earns it back.
 * Must be called before the first parser is loaded; later calls do nothing.
 */
export function preferFastWasmStart(): void {
  if (parserPromise) return;
  setFlagsFromString('--liftoff-only');
}

/**
 * One parser for the whole process: loading the WASM grammar is the
 * expensive part (tens of milliseconds), parsing a hook is ~0.2 ms.
 */
export function loadShellParser(): Promise<TSParser> {
  parserPromise ??= (async () => {
    const { Parser, Language } = await import('web-tree-sitter');
    const require = createRequire(import.meta.url);
    // Named here, not found next to the module: the lint bundle carries web-tree-sitter inside it.
    await Parser.init({ locateFile: (name: string) => require.resolve(`web-tree-sitter/${name}`) });
    const language: TSLanguage = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    loaded = parser;
    return parser;
  })();
  return parserPromise;
}

/** The parser, once `loadShellParser` has loaded it: for scripts found inside a script, read while it is linted. */
export function loadedShellParser(): TSParser | undefined {
  return loaded;
}

/** `old`, the tree of the text before an edit (after `old.edit(…)`), lets tree-sitter re-read only what changed. */
export function parseShell(parser: TSParser, text: string, old?: Tree): Tree {
  const tree = parser.parse(text, old);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}

/** Every ERROR or MISSING node in document order, the outermost of nested ones. */
export function syntaxErrors(root: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const visit = (node: SyntaxNode): void => {
    if (node.type === 'ERROR' || node.isMissing) {
      found.push(node);
      return;
    }
    if (node.hasError) for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return found;
}

/** The first ERROR or MISSING node in document order, if any. */
export function firstSyntaxError(root: SyntaxNode): SyntaxNode | undefined {
  if (!root.hasError) return undefined;
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.type === 'ERROR' || node.isMissing) return node;
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return undefined;
      }
    }
  } finally {
    cursor.delete();
  }
}
