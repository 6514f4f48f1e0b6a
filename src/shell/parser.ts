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

/**
 * `old`, the tree of the text before an edit (after `old.edit(…)`), lets tree-sitter re-read only what changed.
 * Where the text has one of the grammar's known gaps (see `bridgeGrammarGaps`), the tree is that of the text
 * with the gap bridged: same length, so every offset is the script's; a node's `text` shows the bridge.
 */
export function parseShell(parser: TSParser, text: string, old?: Tree): Tree {
  const tree = parser.parse(text, old);
  if (!tree) throw new Error('tree-sitter returned no tree');
  if (!tree.rootNode.hasError) return tree;
  const bridged = bridgeGrammarGaps(text, tree.rootNode);
  const again = bridged === undefined ? null : parser.parse(bridged, old);
  if (!again) return tree;
  if (again.rootNode.hasError && syntaxErrors(again.rootNode).length >= syntaxErrors(tree.rootNode).length) {
    again.delete();
    return tree;
  }
  tree.delete();
  return again;
}

/** A redirection an assignment-only statement may drop without a change bash would show: to /dev/null, or a descriptor's copy. */
const HARMLESS_REDIRECT = /^(?:\d*>>?|&>>?|>\|)\s*(?:\/dev\/null|&\d+|&-)$|^\d*>&\d*-?$/;

/**
 * The script, where tree-sitter-bash cannot read what bash accepts, with each gap bridged by text of the
 * same length that it reads and that means the same to the rules: undefined when there is none.
 * - an assignment with no command whose redirections go to /dev/null or another descriptor
 *   (`V=$(cat f) 2>/dev/null || V=""`): the grammar wants a command name after a redirection, and its
 *   error swallows the rest of the list. Blanked: the assignment alone, which is what bash runs;
 * - a substring expansion whose offset or length is a variable (`${cmd:$i:1}`): arithmetic there reads a
 *   bare name as the variable, so `$i` becomes ` i`, which the grammar reads.
 */
export function bridgeGrammarGaps(text: string, root: SyntaxNode): string | undefined {
  const chars = text.split('');
  let changed = false;
  const blank = (from: number, to: number): void => {
    for (let i = from; i < to; i++) if (chars[i] !== '\n') chars[i] = ' ';
    changed = true;
  };
  for (const error of syntaxErrors(root)) {
    const command = error.isMissing && error.parent?.type === 'command_name' ? error.parent.parent : error.parent;
    if (command?.type !== 'command' || command.firstNamedChild?.type !== 'variable_assignment') continue;
    // The grammar took the assignment and its redirections for the start of a command, and stumbled after them.
    const redirects = command.childrenForFieldName('redirect').filter((r): r is SyntaxNode => r !== null && r.endIndex <= error.startIndex);
    if (redirects.length === 0 || !redirects.every((r) => HARMLESS_REDIRECT.test(r.text))) continue;
    for (const redirect of redirects) blank(redirect.startIndex, redirect.endIndex);
  }
  // `${name:` or `${name[…]:` or `${1:`, not `:-`, `:=`, `:+`, `:?`; then its offset and length up to `}`, read in
  // one pass (a regular expression for it backtracked quadratically on a long unclosed one).
  const head = /\$\{(?:[A-Za-z_]\w*(?:\[[^\]\n]*\])?|\d+):(?![-=+?])/g;
  for (let match = head.exec(text); match; match = head.exec(text)) {
    const dollars: number[] = [];
    let at = match.index + match[0].length;
    for (; at < text.length && !'}`(\n'.includes(text[at]!); at++)
      if (text[at] === '$') {
        if (!/[A-Za-z_]/.test(text[at + 1] ?? '')) break;
        dollars.push(at);
      }
    if (text[at] !== '}') continue;
    for (const dollar of dollars) chars[dollar] = ' ';
    if (dollars.length) changed = true;
    head.lastIndex = at;
  }
  return changed ? chars.join('') : undefined;
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
