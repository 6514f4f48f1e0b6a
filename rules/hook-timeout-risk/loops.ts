import { commandBase, nodesOfType } from '../../src/shell/analysis.js';
import { backgroundJobs, inBackgroundJob } from '../../src/shell/background.js';
import type { ShellCommand } from '../../src/shell/commands.js';
import type { SyntaxNode } from '../../src/shell/parser.js';
import {
  type Bound,
  both,
  clockVariables,
  comparisonOf,
  type Counter,
  conditionsOf,
  either,
  binaryParts,
  ELAPSED,
  FINE_CLOCK,
  FLIPPED,
  ifConditions,
  listLength,
  literalNumber,
  loopCounters,
  mentions,
  NEGATED,
  NONE,
  RELATION,
  runs,
  sleepSeconds,
  type Term,
  term,
  UNKNOWN,
  unwrapped,
} from './loop-terms.js';

export const LOOP_TYPES = ['while_statement', 'for_statement', 'c_style_for_statement'];
/** The commands that leave a loop (or the script around it). */
export const LOOP_EXITS: ReadonlySet<string> = new Set(['break', 'exit', 'return']);
/** Where an `exit` or `break` ends that part of the script, not the loop around it. */
const OWN_SHELL = new Set(['subshell', 'command_substitution', 'process_substitution', 'function_definition']);

/** A loop that sleeps between tries, and what bounds it. */
export interface PollingLoop {
  loop: SyntaxNode;
  keyword: SyntaxNode;
  /** The sleeps of an iteration, in order. */
  sleeps: ShellCommand[];
  bound: Bound;
  /** Nothing but its own condition (or list) ends the loop: it always runs to the bound. */
  always: boolean;
}

/** The nearest loop a sleep runs in, unless a function definition comes first (it runs when called). */
function ownLoop(node: SyntaxNode): SyntaxNode | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (LOOP_TYPES.includes(parent.type)) return parent;
    if (parent.type === 'function_definition') return undefined;
  }
  return undefined;
}

/** Loops that sleep between tries (`sleep` in their condition or body, not in a loop inside them or a background job). */
export function pollingLoops(root: SyntaxNode, commands: readonly ShellCommand[], text: string): PollingLoop[] {
  const sleeps = commands.filter((c) => commandBase(c) === 'sleep');
  if (sleeps.length === 0) return [];
  const jobs = backgroundJobs(root, text);
  const byLoop = new Map<number, { loop: SyntaxNode; sleeps: ShellCommand[] }>();
  for (const sleep of sleeps) {
    const loop = ownLoop(sleep.name.node);
    if (!loop || inBackgroundJob(jobs, sleep.start, sleep.end, [loop.startIndex, loop.endIndex])) continue;
    const entry = byLoop.get(loop.id) ?? { loop, sleeps: [] };
    entry.sleeps.push(sleep);
    byLoop.set(loop.id, entry);
  }
  const found: PollingLoop[] = [];
  for (const { loop, sleeps: own } of byLoop.values()) {
    if (loop.child(0)?.type === 'select' || inBackgroundJob(jobs, loop.startIndex, loop.endIndex) || readsOrWaits(loop)) continue;
    const each = own.reduce<number | undefined>((sum, s) => (sum === undefined ? undefined : addSleep(sum, sleepSeconds(s))), 0);
    const perTry = own.length === 1 ? `\`${[own[0]!.name, ...own[0]!.args].map((w) => w.text).join(' ')}\`` : `${String(each)} s of sleep`;
    const analysis = new LoopBounds(root, loop, each, perTry);
    found.push({ loop, keyword: loop.child(0)!, sleeps: own, ...analysis.bound() });
  }
  return found.sort((a, b) => a.loop.startIndex - b.loop.startIndex);
}

function addSleep(sum: number, seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : sum + seconds;
}

/**
 * `while read …` reads lines (its input bounds it); `while kill -0 "$pid"` waits
 * for a process to end, which the rule leaves alone as it does `wait`.
 */
function readsOrWaits(loop: SyntaxNode): boolean {
  for (const condition of conditionsOf(loop))
    for (const command of nodesOfType(condition, ['command'])) {
      const name = command.childForFieldName('name')?.text;
      if (name === 'read') return true;
      const first = command.childrenForFieldName('argument')[0]?.text;
      if ((name === 'kill' && first === '-0') || (name === 'ps' && first === '-p')) return true;
    }
  return false;
}

/** Where a condition is read: a C-style loop's initializer sets its counter; an exit's check stands at `guardAt`. */
interface Where {
  initializer?: SyntaxNode;
  guardAt?: number;
}

/** What bounds one loop: its condition or list, and the exits of its body with what guards them. */
class LoopBounds {
  private readonly assignments: SyntaxNode[];
  /** Variables the loop steps (`n=$((n+1))`, `((n++))`, `let n+=2`), with the step when it is a literal. */
  private readonly counters: Map<string, Counter>;
  private readonly clocks: Set<string>;

  constructor(
    root: SyntaxNode,
    private readonly loop: SyntaxNode,
    private readonly each: number | undefined,
    private readonly perTry: string,
  ) {
    this.assignments = nodesOfType(root, ['variable_assignment']);
    this.clocks = clockVariables(this.assignments);
    this.counters = loopCounters(loop);
  }

  bound(): { bound: Bound; always: boolean } {
    const own = this.ownBound();
    const exits = this.exits();
    return { bound: exits.reduce(either, own.bound), always: own.pure && exits.length === 0 && own.bound.kind === 'known' };
  }

  /** What the loop's own list or condition allows; `pure` when that alone decides how often it runs. */
  private ownBound(): { bound: Bound; pure: boolean } {
    const loop = this.loop;
    if (loop.type === 'for_statement') return { bound: this.tries(listLength(loop)), pure: true };
    if (loop.type === 'c_style_for_statement') {
      const condition = loop.childForFieldName('condition');
      const initializer = loop.childForFieldName('initializer') ?? undefined;
      return { bound: condition ? this.condition(condition, true, { initializer }) : NONE, pure: true };
    }
    const condition = conditionsOf(loop).at(-1);
    if (!condition) return { bound: NONE, pure: false };
    return { bound: this.condition(condition, loop.child(0)?.type !== 'until', {}), pure: comparisonOf(condition) !== undefined };
  }

  private tries(count: number | undefined): Bound {
    if (count === undefined || this.each === undefined) return UNKNOWN;
    const seconds = Number((count * this.each).toFixed(2));
    return { kind: 'known', seconds, how: `${count} × ${this.perTry}` };
  }

  /** The bound a condition sets: `goesOn` when the loop goes on while it holds, else it ends when it holds. */
  private condition(node: SyntaxNode, goesOn: boolean, where: Where): Bound {
    const inner = unwrapped(node);
    if (inner) return this.condition(inner.node, inner.negated !== goesOn, where);
    const parts = binaryParts(node);
    if (!parts) return this.mentioned(node);
    const { left, operator, right } = parts;
    const and = operator === '&&' || operator === '-a';
    if (and || operator === '||' || operator === '-o') {
      const a = this.condition(left, goesOn, where);
      const b = this.condition(right, goesOn, where);
      // Goes on while both hold, or ends when either does: either side ends it.
      return and === goesOn ? either(a, b) : both(a, b);
    }
    const relation = RELATION[operator] ?? (operator in FLIPPED ? operator : undefined);
    if (relation === undefined) return this.mentioned(node);
    return this.comparison(term(left), goesOn ? relation : NEGATED[relation]!, term(right), node, where);
  }

  /** A counter or a clock named in what guards the loop still bounds it, at a time not known here. */
  private mentioned(node: SyntaxNode): Bound {
    const text = node.text;
    if (ELAPSED.test(text) || [...this.clocks, ...this.counters.keys()].some((name) => mentions(text, name))) return UNKNOWN;
    return NONE;
  }

  /** `left relation right` holds while the loop goes on. */
  private comparison(left: Term, relation: string, right: Term, node: SyntaxNode, where: Where): Bound {
    const counter = (t: Term): boolean => 'variable' in t && this.counters.has(t.variable);
    if (('number' in left && !('number' in right)) || (counter(right) && !counter(left)))
      return this.comparison(right, FLIPPED[relation]!, left, node, where);
    if ('variable' in left && this.counters.has(left.variable)) {
      const limit = this.valueOf(right, node.startIndex);
      const counter = this.counters.get(left.variable)!;
      const start = this.initialValue(left.variable, where.initializer);
      if (limit === undefined || start === undefined || counter.step === undefined) return UNKNOWN;
      let count = runs(start, counter.step, relation, limit);
      // Stepped before an exit's check in the body: the last try ends at the check, before its sleep.
      if (count !== undefined && where.guardAt !== undefined && counter.at < where.guardAt) count = Math.max(0, count - 1);
      return this.tries(count);
    }
    const text = node.text;
    if (!this.isClock(left) && !this.isClock(right)) return this.mentioned(node);
    if (FINE_CLOCK.test(text)) return UNKNOWN;
    // `SECONDS < 30`, `$(( $(date +%s) - start )) < 30`; `now < deadline` with `deadline=$(( $(date +%s) + 30 ))`.
    const limitOf = (t: Term): number | undefined => ('number' in t ? t.number : 'variable' in t ? this.deadline(t.variable) : undefined);
    let limit = this.isClock(left) ? limitOf(right) : undefined;
    let holds = relation;
    if (limit === undefined && this.isClock(right)) {
      limit = limitOf(left);
      holds = FLIPPED[relation]!;
    }
    if (limit === undefined || (holds !== '<' && holds !== '<=') || limit > 86400) return UNKNOWN;
    return { kind: 'known', seconds: limit, how: `it gives up once ${limit} s have passed` };
  }

  /** A clock reading or a time computed from one: `$SECONDS`, `$(date +%s)`, `$((now - start))`. */
  private isClock(t: Term): boolean {
    if ('other' in t) return ELAPSED.test(t.other) || [...this.clocks].some((c) => mentions(t.other, c));
    return 'variable' in t && (this.clocks.has(t.variable) || t.variable === 'SECONDS' || t.variable === 'EPOCHSECONDS');
  }

  private deadline(name: string): number | undefined {
    const value = this.lastAssignment(name, this.loop.startIndex)?.childForFieldName('value')?.text ?? '';
    const match = /\+\s*(\d+)\s*\)\)"?$/.exec(value);
    if (this.clocks.has(name) && match) return Number(match[1]);
    return this.valueOf({ variable: name }, this.loop.startIndex);
  }

  private valueOf(t: Term, before: number): number | undefined {
    if ('number' in t) return t.number;
    if (!('variable' in t) || this.counters.has(t.variable) || this.clocks.has(t.variable)) return undefined;
    return literalNumber(this.lastAssignment(t.variable, before));
  }

  private initialValue(name: string, initializer: SyntaxNode | undefined): number | undefined {
    if (initializer?.type === 'variable_assignment' && initializer.childForFieldName('name')?.text === name)
      return literalNumber(initializer);
    return literalNumber(this.lastAssignment(name, this.loop.startIndex));
  }

  private lastAssignment(name: string, before: number): SyntaxNode | undefined {
    return this.assignments.filter((a) => a.endIndex <= before && a.childForFieldName('name')?.text === name).at(-1);
  }

  /** `break`, `exit` and `return` that leave this loop, each bounding it by what guards it. */
  private exits(): Bound[] {
    const bounds: Bound[] = [];
    for (const command of nodesOfType(this.loop, ['command'])) {
      const name = command.childForFieldName('name')?.text ?? '';
      if (!LOOP_EXITS.has(name)) continue;
      const guards = this.guardsOf(command, name === 'break');
      if (guards === undefined) continue;
      const at = command.startIndex;
      bounds.push(guards.length === 0 ? this.tries(1) : guards.map((g) => this.condition(g.node, g.goesOn, { guardAt: at })).reduce(both));
    }
    return bounds;
  }

  /** The conditions under which an exit runs (`goesOn`: it runs when the condition fails), or undefined when it does not leave this loop. */
  private guardsOf(exit: SyntaxNode, isBreak: boolean): { node: SyntaxNode; goesOn: boolean }[] | undefined {
    const guards: { node: SyntaxNode; goesOn: boolean }[] = [];
    let child = exit;
    for (let parent = exit.parent; parent; child = parent, parent = parent.parent) {
      if (parent.id === this.loop.id) return conditionsOf(parent).some((c) => c.id === child.id) ? undefined : guards;
      if (OWN_SHELL.has(parent.type)) return undefined;
      if (LOOP_TYPES.includes(parent.type)) {
        if (isBreak) return undefined;
        guards.push({ node: parent, goesOn: false });
      } else if (parent.type === 'list') {
        const operator = parent.child(1)?.type;
        if (parent.namedChild(1)?.id === child.id) guards.push({ node: parent.namedChild(0)!, goesOn: operator === '||' });
      } else if (parent.type === 'if_statement' || parent.type === 'elif_clause') {
        const conditions = ifConditions(parent);
        if (conditions.some((c) => c.id === child.id)) return undefined;
        const last = conditions.at(-1);
        // In an `elif`, the conditions before it failed: in the worst case, what the loop waits for has not come.
        if (last && child.type !== 'elif_clause') guards.push({ node: last, goesOn: child.type === 'else_clause' });
      } else if (parent.type === 'case_item' || parent.type === 'case_statement') {
        const value = parent.childForFieldName('value');
        if (value) guards.push({ node: value, goesOn: false });
      }
    }
    return undefined;
  }
}
