import { type EsNode, FUNCTIONS, functionName, isMember, type NodeProgram, withoutComments } from './node-program.js';
import type { PythonExit } from './python-exits.js';
import { REFUSING, REPORTING, VERDICT_NAME } from './refusal-words.js';

/**
 * The exits a Node hook program spells out: `process.exit(N)` and
 * `process.exitCode = N` with an integer literal (the program ends with it
 * once nothing is left to run). An exit whose status is computed
 * (`process.exit(code)`) is not one of them, nor an uncaught `throw` (status
 * 1, an error report). Each is read as python-exits.ts reads Python's: a
 * decision when it answers a condition (an `if`, `else`, loop, `switch` case,
 * `cond && process.exit(1)` or `? :`) whose text does not read as an error
 * report unless it also says it refuses, or when it is in a function named
 * for refusing (`function deny(reason) {…}`, `const block = () => …`); not in
 * a `catch`, a `try` block, the entry point's `if (require.main === module)`
 * or the program's top level.
 */
export function nodeExits(program: NodeProgram): PythonExit[] {
  const exits: PythonExit[] = [];
  for (const node of program.nodes) {
    const exit = exitOf(node);
    if (!exit) continue;
    exits.push({
      start: node.start,
      end: node.end,
      status: exit.status,
      literal: { start: exit.literal.start, end: exit.literal.end },
      ...decides(program, node),
    });
  }
  return exits;
}

function exitOf(node: EsNode): { status: number; literal: EsNode } | undefined {
  let literal: EsNode | undefined;
  if (node.type === 'CallExpression' && isMember(node.callee as EsNode, 'process', 'exit')) literal = (node.arguments as EsNode[])[0];
  else if (node.type === 'AssignmentExpression' && node.operator === '=' && isMember(node.left as EsNode, 'process', 'exitCode'))
    literal = node.right as EsNode;
  if (literal?.type !== 'Literal' || typeof literal.value !== 'number' || !Number.isInteger(literal.value)) return undefined;
  return { status: literal.value, literal };
}

const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

/** Whether the exit is a decision (see nodeExits), and where its block starts (for what the block does before it). */
function decides(program: NodeProgram, exit: EsNode): Pick<PythonExit, 'decides' | 'blockStart'> {
  let child = exit;
  for (let node = exit.parent; node; child = node, node = node.parent) {
    // In a `catch` (reached before its `try`), or straight in a `try` block or its `finally`: error handling.
    if (node.type === 'CatchClause' || node.type === 'TryStatement') return { decides: false, blockStart: 0 };
    if (FUNCTIONS.has(node.type)) return { decides: REFUSING.test(functionName(node) ?? ''), blockStart: node.start };
    if (node.type === 'IfStatement' && child !== node.test) {
      // An `else` is read with the branches before it (`if (args.length > 2) {…} else process.exit(1)`).
      let first = node;
      while (first.parent?.type === 'IfStatement' && first.parent.alternate === first) first = first.parent;
      return { decides: branchDecides(program, first, exit), blockStart: node.start };
    }
    const conditional =
      LOOPS.has(node.type) ||
      node.type === 'SwitchCase' ||
      (node.type === 'LogicalExpression' && child === node.right) ||
      (node.type === 'ConditionalExpression' && child !== node.test);
    if (conditional) return { decides: branchDecides(program, node, exit), blockStart: node.start };
  }
  return { decides: false, blockStart: 0 };
}

function branchDecides(program: NodeProgram, branch: EsNode, exit: EsNode): boolean {
  const lineEnd = program.text.indexOf('\n', exit.end);
  // Writing to stderr (`console.error(…)`, `process.stderr.write(…)`) is how a guard says why it refuses: not an error report.
  const text = withoutComments(program, branch.start, lineEnd === -1 ? program.text.length : lineEnd).replace(
    /\bconsole\.error\b|\bprocess\.stderr\b/g,
    'stderr',
  );
  // The program's entry point is not a decision.
  if (branch.type === 'IfStatement' && /^if\s*\(\s*(?:require\.main\s*===?\s*module|import\.meta\.(?:url|main))\b/.test(text)) return false;
  if (REFUSING.test(text)) return true;
  // `if (!flags) process.exit(1)`, `if (config == null)`: a value the program needs is missing.
  if (branch.type === 'IfStatement' && isWithin(exit, branch.consequent as EsNode)) {
    const absent = absentValue(branch.test as EsNode);
    if (absent !== undefined && !VERDICT_NAME.test(absent)) return false;
  }
  return !REPORTING.test(text);
}

function isWithin(node: EsNode, outer: EsNode): boolean {
  return node.start >= outer.start && node.end <= outer.end;
}

/** The name a test finds absent: `!x`, `!opts.flags`, `x == null`, `x === undefined`; undefined for any other test. */
function absentValue(test: EsNode): string | undefined {
  // A name, or a chain of names (`opts.flags`): its last one.
  const name = (node: EsNode): string | undefined => {
    if (node.type === 'Identifier') return node.name as string;
    if (node.type !== 'MemberExpression' || node.computed || name(node.object as EsNode) === undefined) return undefined;
    return name(node.property as EsNode);
  };
  if (test.type === 'UnaryExpression' && test.operator === '!') return name(test.argument as EsNode);
  if (test.type === 'BinaryExpression' && ['==', '==='].includes(test.operator as string)) {
    const right = test.right as EsNode;
    const nothing = (right.type === 'Literal' && right.value === null) || (right.type === 'Identifier' && right.name === 'undefined');
    return nothing ? name(test.left as EsNode) : undefined;
  }
  return undefined;
}
