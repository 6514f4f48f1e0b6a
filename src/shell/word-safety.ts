import { nodesOfType, variableUse } from './analysis.js';
import { staticValue } from './static-value.js';
import type { SyntaxNode } from './parser.js';

/**
 * What an expansion can expand to, judged from the tree: the one analysis the
 * JSON rules and the ShellCheck quoting filter (SC2046/SC2086) share.
 *
 * - `digits`: only digits (and perhaps a sign or spaces around them): it cannot
 *   split into two words, glob, or break out of a JSON string, and is a valid
 *   bare JSON value when it is not empty.
 * - `word`: no whitespace, glob character, quote or backslash (`$(date -Iseconds)`):
 *   one word when unquoted, and safe inside a JSON string.
 * - `text`: no quote or backslash but perhaps spaces (`$(date)`): safe inside a
 *   JSON string, not unquoted.
 * - `unknown`: anything else.
 */
export type ValueShape = 'digits' | 'word' | 'text' | 'unknown';

const RANK: Record<ValueShape, number> = { digits: 0, word: 1, text: 2, unknown: 3 };

export function worstShape(shapes: readonly ValueShape[]): ValueShape {
  return shapes.reduce<ValueShape>((worst, s) => (RANK[s] > RANK[worst] ? s : worst), 'digits');
}

/** At least as safe as `bound`. */
export function shapeWithin(shape: ValueShape, bound: ValueShape): boolean {
  return RANK[shape] <= RANK[bound];
}

/** Shell variables that only ever hold digits. */
const NUMERIC_SHELL_VARIABLES = ['RANDOM', 'SECONDS', 'LINENO', 'BASHPID', 'PPID', 'UID', 'EUID', 'EPOCHSECONDS'];
const NUMERIC_SPECIALS = new Set(['$$', '$?', '$#', '$!']);
/** `date` conversions that print digits only. */
const DATE_DIGITS = /%[-_0^#]?[sYmdHMSNjuyCgGVUWeklI]/g;

export interface WordSafety {
  /** The shape of what the expansion (`$X`, `${X…}`, `$(…)`, `$((…))`) expands to. */
  shapeOf(expansion: SyntaxNode): ValueShape;
  /** Why the shape is what it is, in a few words (for recorded suppressions). */
  reasonOf(expansion: SyntaxNode): string;
  /** The assignments of a variable in the script (value nodes, or the assignment when it has no value). */
  assignments(name: string): readonly SyntaxNode[];
}

/**
 * The analysis of one script. `numericVariables` names the variables known to
 * hold digits besides the shell's own (callers pass the runtime's numeric
 * variables from its contract: the shell layer does not import the runtime's).
 */
export function wordSafety(root: SyntaxNode, numericVariables: readonly string[] = []): WordSafety {
  const numeric = new Set<string>([...NUMERIC_SHELL_VARIABLES, ...numericVariables]);
  const assignments = assignmentsByName(root);
  const memo = new Map<number, ValueShape>();
  const shapeOf = (node: SyntaxNode, depth = 0): ValueShape => {
    const known = memo.get(node.id);
    if (known !== undefined) return known;
    const shape = computeShape(node, depth);
    memo.set(node.id, shape);
    return shape;
  };
  const valueShape = (value: SyntaxNode, depth: number): ValueShape => {
    if (value.type === 'variable_assignment') return 'word';
    const literal = staticValue(value);
    if (literal !== undefined) return literalShape(literal);
    if (isExpansion(value)) return shapeOf(value, depth + 1);
    if (value.type === 'string' || value.type === 'concatenation') {
      // "$(date +%s)" or "${N}0": the parts decide; literal parts are judged as text.
      const parts = value.namedChildren.filter((c): c is SyntaxNode => c !== null);
      if (parts.length === 0) return 'word';
      return worstShape(
        parts.map((p) =>
          isExpansion(p) ? shapeOf(p, depth + 1) : literalShape(p.type === 'string_content' ? p.text : (staticValue(p) ?? '"')),
        ),
      );
    }
    return 'unknown';
  };
  const computeShape = (node: SyntaxNode, depth: number): ValueShape => {
    if (node.type === 'arithmetic_expansion') return 'digits';
    if (NUMERIC_SPECIALS.has(node.text)) return 'digits';
    if (node.type === 'command_substitution') return substitutionShape(node);
    const use = variableUse(node);
    if (!use) return 'unknown';
    if (use.length) return 'digits';
    if (numeric.has(use.name)) return 'digits';
    if (use.operator !== undefined) return 'unknown';
    const values = assignments.get(use.name);
    if (depth >= 3 || !values || values.length === 0) return 'unknown';
    return worstShape(values.map((v) => valueShape(v, depth)));
  };
  const reasonOf = (node: SyntaxNode): string => {
    if (node.type === 'arithmetic_expansion') return 'arithmetic expands to a number';
    if (node.type === 'command_substitution') return `\`${oneLine(node.text)}\` prints a single word`;
    const use = variableUse(node);
    if (use?.length) return `\`${oneLine(node.text)}\` is a length`;
    if (use && numeric.has(use.name)) return `\`$${use.name}\` holds a number`;
    if (NUMERIC_SPECIALS.has(node.text)) return `\`${node.text}\` is a number`;
    return `\`${oneLine(node.text)}\` is only ever assigned values that cannot split or glob`;
  };
  return { shapeOf: (n) => shapeOf(n), reasonOf, assignments: (name) => assignments.get(name) ?? [] };
}

function oneLine(text: string): string {
  const first = text.split('\n')[0]!;
  return first.length > 40 ? `${first.slice(0, 40)}…` : first;
}

function isExpansion(node: SyntaxNode): boolean {
  return ['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion'].includes(node.type);
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return true;
  return false;
}

/** The shape of a literal text. */
export function literalShape(text: string): ValueShape {
  if (/^\s*-?\d+\s*$/.test(text)) return 'digits';
  // A quote, a backslash or a control character would break a JSON string.
  if (/["\\]/.test(text) || hasControlCharacter(text)) return 'unknown';
  if (/[\s*?[\]{}]/.test(text)) return 'text';
  return 'word';
}

/**
 * `$(…)` whose output has a known shape: a single command (or the last stage
 * of a pipeline) among `date` with a static format, `wc -l/-c/-w` reading
 * standard input, `jq length`, `grep -c` and `echo`/`printf` of a number. A
 * `||` or `&&` list can print twice (`grep -c x f || echo 0` prints `0` on two
 * lines) and is not judged.
 */
function substitutionShape(substitution: SyntaxNode): ValueShape {
  const body = substitution.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== 'comment');
  if (body.length !== 1) return 'unknown';
  let last = body[0]!;
  if (last.type === 'redirected_statement') last = last.childForFieldName('body') ?? last;
  if (last.type === 'pipeline') {
    const stages = last.namedChildren.filter((c): c is SyntaxNode => c !== null);
    last = stages[stages.length - 1]!;
    if (last.type === 'redirected_statement') last = last.childForFieldName('body') ?? last;
  }
  if (last.type !== 'command') return 'unknown';
  const name = staticValue(last.childForFieldName('name') ?? last);
  const args = last.childrenForFieldName('argument').filter((a): a is SyntaxNode => a !== null);
  const values = args.map((a) => staticValue(a));
  if (values.some((v) => v === undefined)) return 'unknown';
  const words = values as string[];
  switch (name) {
    case 'date':
      return dateShape(words);
    case 'wc': {
      // `wc -l file` prints the file name too; from standard input it prints the count alone.
      const counts = words.every((w) => /^-[lcmw]+$/.test(w) || /^--(lines|bytes|chars|words)$/.test(w));
      return counts && words.length > 0 ? 'digits' : 'unknown';
    }
    case 'jq': {
      const filter = words.filter((w) => !w.startsWith('-'));
      return filter.length >= 1 && /(^|\|)\s*length\s*$/.test(filter[0]!) ? 'digits' : 'unknown';
    }
    case 'grep':
      // One count per file: a single file (or standard input) gives one line.
      return words.some((w) => /^-[A-Za-z]*c[A-Za-z]*$/.test(w) || w === '--count') && words.filter((w) => !w.startsWith('-')).length <= 2
        ? 'digits'
        : 'unknown';
    case 'echo':
    case 'printf': {
      const printed = args.filter((a) => !(staticValue(a) ?? '').startsWith('-'));
      return printed.length === 1 ? literalShape(staticValue(printed[0]!)!) : 'unknown';
    }
    default:
      return 'unknown';
  }
}

/** `date`, `date +%s`, `date -Iseconds`, `date -u +"%Y-%m-%dT%H:%M:%SZ"`: what the format prints. */
function dateShape(words: readonly string[]): ValueShape {
  let format: string | undefined;
  for (const word of words) {
    if (word.startsWith('+')) format = word.slice(1);
    else if (/^-(I|-iso-8601)/.test(word) || word === '--rfc-3339=date') format ??= 'iso';
    else if (word === '-u' || word === '--utc') continue;
    else return 'unknown';
  }
  if (format === undefined) return 'text';
  if (format === 'iso') return 'word';
  const rest = format.replace(DATE_DIGITS, '');
  if (rest === '') return 'digits';
  if (/%[^%]/.test(rest.replace(/%%/g, ''))) {
    // Names of days and months are letters; %Z/%z/%T/%F/%D are words too.
    return /%[aAbBhpPZzTFDR]/.test(rest) && !/[\s"\\*?[\]]/.test(rest.replace(/%./g, '')) ? 'word' : 'text';
  }
  return literalShape(rest.replace(/%%/g, '%'));
}

/** The shell variable an assignment sets; none for `X="$X" cmd`, which sets X in cmd's environment only. */
function assignedName(assignment: SyntaxNode): string | undefined {
  if (assignment.parent?.type === 'command') return undefined;
  const nameNode = assignment.childForFieldName('name');
  return nameNode?.type === 'subscript' ? nameNode.childForFieldName('name')?.text : nameNode?.text;
}

function assignmentsByName(root: SyntaxNode): Map<string, SyntaxNode[]> {
  const map = new Map<string, SyntaxNode[]>();
  for (const assignment of nodesOfType(root, ['variable_assignment'])) {
    const name = assignedName(assignment);
    if (!name) continue;
    const value = assignment.childForFieldName('value');
    const list = map.get(name) ?? [];
    list.push(value ?? assignment);
    map.set(name, list);
  }
  // A name given a value another way (`read X`, `for X in …`) has a shape we cannot see.
  for (const loop of nodesOfType(root, ['for_statement'])) {
    const name = loop.childForFieldName('variable')?.text;
    if (name) map.set(name, [...(map.get(name) ?? []), loop]);
  }
  for (const command of nodesOfType(root, ['command'])) {
    const cmd = command.childForFieldName('name')?.text;
    if (cmd !== 'read' && cmd !== 'mapfile' && cmd !== 'readarray' && cmd !== 'printf' && cmd !== 'getopts') continue;
    for (const arg of command.childrenForFieldName('argument')) {
      const name = arg ? staticValue(arg) : undefined;
      if (name && /^[A-Za-z_]\w*$/.test(name) && map.has(name)) map.get(name)!.push(command);
    }
  }
  return map;
}

/**
 * Could the variable be empty when `read` runs? True when every assignment
 * of it sits inside a condition (`if`, `case`, a loop, an `&&`/`||` list) that
 * does not also hold the read: `if …; then N=1; fi; echo "{\"n\": $N}"`.
 */
export function mayBeUnset(safety: WordSafety, name: string, read: SyntaxNode): SyntaxNode | undefined {
  const values = safety.assignments(name);
  if (values.length === 0) return undefined;
  let conditional: SyntaxNode | undefined;
  for (const value of values) {
    const condition = conditionOf(value);
    // An `else` or a `case` arm usually completes the other branches: not judged.
    if (!condition || condition.type === 'else_clause' || condition.type === 'case_item') return undefined;
    if (read.startIndex >= condition.startIndex && read.endIndex <= condition.endIndex) return undefined;
    conditional ??= value;
  }
  return conditional;
}

/** The innermost construct that may skip `node`: an `if` branch, a `case` arm, a loop body, a later part of an `&&`/`||` list, a function. */
function conditionOf(node: SyntaxNode): SyntaxNode | undefined {
  let child = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case 'list':
        if (parent.namedChild(0)?.id !== child.id) return parent;
        break;
      case 'if_statement':
        if (!parent.childrenForFieldName('condition').some((c) => c?.id === child.id)) return parent;
        break;
      case 'elif_clause':
        if (parent.namedChild(0)?.id !== child.id) return parent;
        break;
      case 'else_clause':
      case 'case_item':
      case 'do_group':
      case 'function_definition':
        return parent;
    }
  }
  return undefined;
}
