import { own } from '../../src/records.js';
import { inlineProgramWords, nodesOfType } from '../../src/shell/analysis.js';
import type { PlainCommand } from '../../src/shell/commands.js';
import { staticValue } from '../../src/shell/static-value.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

// What the loop analysis reads off the syntax tree: durations, counters, clocks, comparisons, lists.

export const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };
export const ELAPSED = /\$\(\s*date\b|`\s*date\b|\b(?:SECONDS|EPOCHSECONDS)\b/;
/** Clocks finer than seconds: the limit they are compared with is not in seconds. */
export const FINE_CLOCK = /%[0-9]*N|\bEPOCHREALTIME\b/;
/** `-lt` and `<` as the relation that holds while the loop goes on. */
export const RELATION: Record<string, string> = { '-lt': '<', '-le': '<=', '-gt': '>', '-ge': '>=', '-eq': '==', '-ne': '!=' };
export const FLIPPED: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' };
export const NEGATED: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '==': '!=', '!=': '==' };

/**
 * How long a loop may run: `none` when nothing seen ends it (a poll that ends
 * only when what it waits for comes), `unknown` when something does at a time
 * not known before running, `known` the sleeping time of the worst case.
 */
export type Bound = { kind: 'none' } | { kind: 'unknown' } | { kind: 'known'; seconds: number; how: string };
export const NONE: Bound = { kind: 'none' };
export const UNKNOWN: Bound = { kind: 'unknown' };

/** The loop ends when either ends it. */
export function either(a: Bound, b: Bound): Bound {
  if (a.kind === 'none') return b;
  if (b.kind === 'none') return a;
  if (a.kind === 'known' && b.kind === 'known') return a.seconds <= b.seconds ? a : b;
  return UNKNOWN;
}

/** The loop ends only when both say so; a counter or a clock in either still shows a bound was meant. */
export function both(a: Bound, b: Bound): Bound {
  if (a.kind === 'known' && b.kind === 'known') return a.seconds >= b.seconds ? a : b;
  return a.kind === 'none' && b.kind === 'none' ? NONE : UNKNOWN;
}

/** `sleep 5`, `sleep 10s`, `sleep 1m 30`, `sleep 0.5`, `sleep infinity`; undefined when computed. */
export function sleepSeconds(command: PlainCommand): number | undefined {
  let total = 0;
  for (const arg of command.args) {
    if (arg.value === undefined) return undefined;
    // GNU sleep reads a floating-point number: `1e3`, and `inf`/`infinity` in any case.
    if (/^inf(?:inity)?$/i.test(arg.value)) return Infinity;
    const match = /^((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)([smhd]?)$/.exec(arg.value);
    if (!match) return undefined;
    total += Number(match[1]) * UNIT_SECONDS[match[2]!]!;
  }
  return command.args.length ? total : undefined;
}

const PYTHON_SLEEP = /(?:\btime\.|(?:^|[;:\n])\s*)sleep\(\s*(\d+(?:\.\d*)?)\s*\)/g;
const STATEMENT_SLEEP = /(?:^|[;{}\n])\s*sleep\s*\(?\s*(\d+(?:\.\d*)?)/g;
/** Interpreters whose inline programs (INLINE_PROGRAM_OPTIONS) are read for sleeps, with how a sleep is written and its unit. */
const INLINE_SLEEPS: Record<string, { sleep: RegExp; unit: number }> = {
  // `time.sleep(N)`, or `sleep(N)` where a statement starts (`from time import sleep`).
  python: { sleep: PYTHON_SLEEP, unit: 1 },
  python3: { sleep: PYTHON_SLEEP, unit: 1 },
  // `sleep N` or `sleep(N)` where a statement starts: not the word in a string (`print "sleep 30"`).
  perl: { sleep: STATEMENT_SLEEP, unit: 1 },
  ruby: { sleep: STATEMENT_SLEEP, unit: 1 },
  node: { sleep: /\bsetTimeout\s*\([^,()]*(?:\([^()]*\)[^,()]*)*,\s*(\d+)\s*\)/g, unit: 0.001 },
};

/** The longest sleep an inline program writes (`python3 -c 'import time; time.sleep(30)'`), in seconds. */
export function inlineSleepSeconds(command: PlainCommand, base: string | undefined): number | undefined {
  const inline = base === undefined ? undefined : own(INLINE_SLEEPS, base);
  if (!inline) return undefined;
  let longest: number | undefined;
  for (const program of inlineProgramWords(command))
    for (const match of program.value?.matchAll(inline.sleep) ?? []) longest = Math.max(longest ?? 0, Number(match[1]) * inline.unit);
  return longest;
}

export function present(nodes: (SyntaxNode | null)[]): SyntaxNode[] {
  return nodes.filter((n): n is SyntaxNode => n !== null);
}

/** The conditions of an `if` or `elif` (tree-sitter names them only on the `if`): what comes before `then`. */
export function ifConditions(node: SyntaxNode): SyntaxNode[] {
  const conditions: SyntaxNode[] = [];
  for (const child of present(node.children)) {
    if (child.type === 'then') break;
    if (child.isNamed) conditions.push(child);
  }
  return conditions;
}

export function conditionsOf(loop: SyntaxNode): SyntaxNode[] {
  return present(loop.childrenForFieldName('condition')).filter((n) => n.isNamed);
}

/** Whole-word mention of a variable name in shell text. */
export function mentions(text: string, name: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped(name)}($|[^A-Za-z0-9_])`).test(text);
}

export type Term = { number: number } | { variable: string } | { other: string };

function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `n + 1`, `$((n+1))`, `$(( $n - 2 ))`, `$(expr $n + 1)`: the literal step, else undefined. */
export function selfStep(name: string, value: string): number | undefined {
  const text = value.replace(/^"|"$/g, '').replace(/\s+/g, '');
  const body = /^\$\(\((.*)\)\)$/.exec(text)?.[1] ?? /^\$\[(.*)\]$/.exec(text)?.[1] ?? /^\$\(expr(.*)\)$/.exec(text)?.[1] ?? text;
  const match = new RegExp(`^(?:\\$\\{?)?${escaped(name)}\\}?([+-])(\\d+)$`).exec(body);
  return match ? Number(match[2]) * (match[1] === '-' ? -1 : 1) : undefined;
}

/** Variables holding a clock reading or a time computed from one (`start=$(date +%s)`, `end=$((SECONDS+4))`). */
export function clockVariables(assignments: readonly SyntaxNode[]): Set<string> {
  const clocks = new Set<string>();
  for (let pass = 0; pass < 2; pass++)
    for (const a of assignments) {
      const name = a.childForFieldName('name')?.text;
      const value = a.childForFieldName('value')?.text ?? '';
      if (name && (ELAPSED.test(value) || [...clocks].some((c) => mentions(value, c)))) clocks.add(name);
    }
  return clocks;
}

export function literalNumber(assignment: SyntaxNode | undefined): number | undefined {
  const value = assignment?.childForFieldName('value');
  const text = value ? staticValue(value) : undefined;
  return text !== undefined && /^-?\d+$/.test(text) ? Number(text) : undefined;
}

export function term(node: SyntaxNode): Term {
  if (node.type === 'string' && node.namedChildCount === 1) return term(node.namedChild(0)!);
  if (node.type === 'number' || (node.type === 'word' && /^-?\d+$/.test(node.text))) return { number: Number(node.text) };
  if (node.type === 'variable_name' || (node.type === 'word' && /^[A-Za-z_]\w*$/.test(node.text))) return { variable: node.text };
  if ((node.type === 'simple_expansion' || node.type === 'expansion') && /^\$\{?[A-Za-z_]\w*\}?$/.test(node.text))
    return { variable: node.text.replace(/^\$\{?|\}$/g, '') };
  return { other: node.text };
}

/** How many times the body runs while `counter relation limit` holds, the counter going from `start` by `step`. */
export function runs(start: number, step: number, relation: string, limit: number): number | undefined {
  if (step === 0) return undefined;
  const distance = (limit - start) * Math.sign(step);
  const size = Math.abs(step);
  const up = step > 0;
  if ((relation === '<' && up) || (relation === '>' && !up)) return Math.max(0, Math.ceil(distance / size));
  if ((relation === '<=' && up) || (relation === '>=' && !up)) return Math.max(0, Math.floor(distance / size) + 1);
  if (relation === '!=' && distance >= 0 && distance % size === 0) return distance / size;
  return undefined;
}

/** The number of words `for x in …` goes through, when it is known: literal words, `{1..30}`, `$(seq 1 30)`. */
export function listLength(loop: SyntaxNode): number | undefined {
  const values = present(loop.childrenForFieldName('value'));
  if (values.length === 0) return undefined;
  let count = 0;
  for (const value of values) {
    if (value.type === 'brace_expression') {
      const [from, to, ...step] = value.namedChildren.map((c) => Number(c?.text));
      if (!Number.isInteger(from) || !Number.isInteger(to) || step.length > 0) return undefined;
      count += Math.abs(to! - from!) + 1;
    } else if (value.type === 'command_substitution') {
      const seq = seqLength(value);
      if (seq === undefined) return undefined;
      count += seq;
    } else {
      const text = staticValue(value);
      if (text === undefined || /[*?[]/.test(value.text)) return undefined;
      // A literal word, quoted or not, is one item (quotes keep `"a b"` whole).
      count += 1;
    }
  }
  return count;
}

/** `$(seq 30)`, `$(seq 1 30)`, `$(seq 0 2 30)`. */
function seqLength(substitution: SyntaxNode): number | undefined {
  const commands = substitution.namedChildren.filter((c) => c?.type === 'command');
  if (commands.length !== 1 || commands[0]!.childForFieldName('name')?.text !== 'seq') return undefined;
  const args = present(commands[0]!.childrenForFieldName('argument')).map((a) => Number(a.text));
  if (args.length === 0 || args.length > 3 || !args.every(Number.isInteger)) return undefined;
  const [first, step, last] =
    args.length === 1 ? [1, 1, args[0]!] : args.length === 2 ? [args[0]!, 1, args[1]!] : (args as [number, number, number]);
  if (step === 0) return undefined;
  return Math.max(0, Math.floor((last - first) / step) + 1);
}

/** `! x`, `[ x ]`, `[[ x ]]`, `(( x ))`, `( x )`: the one thing inside, and whether it is negated. */
export function unwrapped(node: SyntaxNode): { node: SyntaxNode; negated: boolean } | undefined {
  const inner = node.namedChildCount === 1 ? node.namedChild(0) : null;
  if (!inner) return undefined;
  switch (node.type) {
    case 'negated_command':
    case 'unary_expression':
      return node.child(0)?.text === '!' ? { node: inner, negated: true } : undefined;
    case 'test_command':
    case 'parenthesized_expression':
      return { node: inner, negated: false };
    case 'compound_statement':
      return node.child(0)?.type === '((' ? { node: inner, negated: false } : undefined;
    default:
      return undefined;
  }
}

/** The sides and operator of `a && b` (a list, or in `[[ ]]`) or `a -lt b`. */
export function binaryParts(node: SyntaxNode): { left: SyntaxNode; operator: string; right: SyntaxNode } | undefined {
  if (node.type !== 'list' && node.type !== 'binary_expression') return undefined;
  const list = node.type === 'list';
  const operator = (list ? node.child(1) : node.childForFieldName('operator'))?.text;
  const left = list ? node.namedChild(0) : node.childForFieldName('left');
  const right = list ? node.namedChild(1) : node.childForFieldName('right');
  return left && right && operator !== undefined ? { left, operator, right } : undefined;
}

/** Whether a condition is one comparison, which alone decides how often the loop runs. */
export function comparisonOf(condition: SyntaxNode): SyntaxNode | undefined {
  let node = condition;
  for (let inner = unwrapped(node); inner && !inner.negated; inner = unwrapped(node)) node = inner.node;
  const operator = binaryParts(node)?.operator ?? '';
  return node.type === 'binary_expression' && (RELATION[operator] !== undefined || operator in FLIPPED) ? node : undefined;
}

/** A variable a loop steps: by how much each time (when one literal step), and where (the first step). */
export interface Counter {
  step: number | undefined;
  at: number;
}

/** Variables the loop steps: `n=$((n+1))`, `((n++))`, `((n += 2))`, `let n++`; any other self-assignment with an unknown step. */
export function loopCounters(loop: SyntaxNode): Map<string, Counter> {
  const steps = new Map<string, Counter[]>();
  const add = (name: string, step: number | undefined, at: number): void => {
    if (/^[A-Za-z_]\w*$/.test(name)) steps.set(name, [...(steps.get(name) ?? []), { step, at }]);
  };
  for (const node of nodesOfType(loop, ['postfix_expression', 'unary_expression', 'binary_expression', 'variable_assignment'])) {
    const found = node.type === 'variable_assignment' ? assignmentStep(node) : arithmeticStep(node);
    if (found) add(found.name, found.step, node.startIndex);
  }
  for (const command of nodesOfType(loop, ['command'])) {
    if (command.childForFieldName('name')?.text !== 'let') continue;
    for (const arg of present(command.childrenForFieldName('argument'))) {
      const found = letStep((staticValue(arg) ?? '').replace(/\s+/g, ''));
      if (found) add(found.name, found.step, arg.startIndex);
    }
  }
  const counters = new Map<string, Counter>();
  for (const [name, list] of steps)
    counters.set(name, list.length === 1 ? list[0]! : { step: undefined, at: Math.min(...list.map((s) => s.at)) });
  return counters;
}

type Step = { name: string; step: number | undefined } | undefined;

/** `n++`, `--n`, `n += 2`, `n = n + 1` inside `(( ))` or `$(( ))`. */
function arithmeticStep(node: SyntaxNode): Step {
  const operator = node.childForFieldName('operator')?.text;
  if (node.type !== 'binary_expression') {
    const operand = node.namedChildren.find((c) => c?.type === 'variable_name' || c?.type === 'word');
    return (operator === '++' || operator === '--') && operand ? { name: operand.text, step: operator === '++' ? 1 : -1 } : undefined;
  }
  const left = node.childForFieldName('left');
  if (!left || (left.type !== 'variable_name' && left.type !== 'word')) return undefined;
  const right = node.childForFieldName('right')?.text ?? '';
  if (operator === '+=' || operator === '-=')
    return { name: left.text, step: /^\d+$/.test(right) ? Number(right) * (operator === '+=' ? 1 : -1) : undefined };
  return operator === '=' && mentions(right, left.text) ? { name: left.text, step: selfStep(left.text, right) } : undefined;
}

/** `n=$((n+1))`, `n=$(expr $n + 1)`, `acc="$acc x"` (a step not known). */
function assignmentStep(node: SyntaxNode): Step {
  const name = node.childForFieldName('name')?.text;
  const value = node.childForFieldName('value')?.text ?? '';
  return name && mentions(value, name) ? { name, step: selfStep(name, value) } : undefined;
}

/** The expression of `let`, blanks removed: `n++`, `n+=2`, `n=n+1`. */
function letStep(expression: string): Step {
  const match = /^([A-Za-z_]\w*)(\+\+|--|[+-]=(\d+)|=(.*))$/.exec(expression);
  if (!match) return undefined;
  const [, name, operator, by, value] = match as unknown as [string, string, string, string?, string?];
  if (operator === '++' || operator === '--') return { name, step: operator === '++' ? 1 : -1 };
  if (by !== undefined) return { name, step: Number(by) * (operator.startsWith('-') ? -1 : 1) };
  return value !== undefined && mentions(value, name) ? { name, step: selfStep(name, value) } : undefined;
}
