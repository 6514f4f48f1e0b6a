import { defineRule } from '../../src/engine/rule.js';
import { BLOCKING_EXIT_CODE, blockingEvent, firstBlocking } from '../../src/runtimes/claude-code/contract.js';
import { commandBase } from '../../src/shell/analysis.js';
import type { ShellCommand } from '../../src/shell/commands.js';
import { jsonDecides } from '../../src/runtimes/claude-code/output-json.js';
import {
  ANY_VALUE_MARK,
  commandNode,
  EXPANSION_MARK,
  capturedPrints,
  printedText,
  quoteRawValues,
  type PrintedText,
} from '../../src/shell/printed-text.js';
import { type PythonExit, pythonExits } from '../../src/shell/python-exits.js';
import { pythonOutputPrints } from '../../src/shell/python-output.js';
import { nodeExits } from '../../src/shell/node-exits.js';
import { nodeOutputPrints } from '../../src/shell/node-output.js';
import { parseProgramFile } from '../../src/shell/node-program.js';
import { foreignSpans, inSpans } from '../../src/runtimes/claude-code/program-platforms.js';
import type { ProgramLanguage } from '../../src/shell/program-fields.js';
import type { SyntaxNode, SyntaxTree } from '../../src/shell/parser.js';
import { statementsAfter } from '../../src/shell/tail-status.js';
import { staticTexts } from '../../src/shell/resolved-commands.js';

/**
 * An exit that answers a condition (in an `if`, `case`, `&&`/`||` list or
 * loop): a guard refusing. A script's unconditional last `exit 1` is how it
 * reports that it could not run at all (no interpreter, say), not a refusal,
 * unless an earlier conditional `exit 0` lets the call through: then the
 * script refuses whatever reaches its end.
 */
function refuses(command: ShellCommand): boolean {
  const name = command.name.node;
  for (let node = name.parent; node; node = node.parent) {
    if (CONDITIONAL.has(node.type)) return true;
    if (node.type === 'function_definition') return true;
  }
  return false;
}

const CONDITIONAL = new Set([
  'if_statement',
  'elif_clause',
  'else_clause',
  'case_item',
  'list',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
]);

/**
 * Claude Code blocks on exit 2 (or a JSON decision) only: any other
 * non-zero exit is a non-blocking error, so a guard that refuses with
 * `exit 1` lets the tool call, prompt or stop go ahead (the docs' first
 * warning; GH#44707). PermissionRequest honours only its JSON decision.
 */
export default defineRule({
  id: 'cc-exit-not-blocking',
  meta: {
    description:
      'A Claude Code hook of an event that can block exits with a status that does not block (`exit 1`, or `sys.exit(1)` or `process.exit(1)` in a Python or Node hook).',
    severity: 'warning',
    category: 'runtime',
    fixable: true,
    runtimes: ['claude-code'],
  },
  messages: {
    notBlocking:
      'Unexpected `exit {{code}}` in a `{{event}}` hook: Claude Code blocks only on exit 2 or a JSON decision (`{{decision}}`); exit {{code}} is a non-blocking error, so the action goes ahead.',
    jsonOnly:
      'Unexpected `exit {{code}}` in a `{{event}}` hook: this event ignores exit codes (the docs say exit 2 is not honoured since 2026-08-18); only the JSON decision `{{decision}}` refuses.',
    notBlockingPython:
      'Unexpected `{{call}}` in a `{{event}}` hook: Claude Code blocks only on exit status 2 or a JSON decision (`{{decision}}`); status {{code}}{{how}} is a non-blocking error, so the action goes ahead.',
    jsonOnlyPython:
      'Unexpected `{{call}}` in a `{{event}}` hook: this event ignores exit statuses (the docs say exit 2 is not honoured since 2026-08-18); only the JSON decision `{{decision}}` refuses.',
  },
  checkScript(context) {
    const spec = blockingEvent(context.hook, ['exit2-or-json', 'json-only']);
    // A background hook's exit code decides nothing either way (cc-async-invalid speaks of that). `async` is
    // set for `async: true`, `asyncRewake: true` and a script every caller runs in the background; a handler
    // that merely has the key (`asyncRewake: false`) runs in the foreground and is checked.
    if (!spec || context.hook.claudeCode?.async) return;
    const exits = context.commands.filter((command) => commandBase(command) === 'exit');
    // A guard that lets the call through with a conditional `exit 0` refuses by reaching a later exit, conditional or not.
    const allowsAt = exits.find((command) => command.args[0]?.value === '0' && refuses(command))?.start;
    // The commands that print a JSON decision, read once for all the exits.
    let prints: ShellCommand[] | undefined;
    const decidedBefore = (exit: ShellCommand): boolean =>
      printsDecisionBefore(exit, (prints ??= decisionPrints(context.commands, context.hook.text, spec.name)));
    for (const command of exits) {
      const arg = command.args[0];
      const written = arg?.value !== undefined && /^\d+$/.test(arg.value) ? Number(arg.value) : undefined;
      // `exit $((1))`, `CODE=1; … exit $CODE`: the status is as fixed as a written one (the fix is offered only for the latter).
      const codes = written !== undefined ? [written] : arg ? computedCodes(arg.text, context.tree) : undefined;
      if (!codes) continue;
      // `BLOCK=0 … BLOCK=1 … exit $BLOCK`: a flag the script sets is the decision, wherever the exit stands.
      const decides = codes.length > 1 && codes.includes(0);
      if (!decides && !refuses(command) && (allowsAt === undefined || command.start < allowsAt)) continue;
      const jsonOnly = spec.block === 'json-only';
      const refusals = codes.filter((c) => c !== 0);
      // A status that may be 2 may block: `CODE=1; [ … ] && CODE=2; exit $CODE` is left alone.
      if (refusals.length === 0 || (!jsonOnly && refusals.includes(BLOCKING_EXIT_CODE))) continue;
      // Its branch printed a decision first: that decides, whatever the exit code.
      if (decidedBefore(command)) continue;
      const range = context.range(arg!.start, arg!.end);
      context.report({
        messageId: jsonOnly ? 'jsonOnly' : 'notBlocking',
        data: { code: refusals[0]!, event: spec.name, decision: spec.jsonDecision ?? 'decision: "block"' },
        range: context.range(command.start, command.end),
        ...(jsonOnly || written === undefined ? {} : { fixes: [{ title: 'Exit 2 to block', safe: false, edits: [{ range, text: '2' }] }] }),
      });
    }
  },
  // A Python or Node program that hooks run: its conditional `sys.exit(1)` (or `sys.exit("Blocked: …")`, status 1),
  // `process.exit(1)` or `process.exitCode = 1` where the branch refuses rather than reports an error
  // (src/shell/python-exits.ts and node-exits.ts say which is which).
  checkProgram({ program, range, report }) {
    if (program.inBackground) return;
    const spec = firstBlocking(program.callerEvents, ['exit2-or-json', 'json-only']);
    if (!spec) return;
    const jsonOnly = spec.block === 'json-only';
    const read = programExits(program);
    let prints: ProgramPrint[] | undefined;
    for (const exit of read.exits) {
      if (!exit.decides || exit.status === 0 || (!jsonOnly && exit.status === BLOCKING_EXIT_CODE)) continue;
      // Its block spelled out a decision first (`print(json.dumps({… "permissionDecision": "deny" …}))`): that decides.
      prints ??= read.prints();
      if (prints.some((print) => inBlockBefore(print.at, exit) && decidesAlone(print.printed, spec.name))) continue;
      const text = program.text.slice(exit.start, exit.end);
      const literal = exit.literal;
      report({
        messageId: jsonOnly ? 'jsonOnlyPython' : 'notBlockingPython',
        data: {
          call: literal ? text : `${text.slice(0, text.indexOf('(') + 1)}…)`,
          event: spec.name,
          decision: spec.jsonDecision ?? 'decision: "block"',
          code: exit.status,
          how: literal ? '' : ' (what a message given to it exits with)',
        },
        range: range(exit.start, exit.end),
        ...(jsonOnly || !literal
          ? {}
          : { fixes: [{ title: 'Exit 2 to block', safe: false, edits: [{ range: range(literal.start, literal.end), text: '2' }] }] }),
      });
    }
  },
});

/**
 * Whether the exit's branch prints a JSON object that decides alone before
 * it (../shared/runtimes/claude-code-hooks.md §5.1: with a schema-valid
 * decision the exit code is ignored, and a `deny` with exit 1 still blocks):
 * a print in the same list of statements (its `&&` and `||` lists
 * included), or a statement there that prints one on every path (an `if`
 * whose every arm does, `else` included, as a helper that picks jq or a
 * fixed text does).
 */
function printsDecisionBefore(exit: ShellCommand, prints: readonly ShellCommand[]): boolean {
  const branch = branchOf(exit);
  const exitNode = commandNode(exit);
  if (!branch || !exitNode) return false;
  const before = prints.filter((command) => command.start < exit.start);
  if (before.some((command) => branchOf(command)?.id === branch.id)) return true;
  const printing = new Set(before.map((command) => commandNode(command)!.id));
  return branch.namedChildren.some(
    (statement) => statement !== null && statement.endIndex <= exitNode.startIndex && alwaysPrints(statement, printing),
  );
}

/** The commands that print a JSON object that decides alone for `event` (values the shell fills in read as unknown). */
function decisionPrints(commands: readonly ShellCommand[], source: string, event: string): ShellCommand[] {
  const captured = capturedPrints(commands, source);
  return commands.filter((command) => {
    const printed = printedText(command, source, captured);
    return printed?.text.trimStart().startsWith('{') === true && decidesAlone(quoteRawValues(printed), event);
  });
}

/** The statement list a command stands in: its nearest ancestor that is not a redirection or an `&&`/`||` list. */
function branchOf(command: ShellCommand): SyntaxNode | undefined {
  let node = commandNode(command)?.parent;
  while (node && (node.type === 'redirected_statement' || node.type === 'list')) node = node.parent;
  return node ?? undefined;
}

/** Whether a statement runs one of the `printing` commands whichever way it goes. */
function alwaysPrints(statement: SyntaxNode, printing: ReadonlySet<number>): boolean {
  switch (statement.type) {
    case 'command':
      return printing.has(statement.id);
    case 'redirected_statement':
    case 'compound_statement':
    case 'subshell':
      return statement.namedChildren.some((child) => child !== null && alwaysPrints(child, printing));
    case 'if_statement': {
      const arms = ifArms(statement);
      return arms !== undefined && arms.every((arm) => arm.some((child) => alwaysPrints(child, printing)));
    }
    default:
      return false;
  }
}

/** The statements of each arm of an `if` (after `then`, or `else`), or undefined when it has no `else`. */
function ifArms(statement: SyntaxNode): SyntaxNode[][] | undefined {
  const arms = [statementsAfter(statement, 'then')];
  let otherwise = false;
  for (const clause of statement.namedChildren) {
    if (clause?.type === 'elif_clause') arms.push(statementsAfter(clause, 'then'));
    if (clause?.type === 'else_clause') {
      otherwise = true;
      arms.push(statementsAfter(clause, 'else'));
    }
  }
  return otherwise ? arms : undefined;
}

function inBlockBefore(at: number, exit: PythonExit): boolean {
  return at >= exit.blockStart && at < exit.start;
}

/** A decision a program prints, and where: a dict or object literal where it is written, or the dump or print of a name set to one. */
interface ProgramPrint {
  at: number;
  printed: PrintedText;
}

/** A program's exits, and (asked only when an exit needs them) its prints of hook outputs. */
function programExits(file: { language: ProgramLanguage; file: string; text: string }): {
  exits: PythonExit[];
  prints: () => ProgramPrint[];
} {
  const { language, text } = file;
  // The parts that serve another agent's hooks (a program that is the hook of several) decide nothing here.
  if (language === 'python') {
    const foreign = foreignSpans(file, undefined);
    return { exits: pythonExits(text).filter((exit) => !inSpans(foreign, exit.start)), prints: () => pythonOutputPrints(text) };
  }
  const program = parseProgramFile(file);
  if (!program) return { exits: [], prints: () => [] };
  const foreign = foreignSpans(file, program);
  return { exits: nodeExits(program).filter((exit) => !inSpans(foreign, exit.start)), prints: () => nodeOutputPrints(program) };
}

/** Whether printed JSON (values filled in at run time marked as such) is a decision of its own. */
function decidesAlone(printed: PrintedText, event: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(printed.text);
  } catch {
    return false;
  }
  return jsonDecides(event, json, (value) => value.includes(EXPANSION_MARK) || value.includes(ANY_VALUE_MARK));
}

/** The statuses `exit $((N))` may have, or `exit $VAR` / `exit "$VAR"` when the script sets the variable to numbers only. */
function computedCodes(text: string, tree: SyntaxTree): number[] | undefined {
  const arithmetic = /^\$\(\(\s*(\d+)\s*\)\)$/.exec(text);
  if (arithmetic) return [Number(arithmetic[1])];
  const variable = /^"?\$\{?([A-Za-z_]\w*)\}?"?$/.exec(text);
  const values = variable ? staticTexts(tree, variable[1]!) : undefined;
  return values?.every((v) => /^\d+$/.test(v)) ? [...new Set(values.map(Number))] : undefined;
}
