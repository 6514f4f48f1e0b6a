import type { Range } from '../diagnostics.js';
import type { HookScript } from '../hooks/types.js';
import type { ScriptSourceMap } from '../hooks/source-map.js';
import { collectCommands } from '../shell/commands.js';
import { carryNodeMemo, startNodeMemo } from '../shell/node-memo.js';
import { parseShell, type loadShellParser, type SyntaxTree } from '../shell/parser.js';
import type { AnalysedHook, Report, Rule } from './rule.js';

type Parser = Awaited<ReturnType<typeof loadShellParser>>;
export type AnalysedItem = AnalysedHook & { map: ScriptSourceMap };
export interface ScriptReport {
  rule: Rule<unknown>;
  report: Report;
}

/** One hook of the last run: its tree and commands, and what each script rule reported on it. */
interface Entry {
  text: string;
  tree: SyntaxTree;
  commands: AnalysedHook['commands'];
  /** Where the hook stands in the file; a rule that read it is run again when it moved. */
  position: string;
  byRule: Map<Rule<unknown>, { reports: Report[]; positional: boolean }>;
}

/**
 * What one document's lints share from one run to the next, for an editor
 * that lints the same buffer at every pause in the typing. A hook is known
 * by everything about it except its text and its place in the file (its
 * name, runtime, quoting, Claude Code entry). Its tree is kept: the same text
 * reuses it, a changed text is parsed incrementally from it (tree-sitter
 * re-reads only the edited stretch). A script rule's reports on it are kept
 * in script positions and mapped into the file again at each run, so they
 * follow the hook when text above it moves; a rule that read where the hook
 * stands (its ranges, segments, or file positions through `mapRange`) is run
 * again whenever that changed. File-level work (the YAML, profile and
 * cross-hook rules, suppressions) is always done again.
 *
 * Only the previous run is remembered: a session holds the trees of one
 * document, never a history.
 */
export class LintSession {
  private entries = new Map<string, Entry>();
  private next = new Map<string, Entry>();
  /** Trees made for a hook that another hook of the same identity already claimed in this run. */
  private strays: SyntaxTree[] = [];
  private settings = '';
  private closed = false;
  /** How often each kind of reuse happened (the differential test checks that it does). */
  readonly stats = { keptTrees: 0, incrementalParses: 0, keptReports: 0 };

  /**
   * Starts a run. Reports are kept per rule object, and only under the same
   * configuration (rules' options include the whole configuration).
   */
  begin(settings: unknown): void {
    // A run that threw left its hooks half-claimed: what it parsed is freed, the rest stays reusable.
    for (const entry of this.next.values()) entry.tree.delete();
    for (const tree of this.strays) tree.delete();
    this.next = new Map();
    this.strays = [];
    const key = JSON.stringify(settings);
    if (key !== this.settings) for (const entry of this.entries.values()) entry.byRule.clear();
    this.settings = key;
  }

  /** The hook's tree and commands: kept, or parsed from the last tree of the same hook. */
  analyse(hook: HookScript, map: ScriptSourceMap, parser: Parser): AnalysedItem {
    const id = identity(hook);
    const position = positionOf(hook);
    const last = this.entries.get(id);
    let entry: Entry;
    if (this.next.has(id)) {
      const tree = parseShell(parser, hook.text);
      this.strays.push(tree);
      return analysedItem(hook, map, tree);
    }
    if (last && last.text === hook.text) {
      this.stats.keptTrees++;
      entry = { ...last, position };
      if (last.position !== position) {
        entry.byRule = new Map([...last.byRule].filter(([, kept]) => !kept.positional));
      }
      this.entries.delete(id);
    } else {
      let tree: SyntaxTree;
      if (last) {
        const edit = editBetween(last.text, hook.text);
        last.tree.edit(edit);
        tree = parseShell(parser, hook.text, last.tree);
        this.stats.incrementalParses++;
        carryNodeMemo(last.tree, tree, { start: edit.startIndex, oldEnd: edit.oldEndIndex, newEnd: edit.newEndIndex });
        last.tree.delete();
        this.entries.delete(id);
      } else {
        tree = parseShell(parser, hook.text);
        startNodeMemo(tree);
      }
      entry = { text: hook.text, tree, commands: collectCommands(tree.rootNode, hook.text), position, byRule: new Map() };
    }
    this.next.set(id, entry);
    return analysedItem(hook, map, entry.tree, entry.commands);
  }

  /** The reports of the script rules on one hook, in the order the rules are given: kept, or found by running the rule. */
  scriptReports(analysed: AnalysedItem, rules: readonly Rule<unknown>[], optionsOf: ReadonlyMap<string, unknown>): ScriptReport[] {
    const entry = this.next.get(identity(analysed.hook));
    const own = entry && entry.tree === analysed.tree ? entry : undefined;
    const out: ScriptReport[] = [];
    // One watched copy of the hook for all its rules; `positional` is reset before each rule.
    const watch = { positional: false };
    const read = (): void => {
      watch.positional = true;
    };
    const context = { ...analysed, hook: watchedHook(analysed.hook, read), mapRange: (range: Range) => (read(), analysed.mapRange(range)) };
    for (const rule of rules) {
      let kept = own?.byRule.get(rule);
      if (!kept) {
        const reports: Report[] = [];
        watch.positional = false;
        rule.checkScript!({ ...context, options: optionsOf.get(rule.id), report: (report) => reports.push(report) });
        kept = { reports, positional: watch.positional };
        own?.byRule.set(rule, kept);
      } else {
        this.stats.keptReports++;
      }
      for (const report of kept.reports) out.push({ rule, report });
    }
    return out;
  }

  /** Ends a run: the trees of hooks that are gone are freed, and this run's hooks are what the next one reuses. */
  end(): void {
    for (const entry of this.entries.values()) entry.tree.delete();
    for (const tree of this.strays) tree.delete();
    this.entries = this.next;
    this.next = new Map();
    this.strays = [];
    // A run still under way when the document closed keeps nothing.
    if (this.closed) this.dispose();
  }

  /** Frees every tree and keeps nothing from now on (the document was closed). */
  dispose(): void {
    this.closed = true;
    this.clear();
  }

  /** Frees every tree (the document is no longer linted, for now). */
  clear(): void {
    for (const entry of [...this.entries.values(), ...this.next.values()]) entry.tree.delete();
    for (const tree of this.strays) tree.delete();
    this.entries = new Map();
    this.next = new Map();
    this.strays = [];
  }

  /** Whether the session frees this tree (the engine frees the others). */
  owns(tree: SyntaxTree): boolean {
    return this.strays.includes(tree) || [...this.next.values()].some((entry) => entry.tree === tree);
  }
}

/** The script rules' reports on one hook, with or without a session. */
export function scriptReports(
  analysed: AnalysedItem,
  rules: readonly Rule<unknown>[],
  optionsOf: ReadonlyMap<string, unknown>,
  session: LintSession | undefined,
): ScriptReport[] {
  if (session) return session.scriptReports(analysed, rules, optionsOf);
  const out: ScriptReport[] = [];
  // One context for all of the hook's rules, `report` crediting the rule that runs: a copy per rule
  // was about 5% of the CPU of a corpus lint.
  let current = rules[0]!;
  const context = {
    ...analysed,
    options: undefined as unknown,
    report: (report: ScriptReport['report']) => out.push({ rule: current, report }),
  };
  for (const rule of rules) {
    current = rule;
    context.options = optionsOf.get(rule.id);
    rule.checkScript!(context);
  }
  return out;
}

const POSITIONAL = ['keyRange', 'valueRange', 'segments'] as const;

/** The hook with its positional fields behind getters that tell when they are read. */
function watchedHook(hook: HookScript, read: () => void): HookScript {
  const copy: HookScript = { ...hook };
  for (const key of POSITIONAL) {
    Object.defineProperty(copy, key, {
      enumerable: true,
      get: () => {
        read();
        return hook[key];
      },
    });
  }
  if (hook.claudeCode) {
    const claudeCode = { ...hook.claudeCode };
    Object.defineProperty(claudeCode, 'fields', {
      enumerable: true,
      get: () => {
        read();
        return hook.claudeCode!.fields;
      },
    });
    copy.claudeCode = claudeCode;
  }
  return copy;
}

/** Everything about a hook that script rules may read, except its text and where it stands. */
function identity(hook: HookScript): string {
  const { text: _text, keyRange: _k, valueRange: _v, segments: _s, claudeCode, ...rest } = hook;
  if (!claudeCode) return JSON.stringify(rest);
  // `argSegments` are positions, and stand in an exec-form hook's `segments` too (positionOf).
  const { fields: _f, argSegments: _a, ...meta } = claudeCode;
  return JSON.stringify([rest, meta]);
}

function positionOf(hook: HookScript): string {
  return JSON.stringify([hook.keyRange, hook.valueRange, hook.segments, hook.claudeCode?.fields]);
}

/** A hook with what the script rules read of it: its tree, its commands, and its script and file positions. */
export function analysedItem(
  hook: HookScript,
  map: ScriptSourceMap,
  tree: SyntaxTree,
  commands: AnalysedHook['commands'] = collectCommands(tree.rootNode, hook.text),
): AnalysedItem {
  const scriptLines = map.scriptLines;
  return {
    hook,
    tree,
    map,
    commands,
    range: (start, end) => scriptLines.rangeOf(start, end),
    mapRange: (range) => map.mapRange(range).range,
  };
}

/** The edit that turns `before` into `after`, as one span between their common prefix and suffix (UTF-16 units, as the parser counts). */
function editBetween(before: string, after: string): Parameters<SyntaxTree['edit']>[0] {
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (suffix < max - start && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  const oldEnd = before.length - suffix;
  const newEnd = after.length - suffix;
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

function pointAt(text: string, offset: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}
