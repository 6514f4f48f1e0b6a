import { basename, type PlainCommand, type PlainWord, type ShellCommand, type ShellWord } from './commands.js';
import { hasNodeMemo, placeKey, remembered } from './node-memo.js';
import { nodesOfType, placedNodesOfType } from './node-index.js';
import type { SyntaxNode } from './parser.js';
import { own } from '../records.js';

/**
 * Questions the shell rules ask of the tree-sitter AST and the simple
 * commands: which variable an expansion reads, whether it is quoted, what a
 * command's options are. Each answer comes from node types, never from
 * patterns over the script text.
 */

const EXPANSION_TYPES = ['simple_expansion', 'expansion'] as const;

/** Every node of the given types under `root` (the root included), in document order. */
export { nodesOfType };

export interface VariableUse {
  name: string;
  /** The `$X` or `${X...}` node. */
  node: SyntaxNode;
  /** The operator of `${X:-y}`, `${X#p}`, `${#X}`… or undefined for a plain read. */
  operator: string | undefined;
  /** `${#X}`: the length, a number whatever X holds. */
  length: boolean;
}

/** The variable a `$X` / `${X…}` node reads, or undefined for `$1`, `$@`, `$?`, `${!ref}`… */
export function variableUse(node: SyntaxNode): VariableUse | undefined {
  // Each property of a node is a call into WASM: each is read once.
  const type = node.type;
  if (type !== 'simple_expansion' && type !== 'expansion') return undefined;
  return readVariableUse(node);
}

/** `variableUse` of a node known to be an expansion. */
function readVariableUse(node: SyntaxNode): VariableUse | undefined {
  let nameNode: SyntaxNode | undefined;
  let nameType: string | undefined;
  let length = false;
  let indirect = false;
  let operator: string | undefined;
  for (const child of node.children) {
    if (!child) continue;
    const childType = child.type;
    if (!nameNode && (childType === 'variable_name' || childType === 'subscript')) {
      nameNode = childType === 'subscript' ? (child.childForFieldName('name') ?? undefined) : child;
      nameType = childType === 'subscript' ? nameNode?.type : childType;
      continue;
    }
    if (childType === '$' || childType === '${' || childType === '}' || child.isNamed) continue;
    if (!nameNode) {
      if (childType === '#') length = true;
      if (childType === '!') indirect = true;
    } else {
      operator ??= childType;
    }
  }
  if (!nameNode || indirect || nameType !== 'variable_name') return undefined;
  return { name: nameNode.text, node, operator, length };
}

const usesByTree = new WeakMap<SyntaxNode['tree'], Map<number, readonly VariableUse[]>>();

/**
 * Every variable read under `root`, in document order. Several rules ask it
 * of every hook's root; the answer is kept with the tree (the same array,
 * so what is derived from it can be kept too).
 */
export function variableUses(root: SyntaxNode): readonly VariableUse[] {
  let byRoot = usesByTree.get(root.tree);
  if (!byRoot) usesByTree.set(root.tree, (byRoot = new Map<number, readonly VariableUse[]>()));
  let uses = byRoot.get(root.id);
  if (!uses) {
    const tree = root.tree;
    const found: VariableUse[] = [];
    const kept = hasNodeMemo(tree);
    for (const { node, start, end } of placedNodesOfType(root, EXPANSION_TYPES)) {
      if (!kept) {
        const use = readVariableUse(node);
        if (use) found.push(use);
        continue;
      }
      // An editor's next run asks again about the expansions the edit left alone.
      const use = remembered(tree, 'variable', start, end, () => {
        const read = readVariableUse(node);
        return read && { name: read.name, operator: read.operator, length: read.length };
      });
      if (use) found.push({ name: use.name, node, operator: use.operator, length: use.length });
    }
    uses = found;
    byRoot.set(root.id, uses);
  }
  return uses;
}

/** Operators of `${X…}` that give a value when X is unset (the author handled its absence). */
export const DEFAULT_OPERATORS = new Set([':-', '-', ':=', '=', ':?', '?', ':+', '+']);

/**
 * Is the expansion subject to word splitting and globbing as a word of a
 * simple command (its name or an argument, or a `for … in` list)? False when
 * double quotes, an assignment, `[[ ]]`, arithmetic or a here-document
 * protect it.
 */
export function isSplitInCommand(expansion: SyntaxNode): boolean {
  const tree = expansion.tree;
  // An editor's hook: every answer at once, top-down (reading a node's parent makes tree-sitter search
  // for it from the root), each command's kept for the next run when the edit left the command alone.
  if (hasNodeMemo(tree)) {
    let places = splitPlacesByTree.get(tree);
    if (places === undefined) splitPlacesByTree.set(tree, (places = tree.rootNode.hasError ? null : splitPlaces(tree)));
    const key = placeKey(expansion.startIndex, expansion.endIndex);
    if (places && key !== undefined) return places.has(key);
  }
  // Inside a region the grammar could not read, its quotes may be paired wrongly (a `"` inside `$(…)` inside
  // `${x:+…}`): what looks unquoted there may well be quoted, so nothing there is called split.
  if (tree.rootNode.hasError && insideError(expansion)) return false;
  return isSplitUpwards(expansion);
}

function insideError(node: SyntaxNode): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) if (parent.type === 'ERROR') return true;
  return false;
}

/** Null for a tree with errors, where a command name can stand without its command. */
const splitPlacesByTree = new WeakMap<SyntaxNode['tree'], Set<number> | null>();

/**
 * The places (`placeKey`) of the nodes `isSplitUpwards` says yes to, in a
 * tree without errors: the children of a command or of its name, the values
 * of a `for` list, and the parts of concatenations among those. Only expansions are asked about, and
 * no other node shares an expansion's place but a command name that is
 * nothing but the expansion, which gets the same answer.
 */
function splitPlaces(tree: SyntaxNode['tree']): Set<number> {
  const places = new Set<number>();
  const root = tree.rootNode;
  for (const { node, start, end } of placedNodesOfType(root, ['command'])) {
    const relative = remembered(tree, 'split-words', start, end, () => {
      const found: number[] = [];
      splitParts(node.children, start, found);
      return found;
    });
    addPlaces(places, relative, start);
  }
  for (const loop of nodesOfType(root, ['for_statement'])) {
    const found: number[] = [];
    splitParts(loop.childrenForFieldName('value'), 0, found);
    addPlaces(places, found, 0);
  }
  for (const node of nodesOfType(root, ['array', 'test_command', 'file_redirect'])) {
    const found: number[] = [];
    if (node.type === 'array') splitParts(node.children, 0, found);
    else if (node.type === 'file_redirect') splitParts([node.childForFieldName('destination')], 0, found);
    else if (node.firstChild?.type === '[') testOperands(node, found);
    addPlaces(places, found, 0);
  }
  return places;
}

/** The operands of a `[ … ]` test, which the shell splits as a command's words (`[[ … ]]` does not split). */
function testOperands(node: SyntaxNode, found: number[]): void {
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (TEST_EXPRESSIONS.has(child.type)) testOperands(child, found);
    else splitParts([child], 0, found);
  }
}

/** The nodes a `[ … ]` test's expression is built of, between the test and its operands. */
const TEST_EXPRESSIONS = new Set(['binary_expression', 'unary_expression', 'parenthesized_expression', 'negated_expression']);

/** Adds the places of the `[start, end)` pairs in `offsets`, which are relative to `base`. */
function addPlaces(places: Set<number>, offsets: readonly number[], base: number): void {
  for (let i = 0; i < offsets.length; i += 2) {
    const key = placeKey(base + offsets[i]!, base + offsets[i + 1]!);
    if (key !== undefined) places.add(key);
  }
}

/** Adds the offsets (less `base`) of each node and, through command names and concatenations, of their parts. */
function splitParts(nodes: readonly (SyntaxNode | null)[], base: number, found: number[]): void {
  for (const node of nodes) {
    if (!node) continue;
    const start = node.startIndex;
    found.push(start - base, node.endIndex - base);
    const type = node.type;
    if (type === 'concatenation' || type === 'command_name') splitParts(node.children, base, found);
  }
}

function isSplitUpwards(expansion: SyntaxNode): boolean {
  let child = expansion;
  for (let parent = expansion.parent; parent; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case 'concatenation':
        continue;
      case 'binary_expression':
      case 'unary_expression':
      case 'parenthesized_expression':
      case 'negated_expression':
        // An operand of a test (`[ $A = x ]`, answered at the test); elsewhere (`$(( … ))`) the walk ends unsplit.
        continue;
      case 'command_name':
      case 'command':
      case 'array':
        return true;
      case 'for_statement':
        return parent.childrenForFieldName('value').some((v) => v?.id === child.id);
      case 'test_command':
        return parent.firstChild?.type === '[';
      case 'file_redirect':
        // `> $F`: bash splits and globs a redirect's target (two words are an "ambiguous redirect").
        return parent.childForFieldName('destination')?.id === child.id;
      default:
        return false;
    }
  }
  return false;
}

/** The words after the command name that are not options; `--` ends the options. */
export function positionalArgs<W extends PlainWord>(command: { args: readonly W[] }): W[] {
  const result: W[] = [];
  let optionsDone = false;
  for (const arg of command.args) {
    if (!optionsDone && arg.value === '--') {
      optionsDone = true;
      continue;
    }
    if (!optionsDone && arg.value?.startsWith('-') && arg.value.length > 1) continue;
    result.push(arg);
  }
  return result;
}

export interface OptionValue {
  /** The option word itself (`--key` or `--key=…`). */
  option: ShellWord;
  /** The value's word; for `--key=v` the same word as `option`. */
  word: ShellWord;
  /** The static value (after `=` for the joined form), when known. */
  value: string | undefined;
  /** Offset in the script where the value's text begins. */
  start: number;
}

/** `--name value` or `--name=value` of a command; the last one wins, as with most CLIs. */
export function optionValue(command: ShellCommand, name: string): OptionValue | undefined {
  let found: OptionValue | undefined;
  command.args.forEach((arg, index) => {
    if (arg.value === name) {
      const next = command.args[index + 1];
      if (next) found = { option: arg, word: next, value: next.value, start: next.start };
      else found = { option: arg, word: arg, value: undefined, start: arg.end };
    } else if (arg.value?.startsWith(`${name}=`) || (arg.value === undefined && arg.text.startsWith(`${name}=`))) {
      const value = arg.value?.slice(name.length + 1);
      found = { option: arg, word: arg, value, start: arg.start + name.length + 1 };
    }
  });
  return found;
}

/** The command's name as the shell resolves it (`/usr/bin/curl` → `curl`), or undefined when computed. */
/** bash's `echo` options: its leading words made of `-` and `n`, `e`, `E` only (`-ne`, `-n -e`); the first other word ends them. */
export function echoOptions<W extends PlainWord>(args: readonly W[]): W[] {
  let count = 0;
  while (count < args.length && /^-[neE]+$/.test(args[count]!.value ?? '')) count++;
  return args.slice(0, count);
}

export function commandBase(command: Pick<PlainCommand, 'name'>): string | undefined {
  return command.name.value === undefined ? undefined : basename(command.name.value);
}

/**
 * The literal text of a word with every expansion replaced by `placeholder`:
 * quotes removed, `\"` unescaped inside double quotes. Lets a rule see the
 * shape of what a word builds (`{"task":"␀"}`) without guessing at values.
 */
export function wordTemplate(node: SyntaxNode, placeholder = '\u0000'): { text: string; expansions: SyntaxNode[] } {
  const expansions: SyntaxNode[] = [];
  const visit = (n: SyntaxNode, quoted: boolean): string => {
    switch (n.type) {
      case 'raw_string':
        return n.text.slice(1, -1);
      case 'ansi_c_string':
        return n.text.slice(2, -1);
      case 'string_content':
        return n.text.replace(/\\([$`"\\\n])/g, '$1');
      case 'simple_expansion':
      case 'expansion':
      case 'command_substitution':
      case 'arithmetic_expansion':
      case 'process_substitution':
        expansions.push(n);
        return placeholder;
      case 'heredoc_body': {
        // Literal text between the expansions of a here-document is not always a node of its own.
        let text = '';
        let at = n.startIndex;
        for (const child of n.namedChildren) {
          if (!child) continue;
          text += n.text.slice(at - n.startIndex, child.startIndex - n.startIndex);
          text += child.type === 'heredoc_content' ? child.text : visit(child, true);
          at = child.endIndex;
        }
        return text + n.text.slice(at - n.startIndex);
      }
      case 'string':
      case 'concatenation': {
        let text = '';
        for (const child of n.children) {
          if (!child) continue;
          if (n.type === 'string' && !child.isNamed) continue;
          text += child.isNamed ? visit(child, quoted || n.type === 'string') : child.text;
        }
        return text;
      }
      default:
        return quoted ? n.text : n.text.replace(/\\(.)/gs, '$1');
    }
  };
  return { text: visit(node, false), expansions };
}

/** Interpreters and the options that give them a program on the command line (`python3 -c '…'`, `node -e '…'`). */
export const INLINE_PROGRAM_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  python3: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  nodejs: ['-e', '--eval', '-p', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
};

/** The words an interpreter is given as programs (the word after each `-c`, `-e`, …); none for another command. */
export function inlineProgramWords<W extends PlainWord>(command: { name: PlainWord; args: readonly W[] }): W[] {
  const base = commandBase(command);
  const options = base === undefined ? undefined : own(INLINE_PROGRAM_OPTIONS, base);
  if (!options) return [];
  return command.args.flatMap((arg, i) => {
    const next = command.args[i + 1];
    return arg.value !== undefined && options.includes(arg.value) && next ? [next] : [];
  });
}

/** Shells whose `-c` argument is a script. */
export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);

/** The shell a command is: `bash`, `sh`, … by name, or `$SHELL` for the user's own (`"${SHELL}" -c '…'`). */
export function shellName(command: PlainCommand): string | undefined {
  const base = commandBase(command);
  if (base !== undefined) return SHELLS.has(base) ? base : undefined;
  return /^"?\$(?:SHELL|\{SHELL\})"?$/.test(command.name.text) ? '$SHELL' : undefined;
}

/** Whether a program named by its path is a shell: `bash`, `/bin/sh`, … */
export function isShellProgram(path: string): boolean {
  return SHELLS.has(basename(path));
}

/** The script argument of `bash -c SCRIPT` (also `-ec`, `-lc`, `-o pipefail -c`, `$SHELL -c`), if any. */
export function shellScriptArgument<C extends PlainCommand>(command: C): C['args'][number] | undefined {
  if (!shellName(command)) return undefined;
  const index = shellScriptIndex(command.args.length, (i) => command.args[i]!.value);
  return index === undefined ? undefined : command.args[index];
}

/**
 * Of a shell's `count` arguments (`valueAt` their values, undefined where known
 * only at run time), the index of the script its `-c` runs: the options are
 * read up to the first that is not one (`-o`/`-O` take a value).
 */
export function shellScriptIndex(count: number, valueAt: (index: number) => string | undefined): number | undefined {
  for (let i = 0; i < count; i++) {
    const value = valueAt(i);
    if (value === undefined || !value.startsWith('-') || value === '-' || value === '--') return undefined;
    if (value === '-o' || value === '+o' || value === '-O' || value === '+O') {
      i++;
      continue;
    }
    if (!value.startsWith('--') && value.slice(1).includes('c')) return i + 1 < count ? i + 1 : undefined;
  }
  return undefined;
}

/** The innermost enclosing node of one of the types, or undefined. */
export function enclosing(node: SyntaxNode, types: readonly string[]): SyntaxNode | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) if (types.includes(parent.type)) return parent;
  return undefined;
}
