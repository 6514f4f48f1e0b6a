import { own } from '../records.js';
import { WRAPPERS } from './wrappers.js';
import { staticValue } from './static-value.js';
import { hasNodeMemo, nodeMemoStats, remembered, type MemoKind } from './node-memo.js';
import { nodesOfType, placedNodesOfType } from './node-index.js';
import type { SyntaxNode, SyntaxTree } from './parser.js';

const EXPANSIONS = ['simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion'];

/**
 * A word of a simple command as the shell would see it. `value` is its text
 * after quote removal when that is known before running (no expansion);
 * `start`/`end` are offsets in the script.
 */
export interface PlainWord {
  text: string;
  value: string | undefined;
  start: number;
  end: number;
}

/** A word of the hook's own syntax tree. */
export interface ShellWord extends PlainWord {
  node: SyntaxNode;
}

/** A simple command, whatever tree it was read from. */
export interface PlainCommand {
  /** The command name as written, or after a wrapper such as `sudo` or `env`. */
  name: PlainWord;
  args: PlainWord[];
  start: number;
  end: number;
  /** `sudo`, `env`, `nohup`, `find -exec`, … when this command is what a wrapper runs. */
  wrappedBy?: string;
  /** Bodies of here-documents fed to the command. */
  heredocs: string[];
}

/** A simple command of the hook's own syntax tree. */
export interface ShellCommand extends PlainCommand {
  name: ShellWord;
  args: ShellWord[];
}

/** `find`'s actions that run a command, up to a `;` or `+` word. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** Every simple command of a script, including those inside `$(...)`, subshells, pipelines and functions. */
export function collectCommands(root: SyntaxNode, text: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  // Most scripts have no here-document; then no command needs its parent looked up (a walk down from the root).
  const heredocs = nodesOfType(root, ['heredoc_body']).length > 0;
  // A command's here-documents are its statement's, outside its own subtree: such commands are not kept.
  const kept = !heredocs && hasNodeMemo(root.tree);
  if (kept) {
    for (const { node, start, end } of placedNodesOfType(root, ['command']))
      commands.push(
        ...placed(
          remembered(root.tree, 'commands', start, end, () => shapeOf(node, text)),
          node,
          text,
          root.tree,
        ),
      );
  } else {
    for (const node of nodesOfType(root, ['command'])) commands.push(...commandsOf(node, text, heredocs));
  }
  commands.sort((a, b) => a.start - b.start || a.end - b.end);
  return commands;
}

/** The simple commands one `command` node stands for: itself (split where misparsed) and what wrappers in it run. */
function commandsOf(node: SyntaxNode, text: string, mayHaveHeredocs: boolean): ShellCommand[] {
  const commands: ShellCommand[] = [];
  // What a wrapper of a hook's command runs is made of that command's words: it is a command of the tree too.
  for (const command of splitMisparsedCommand(node, text, mayHaveHeredocs))
    commands.push(command, ...(unwrapCommand(command) as ShellCommand[]));
  return commands;
}

/**
 * A command node's simple commands with offsets relative to the node's start
 * and without nodes: what an edited hook's next run reuses for a command whose
 * subtree tree-sitter kept. Words shared by a command and what its wrapper
 * runs are one entry of `words`, as they are one object in the commands.
 */
interface CommandShape {
  words: { text: string; value: string | undefined; start: number; end: number }[];
  commands: { name: number; args: number[]; start: number; end: number; wrappedBy?: string }[];
}

function shapeOf(node: SyntaxNode, text: string): CommandShape {
  const base = node.startIndex;
  const index = new Map<ShellWord, number>();
  const words: CommandShape['words'] = [];
  const at = (word: ShellWord): number => {
    let i = index.get(word);
    if (i === undefined) {
      index.set(word, (i = words.length));
      words.push({ text: word.text, value: word.value, start: word.start - base, end: word.end - base });
    }
    return i;
  };
  const commands = commandsOf(node, text, false).map((command) => ({
    name: at(command.name),
    args: command.args.map(at),
    start: command.start - base,
    end: command.end - base,
    ...(command.wrappedBy !== undefined ? { wrappedBy: command.wrappedBy } : {}),
  }));
  return { words, commands };
}

/** A kept shape at its node's place in this tree; the words' nodes are found again only when a rule reads one. */
function placed(shape: CommandShape, node: SyntaxNode, text: string, tree: SyntaxTree): ShellCommand[] {
  const base = node.startIndex;
  let nodes: SyntaxNode[] | undefined;
  // The same subtree gives the same commands, words in the same order: the i-th word's node is the i-th of a fresh run.
  const nodeOf = (i: number): SyntaxNode => {
    if (!nodes) {
      nodeMemoStats.refound++;
      const seen = new Set<ShellWord>();
      nodes = [];
      for (const command of commandsOf(node, text, false))
        for (const word of [command.name, ...command.args])
          if (!seen.has(word)) {
            seen.add(word);
            nodes.push(word.node);
          }
    }
    return nodes[i]!;
  };
  const words = shape.words.map((w, i) => new PlacedWord(w.text, w.value, base + w.start, base + w.end, tree, nodeOf, i));
  return shape.commands.map((c) => {
    const command: ShellCommand = {
      name: words[c.name]!,
      args: c.args.map((i) => words[i]!),
      start: base + c.start,
      end: base + c.end,
      heredocs: [],
    };
    if (c.wrappedBy !== undefined) command.wrappedBy = c.wrappedBy;
    return command;
  });
}

class PlacedWord implements ShellWord {
  readonly #nodeOf: (index: number) => SyntaxNode;
  readonly #index: number;
  readonly #tree: SyntaxTree;

  constructor(
    readonly text: string,
    readonly value: string | undefined,
    readonly start: number,
    readonly end: number,
    tree: SyntaxTree,
    nodeOf: (index: number) => SyntaxNode,
    index: number,
  ) {
    this.#tree = tree;
    this.#nodeOf = nodeOf;
    this.#index = index;
  }

  get node(): SyntaxNode {
    return this.#nodeOf(this.#index);
  }

  remembered<T>(kind: MemoKind, compute: () => T): T {
    return remembered(this.#tree, kind, this.start, this.end, compute);
  }
}

/**
 * The answer of `compute`, which must read only the word's own node and text,
 * kept for an editor's next run when the word is one of a kept command.
 */
export function rememberedForWord<T>(word: ShellWord, kind: MemoKind, compute: () => T): T {
  return word instanceof PlacedWord ? word.remembered(kind, compute) : compute();
}

/**
 * tree-sitter-bash parses `a | b | c` followed on the next line by an `&&`
 * list as one command whose arguments run on past the line break, without
 * an error node. In bash an unescaped newline always ends a simple command,
 * so the words after it start a new one; splitting there undoes the misparse.
 */
function splitMisparsedCommand(node: SyntaxNode, text: string, mayHaveHeredocs: boolean): ShellCommand[] {
  const name = node.childForFieldName('name');
  if (!name) return [];
  // Each position read from a node is a call into WASM: read once.
  const words = [name, ...node.childrenForFieldName('argument').filter((n): n is SyntaxNode => n !== null)]
    .map((n) => ({ node: n, start: wordStart(text, n.startIndex, n.endIndex), end: n.endIndex }))
    .sort((a, b) => a.start - b.start);
  const heredocs = mayHaveHeredocs ? heredocBodies(node) : [];
  const groups: (typeof words)[] = [];
  let current: typeof words = [];
  for (const word of words) {
    const previous = current[current.length - 1];
    if (previous && hasUnescapedNewline(text, previous.end, word.start)) {
      groups.push(current);
      current = [];
    }
    current.push(word);
  }
  if (current.length) groups.push(current);
  return groups.map((group) => {
    const [first, ...rest] = group as [(typeof words)[number], ...typeof words];
    const inner = first.node.type === 'command_name' ? first.node.firstNamedChild : null;
    return {
      name: inner ? toWord(inner, text) : toWord(first.node, text, first.start, first.end),
      args: rest.map((w) => toWord(w.node, text, w.start, w.end)),
      start: first.start,
      end: group[group.length - 1]!.end,
      heredocs,
    };
  });
}

/**
 * Where a word really starts. After a line that ends in a word, tree-sitter-bash
 * starts a word that begins with a backslash (`\rm`) at the line break
 * before it, and keeps it in that line's command; an unescaped blank never
 * starts a word, so it is skipped, and the line break then splits the command.
 */
function wordStart(text: string, start: number, end: number): number {
  while (start < end - 1 && (text[start] === '\n' || text[start] === ' ' || text[start] === '\t' || text[start] === '\r')) start++;
  return start;
}

function hasUnescapedNewline(text: string, from: number, to: number): boolean {
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) {
    let backslashes = 0;
    for (let j = i - 1; j >= from && (text[j] === '\\' || text[j] === '\r'); j--) if (text[j] === '\\') backslashes++;
    if (backslashes % 2 === 0) return true;
  }
  return false;
}

function heredocBodies(command: SyntaxNode): string[] {
  const statement = command.parent;
  if (statement?.type !== 'redirected_statement') return [];
  return nodesOfType(statement, ['heredoc_body']).map((n) => n.text);
}

/** The commands a wrapper runs: `sudo rm -rf x` also yields `rm -rf x`. */
export function unwrapCommand(command: PlainCommand): PlainCommand[] {
  const base = command.name.value !== undefined ? basename(command.name.value) : undefined;
  if (base === 'find') return findActions(command).flatMap((inner) => [inner, ...unwrapCommand(inner)]);
  const spec = base !== undefined ? own(WRAPPERS, base) : undefined;
  if (!spec) return [];
  let index = 0;
  let positional = spec.positional ?? 0;
  const args = command.args;
  while (index < args.length) {
    const value = args[index]!.value;
    if (value === undefined) break;
    if (value === '--') {
      index++;
      break;
    }
    if (value.startsWith('-') && value.length > 1) {
      if (spec.lookupOptions?.test(value)) return [];
      index += takesNextWord(value, spec.optionsWithValue) ? 2 : 1;
      continue;
    }
    if (base === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
      index++;
      continue;
    }
    if (positional > 0) {
      positional--;
      index++;
      continue;
    }
    break;
  }
  const inner = args[index];
  if (!inner) return [];
  const unwrapped: PlainCommand = {
    name: inner,
    args: args.slice(index + 1),
    start: inner.start,
    end: command.end,
    wrappedBy: basename(command.name.value!),
    heredocs: command.heredocs,
  };
  return [unwrapped, ...unwrapCommand(unwrapped)];
}

/**
 * Whether the option word is followed by its value as the next word, as
 * getopt_long reads it: a long option (or an unambiguous prefix of one, as in
 * `sudo --us root`) without `=`, or a cluster of short options whose first
 * that takes a value ends the word (`sudo -Eu root`).
 */
export function takesNextWord(option: string, withValue: readonly string[]): boolean {
  if (option.startsWith('--')) return !option.includes('=') && withValue.some((o) => o.startsWith('--') && o.startsWith(option));
  for (let i = 1; i < option.length; i++) if (withValue.includes(`-${option.charAt(i)}`)) return i === option.length - 1;
  return false;
}

/** The commands `find … -exec CMD ARGS… ;` (or `+`, `-execdir`, `-ok`) runs, one per action. */
function findActions(command: PlainCommand): PlainCommand[] {
  const actions: PlainCommand[] = [];
  const args = command.args;
  for (let i = 0; i < args.length - 1; i++) {
    const value = args[i]!.value;
    if (value === undefined || !FIND_EXEC.has(value)) continue;
    let last = i + 1;
    while (last < args.length && args[last]!.value !== ';' && args[last]!.value !== '+') last++;
    const inner = args[i + 1]!;
    const end = last < args.length ? args[last - 1]!.end : command.end;
    actions.push({ name: inner, args: args.slice(i + 2, last), start: inner.start, end, wrappedBy: 'find', heredocs: [] });
    i = last;
  }
  return actions;
}

export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

// Each property of a tree-sitter node is a call into WASM: read each once (callers that have the positions pass them).
export function toWord(node: SyntaxNode, text: string, start = node.startIndex, end = node.endIndex): ShellWord {
  const wordText = text.slice(start, end);
  return { text: wordText, value: staticValue(node, wordText), start, end, node };
}

/** Does the word contain a parameter expansion or command substitution anywhere? */
export function hasExpansion(node: SyntaxNode): boolean {
  return nodesOfType(node, EXPANSIONS).length > 0;
}
