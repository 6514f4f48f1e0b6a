import type { SyntaxTree } from './parser.js';

/** The questions whose answers are kept; each answer depends only on the node's own subtree and text. */
export type MemoKind =
  /** A `command` node's simple commands (src/shell/commands.ts). */
  | 'commands'
  /** The variable an expansion reads (src/shell/analysis.ts). */
  | 'variable'
  /** A command word's memory key, normalised (src/runtime/memory-calls.ts): the value word, or `--key=…`. */
  | 'memory-key'
  | 'memory-key-joined'
  /** The names of the variables a command word reads. */
  | 'word-variables'
  /** The JSON text a word builds, if it builds one with expansions (json-spliced-value). */
  | 'json-text'
  /** The places of a command's words and their parts, which the shell splits (src/shell/analysis.ts). */
  | 'split-words'
  /** The path a file redirect names (path-outside-workspace). */
  | 'redirect-path';

/** An edit in offsets of the new text: `[start, oldEnd)` of the old text became `[start, newEnd)`. */
export interface TextEdit {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/**
 * Answers about nodes that an editor's next parse of the same hook reuses.
 * When a tree is parsed incrementally from the last one, tree-sitter says
 * which ranges' syntactic structure changed; a node outside them and outside
 * the edited text is the node of the old tree at the same place (moved by
 * the edit when after it) with the same subtree and the same text, so an
 * answer that reads only those, in offsets relative to the node's start,
 * holds for it. Answers are keyed by kind, start and end (the callers ask
 * each kind about nodes of a few types, of which no two share a range).
 * (Node ids would not do: the shell grammar's ambiguities make most
 * commands "fragile", re-created on every parse, even where nothing changed.)
 * Without a memo (the CLI) every answer is computed.
 */
class NodeMemo {
  /** Answers about nodes of this tree, by kind and place (`key(start, end)`). */
  readonly current = new Map<MemoKind, Map<number, unknown>>();

  constructor(
    /** Answers about nodes of the tree this one was parsed from, in that tree's offsets. */
    private readonly prior?: Map<MemoKind, Map<number, unknown>>,
    private readonly edit?: TextEdit,
    /** Where the structure changed, in this tree's offsets. */
    private readonly changed: readonly { start: number; end: number }[] = [],
  ) {}

  get<T>(kind: MemoKind, start: number, end: number, compute: () => T): T {
    const key = placeKey(start, end);
    if (key === undefined) return compute();
    let own = this.current.get(kind);
    if (!own) this.current.set(kind, (own = new Map<number, unknown>()));
    if (own.has(key)) return own.get(key) as T;
    const prior = this.prior?.get(kind);
    const before = prior && this.priorKey(start, end);
    let value: T;
    if (prior && before !== undefined && prior.has(before)) {
      value = prior.get(before) as T;
      nodeMemoStats.reused++;
    } else {
      value = compute();
    }
    own.set(key, value);
    return value;
  }

  /** The key of the same node in the tree this one was parsed from, if the node can be the same one. */
  private priorKey(start: number, end: number): number | undefined {
    const edit = this.edit;
    if (!edit) return undefined;
    // Touching the edit or a changed range counts as overlapping it.
    for (const range of this.changed) if (range.start <= end && start <= range.end) return undefined;
    if (end < edit.start) return placeKey(start, end);
    const shift = edit.newEnd - edit.oldEnd;
    if (start > edit.newEnd) return placeKey(start - shift, end - shift);
    return undefined;
  }
}

/**
 * How many answers were kept from a last run (the differential test checks that reuse happens), and how
 * many kept commands had their words' nodes found again because a rule asked for one (a walk of the
 * command's subtree each: what an edit of one line should not do for every command of its hook).
 */
export const nodeMemoStats = { reused: 0, refound: 0 };

/** Offsets below this have a key of their own (a hook of 64 MiB); nothing is kept about nodes beyond. */
const PLACES = 0x4000000;

/** One number for a node's place, or undefined past the offsets that have one. */
export function placeKey(start: number, end: number): number | undefined {
  return end < PLACES ? start * PLACES + end : undefined;
}

const memos = new WeakMap<SyntaxTree, NodeMemo>();

/** Starts keeping answers about the nodes of a tree parsed from scratch. */
export function startNodeMemo(tree: SyntaxTree): void {
  memos.set(tree, new NodeMemo());
}

/**
 * Carries what was found on `old`'s nodes to `tree`, parsed incrementally
 * from it after `old.edit(…)`; call before `old` is freed (tree-sitter
 * compares the two trees).
 */
export function carryNodeMemo(old: SyntaxTree, tree: SyntaxTree, edit: TextEdit): void {
  const changed = old.getChangedRanges(tree).map((range) => ({ start: range.startIndex, end: range.endIndex }));
  memos.set(tree, new NodeMemo(memos.get(old)?.current, edit, changed));
  memos.delete(old);
}

/** Whether answers about this tree's nodes are kept (an editor's hook), so that computing them in a reusable form pays. */
export function hasNodeMemo(tree: SyntaxTree): boolean {
  return memos.has(tree);
}

/** The answer of `compute` for the node of `tree` at `[start, end)`, kept with the tree when it has a memo. */
export function remembered<T>(tree: SyntaxTree, kind: MemoKind, start: number, end: number, compute: () => T): T {
  const memo = memos.get(tree);
  return memo ? memo.get(kind, start, end, compute) : compute();
}
