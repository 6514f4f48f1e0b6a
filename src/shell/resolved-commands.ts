import { variableUse } from './analysis.js';
import { staticValue } from './static-value.js';
import { unwrapCommand, type PlainCommand, type PlainWord, type ShellCommand, type ShellWord } from './commands.js';
import { nodesOfType } from './node-index.js';
import type { SyntaxNode, SyntaxTree } from './parser.js';

/** A variable's value as one assignment gives it: a text (split when expanded unquoted) or an array's elements. */
type StaticValue = { text: string } | { elements: string[] };

/** Operators whose word is the value when the variable is unset (`${X:-word}`, `${X-word}`). */
const DEFAULTS = new Set([':-', '-']);

/** More combinations than this of a command's variables' values are not tried. */
const MAX_VARIANTS = 16;

const found = new WeakMap<SyntaxTree, PlainCommand[]>();

/**
 * The commands a hook runs through a variable or a function, as they run:
 * `RM="rm -rf"; $RM x`, `cmd=(rm -rf x); "${cmd[@]}"`, `OPTS=-rf; rm $OPTS x`, `"${RM:-rm}" -rf x`,
 * and the call of a function that runs its arguments (`run() { "$@"; };
 * run rm -rf x`, `del() { rm "$@"; }; del -rf x`). A variable is read only
 * when every assignment the script gives it is a static text or array; one
 * command is made for each value it may have. Each word keeps the place of
 * the word it comes from; a command run through a function is placed at
 * its call. Commands whose words are all written out are not repeated here.
 */
export function resolvedCommands(tree: SyntaxTree, commands: readonly ShellCommand[]): PlainCommand[] {
  let result = found.get(tree);
  if (!result) {
    result = [];
    const root = tree.rootNode;
    // With no assignment a `${X:-word}` default still says what runs.
    const values = assignmentsOf(tree);
    for (const command of commands) for (const variant of viaVariables(command, values)) result.push(variant, ...unwrapCommand(variant));
    for (const variant of viaFunctions(root, commands)) result.push(variant, ...unwrapCommand(variant));
    found.set(tree, result);
  }
  return result;
}

const assignedByTree = new WeakMap<SyntaxTree, Map<string, StaticValue[] | null>>();

/**
 * The texts the script may give a variable (`D=/etc`), when every assignment
 * of it is a static text; undefined otherwise (an array, a computed value, none).
 */
export function staticTexts(tree: SyntaxTree, name: string): string[] | undefined {
  const list = assignmentsOf(tree).get(name);
  if (!list) return undefined;
  const texts = list.map((v) => ('text' in v ? v.text : undefined));
  return texts.every((t): t is string => t !== undefined) ? texts : undefined;
}

/** The script's variables' static values, read once a tree for the resolved commands and for staticTexts. */
function assignmentsOf(tree: SyntaxTree): Map<string, StaticValue[] | null> {
  let values = assignedByTree.get(tree);
  if (!values) assignedByTree.set(tree, (values = staticAssignments(tree.rootNode)));
  return values;
}

/** Each variable's values, or null when one of its assignments is not static (or appends, or sets one element). */
function staticAssignments(root: SyntaxNode): Map<string, StaticValue[] | null> {
  const values = new Map<string, StaticValue[] | null>();
  for (const assignment of nodesOfType(root, ['variable_assignment'])) {
    const nameNode = assignment.childForFieldName('name');
    if (!nameNode) continue;
    const name = nameNode.type === 'subscript' ? nameNode.childForFieldName('name')?.text : nameNode.text;
    if (!name) continue;
    const value = assignment.childForFieldName('value');
    const appends = assignment.children.some((c) => c?.type === '+=');
    let known: StaticValue | undefined;
    if (nameNode.type === 'subscript' || appends) known = undefined;
    else if (!value) known = { text: '' };
    else if (value.type === 'array') {
      const elements = value.namedChildren.map((e) => (e ? staticValue(e) : undefined));
      known = elements.every((e): e is string => e !== undefined) ? { elements } : undefined;
    } else {
      const text = staticValue(value);
      known = text === undefined ? undefined : { text };
    }
    const list = values.get(name);
    if (list === null) continue;
    if (known === undefined) values.set(name, null);
    else if (list) list.push(known);
    else values.set(name, [known]);
  }
  return values;
}

/**
 * Whether a word's text may be a static variable's expansion, read before its node: for a command an
 * editor's run kept, finding a word's node again costs a walk. Only a name joins parts; any other word is
 * one expansion, maybe in double quotes, so it starts with `$`; a plain `$X` (no default) of a variable
 * the script never sets statically has nothing to expand to.
 */
function mayExpand(text: string, values: Map<string, StaticValue[] | null>, isName: boolean): boolean {
  if (isName ? !text.includes('$') : !(text.startsWith('"') ? text.slice(1) : text).startsWith('$')) return false;
  const plain = /^("?)\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))\1$/.exec(text);
  return !plain || values.has((plain[2] ?? plain[3])!);
}

/** The words one word of a command stands for, per value of its variable; undefined when it is not a static variable's expansion. */
function expandWord(word: ShellWord, values: Map<string, StaticValue[] | null>, isName: boolean): string[][] | undefined {
  if (!mayExpand(word.text, values, isName)) return undefined;
  let node = word.node;
  if (node.type === 'command_name' && node.firstNamedChild) node = node.firstNamedChild;
  let quoted = false;
  if (node.type === 'string' && node.namedChildCount === 1 && node.text.length === node.firstNamedChild!.text.length + 2) {
    quoted = true;
    node = node.firstNamedChild!;
  }
  // A name joined from parts (`$x$y`); an argument so joined is read as written.
  if (isName && (node.type === 'concatenation' || (node.type === 'string' && node.namedChildCount > 1)))
    return concatenated(node, values)?.map((text) => (node.type === 'string' ? [text] : text.split(/[ \t\n]+/).filter((w) => w !== '')));
  const use = variableUse(node);
  if (!use || use.length) return undefined;
  let list = values.get(use.name);
  if (use.operator !== undefined) {
    // `${RM:-rm}`: the default when the variable is unset (or empty), besides what the script assigns.
    if (!DEFAULTS.has(use.operator)) return undefined;
    const fallback = node.namedChildren.find((c) => c !== null && c.type !== 'variable_name' && c.type !== 'subscript');
    const text = fallback ? staticValue(fallback) : '';
    if (text === undefined) return undefined;
    list = [...(list ?? []), { text }];
  }
  if (!list) return undefined;
  const subscript = node.namedChildren.find((c) => c?.type === 'subscript');
  const index = subscript?.childForFieldName('index')?.text;
  const split = (text: string): string[] => (quoted ? [text] : text.split(/[ \t\n]+/).filter((w) => w !== ''));
  return list.map((value) => {
    if ('text' in value) return index === undefined || index === '0' ? split(value.text) : [];
    if (index === '@') return value.elements.flatMap(split);
    if (index === '*') return split(value.elements.join(' '));
    const at = index === undefined ? 0 : Number(index);
    return Number.isInteger(at) && value.elements[at] !== undefined ? split(value.elements[at]) : [];
  });
}

/**
 * `x=r; y=m; $x$y -rf`, `${P}m`, `"$a$b"`: the texts a word joined from
 * literal parts and static variables' texts may have, one for each
 * combination of the variables' values. Undefined when a part is known only
 * at run time, is an array, or (quoted) holds a blank the split would lose.
 */
function concatenated(node: SyntaxNode, values: Map<string, StaticValue[] | null>): string[] | undefined {
  let texts = [''];
  for (const child of node.children) {
    if (!child) continue;
    const type = child.type;
    let parts: string[] | undefined;
    if (type === 'simple_expansion' || type === 'expansion') {
      const use = variableUse(child);
      const list = use && !use.length && use.operator === undefined ? values.get(use.name) : undefined;
      parts = list?.every((v): v is { text: string } => 'text' in v) ? list.map((v) => v.text) : undefined;
    } else if (type === 'string' && node.type === 'concatenation') {
      parts = concatenated(child, values)?.filter((t) => !/\s/.test(t));
      if (parts?.length === 0) parts = undefined;
    } else if (type === '"') parts = [''];
    else
      parts =
        type === 'string_content' ? [child.text] : !child.isNamed ? [child.text] : [staticValue(child)].filter((t) => t !== undefined);
    if (!parts || parts.length === 0) return undefined;
    const next: string[] = [];
    for (const text of texts) for (const part of parts) if (next.length < MAX_VARIANTS) next.push(text + part);
    texts = next;
  }
  return texts;
}

function viaVariables(command: ShellCommand, values: Map<string, StaticValue[] | null>): PlainCommand[] {
  const words = [command.name, ...command.args];
  let variants: PlainWord[][] = [[]];
  let resolved = false;
  for (const word of words) {
    const expansions = word.value === undefined ? expandWord(word, values, word === command.name) : undefined;
    if (!expansions) {
      for (const variant of variants) variant.push(word);
      continue;
    }
    resolved = true;
    const next: PlainWord[][] = [];
    for (const variant of variants)
      for (const expansion of expansions)
        if (next.length < MAX_VARIANTS)
          next.push([...variant, ...expansion.map((value) => ({ text: word.text, value, start: word.start, end: word.end }))]);
    variants = next;
  }
  if (!resolved) return [];
  return variants.flatMap(([name, ...args]) =>
    name ? [{ name, args, start: command.start, end: command.end, heredocs: command.heredocs }] : [],
  );
}

const ALL_ARGUMENTS = new Set(['"$@"', '$@', '"$*"', '$*', '"${@}"', '${@}']);

/** `run() { "$@"; }; run rm -rf x`: a function's commands with its arguments put in, at each call. */
function viaFunctions(root: SyntaxNode, commands: readonly ShellCommand[]): PlainCommand[] {
  const resolved: PlainCommand[] = [];
  for (const definition of nodesOfType(root, ['function_definition'])) {
    const name = definition.childForFieldName('name')?.text;
    if (!name) continue;
    const start = definition.startIndex;
    const end = definition.endIndex;
    const forwarding = commands.filter(
      (c) => c.start >= start && c.end <= end && !c.wrappedBy && [c.name, ...c.args].some((w) => ALL_ARGUMENTS.has(w.text)),
    );
    if (forwarding.length === 0) continue;
    const calls = commands.filter((c) => c.name.value === name && (c.start < start || c.start >= end));
    for (const call of calls)
      for (const inner of forwarding) {
        // Only what the call adds can change what runs: the command itself, or options (the body's own command is read as written).
        const namesCommand = ALL_ARGUMENTS.has(inner.name.text);
        if (!namesCommand && !call.args.some((a) => a.value?.startsWith('-'))) continue;
        const [first, ...rest] = [inner.name, ...inner.args].flatMap((w): PlainWord[] => (ALL_ARGUMENTS.has(w.text) ? call.args : [w]));
        if (first) resolved.push({ name: first, args: rest, start: call.start, end: call.end, heredocs: [] });
      }
  }
  return resolved;
}
