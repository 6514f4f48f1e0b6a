import { own } from '../../src/records.js';
import {
  createScanner,
  getNodeValue,
  type Node as JsonNode,
  type ParseError,
  parseTree,
  printParseErrorCode,
  SyntaxKind,
} from 'jsonc-parser';
import { defineRule } from '../../src/engine/rule.js';
import { eventSpec, eventsOfHook, OUTPUT_FIELD_TYPES, PATH_OUTPUT_EVENT } from '../../src/runtimes/claude-code/contract.js';
import { checkOutputJson, type OutputProblem } from '../../src/runtimes/claude-code/output-json.js';
import {
  ANY_VALUE_MARK,
  EXPANSION_MARK,
  capturedPrints,
  printedText,
  quoteRawValues,
  runsUnconditionally,
  type PrintedText,
} from '../../src/shell/printed-text.js';
import { pythonOutputs } from '../../src/shell/python-output.js';
import { nodeOutputs } from '../../src/shell/node-output.js';
import { parseProgramFile } from '../../src/shell/node-program.js';
import { foreignSpans, inSpans } from '../../src/runtimes/claude-code/program-platforms.js';
import type { Range } from '../../src/diagnostics.js';
import type { Report } from '../../src/engine/rule.js';

/** Problems about a field's value, which say nothing when the shell fills that value in at run time. */
const VALUE_PROBLEMS = new Set(['invalid-value', 'event-name-mismatch']);

/**
 * The JSON a Claude Code hook prints is its decision; a field Claude Code
 * does not read where it stands, a value it does not know, or another
 * event's name makes the decision silently void (or the whole output a
 * non-blocking error): the guard lets the tool call through. The JSON each
 * `echo`, `printf` or `cat <<EOF` prints is read as the shell would print
 * it and checked against the same output contract the executor judges a
 * real run by (src/runtimes/claude-code/output-json.ts), each finding at its
 * key in the file. Values the shell fills in (`"$REASON"`, `%s`) are taken
 * as unknown: only what the script spells out is judged.
 */
export default defineRule({
  id: 'cc-output-invalid',
  meta: {
    description:
      'A Claude Code hook prints JSON that Claude Code rejects or partly ignores (a field at the wrong level, an unknown value, another event).',
    severity: 'error',
    category: 'runtime',
    runtimes: ['claude-code'],
  },
  messages: {
    // The output contract's own words (src/runtimes/claude-code/output-json.ts), which start as every message does.
    problem: '{{message}}',
    pathOutput:
      "Unexpected JSON on WorktreeCreate's stdout: a command hook answers with the new worktree's path (the last non-empty line it prints), so this object would be taken for the path; `worktreePath` is an HTTP hook's answer.",
    syntax:
      "Invalid JSON in the hook's output ({{error}}): Claude Code reports output that starts with `{` but does not parse as a hook error (since v2.1.248), and acts on none of it.",
  },
  checkScript(context) {
    const events = [...new Set(eventsOfHook(context.hook))];
    // A background hook's output decides nothing (cc-async-invalid speaks of that).
    if (events.length === 0 || context.hook.claudeCode?.async) return;
    const source = context.hook.text;
    const captured = capturedPrints(context.commands, source);
    for (const command of context.commands) {
      const spelled = printedText(command, source, captured);
      if (!spelled || !spelled.text.trimStart().startsWith('{')) continue;
      const printed = quoteRawValues(spelled);
      const at = placer(printed, (start, end) => context.range(start, end));
      const shape = jsonShape(printed);
      if (shape === 'unread') continue;
      const errors: ParseError[] = [];
      const tree = parseTree(printed.text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
      if (errors.length || !tree) {
        // A print of part of the object (`echo '{'`, then its fields line by line) is not an error of its own.
        if (shape === 'complete' && errors[0])
          context.report({
            messageId: 'syntax',
            data: {
              error: printParseErrorCode(errors[0].error)
                .replace(/([a-z])([A-Z])/g, '$1 $2')
                .toLowerCase(),
            },
            range: at(errors[0].offset, errors[0].offset + Math.max(1, errors[0].length)),
          });
        continue;
      }
      if (tree.type !== 'object') continue;
      // In a script file, a branch that answers another event (`case $event in PermissionRequest) …`) may
      // be for handlers this lint does not see (user settings); an inline command runs on its own event only.
      const scriptFile = context.hook.claudeCode?.callerEvents !== undefined;
      judgeObject(tree, events, scriptFile && !runsUnconditionally(command), at, (report) => context.report(report));
    }
  },
  // A Python or Node program that hooks run: the outputs it spells out as dict or object literals
  // (`json.dumps({"hookSpecificOutput": …})`, `JSON.stringify({ hookSpecificOutput: … })`),
  // each as a script file's print (an object naming another event may be for another branch of it).
  checkProgram({ program, range, report }) {
    const events = [...new Set(program.callerEvents)];
    if (events.length === 0 || program.inBackground) return;
    const node = program.language === 'node' ? parseProgramFile(program) : undefined;
    const outputs = program.language === 'python' ? pythonOutputs(program.text) : node ? nodeOutputs(node) : [];
    const foreign = foreignSpans(program, node);
    for (const printed of outputs) {
      if (inSpans(foreign, printed.offsets[0] ?? 0)) continue;
      const tree = parseTree(printed.text);
      if (tree?.type === 'object') judgeObject(tree, events, true, placer(printed, range), report);
    }
  },
});

/** A range in the file from offsets in printed text: from the first character's source to the last one's. */
function placer(printed: PrintedText, range: (start: number, end: number) => Range): (start: number, end: number) => Range {
  const last = printed.text.length - 1;
  return (start, end) => range(printed.offsets[Math.min(start, last)]!, printed.ends[Math.min(Math.max(start, end - 1), last)]!);
}

/** Reports what the output contract finds wrong with one printed object (none when it may answer an event not run here). */
function judgeObject(
  tree: JsonNode,
  events: readonly string[],
  mayBeForOtherEvents: boolean,
  at: (start: number, end: number) => Range,
  report: (report: Report) => void,
): void {
  // WorktreeCreate's command hook answers with a path, not JSON: this object would be taken for the path.
  if (events.every((event) => event === PATH_OUTPUT_EVENT)) {
    report({ messageId: 'pathOutput', severity: 'warning', range: at(tree.offset, tree.offset + tree.length) });
    return;
  }
  const named = namedEvent(tree);
  if (mayBeForOtherEvents && named && !events.includes(named) && eventSpec(named)) return;
  for (const problem of problemsOf(tree, events, named)) {
    const place = placeOf(tree, problem);
    report({
      messageId: 'problem',
      // A value the shell (or the program) fills in shows as `…`, not as the marker that stands for it.
      data: { message: problem.message.replaceAll(EXPANSION_MARK, '…').replaceAll(ANY_VALUE_MARK, '…') },
      severity: problem.severity,
      range: at(place.offset, place.offset + place.length),
    });
  }
}

/** JSON nested deeper than this is not read (hook output nests three or four levels). */
const MAX_DEPTH = 64;

/**
 * `unread` when the shell fills in more than string contents (a raw `$VALUE`
 * or a key), so the JSON's shape is not known, or when it nests past
 * MAX_DEPTH; `complete` when the print holds one whole object (its braces
 * close, whatever follows them); else `partial`, a piece of an object printed
 * in several prints.
 */
function jsonShape(printed: PrintedText): 'unread' | 'complete' | 'partial' {
  const scanner = createScanner(printed.text, true);
  let depth = 0;
  let closed = false;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    const token = printed.text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength());
    if (token.includes(EXPANSION_MARK)) {
      if (kind !== SyntaxKind.StringLiteral) return 'unread';
      // A string followed by `:` is a key.
      const next = printed.text.slice(scanner.getTokenOffset() + scanner.getTokenLength()).trimStart();
      if (next.startsWith(':')) return 'unread';
    }
    if (closed) continue;
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
      if (++depth > MAX_DEPTH) return 'unread';
    }
    if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) closed = --depth === 0;
  }
  return closed ? 'complete' : 'partial';
}

/** Fields whose value is one of a few words: one the shell fills in is left out of the check (it may be any of them). */
const OPEN_CHOICES = new Set(['decision', 'hookSpecificOutput.permissionDecision', 'hookSpecificOutput.action']);
/** Choices nested in an object that must stay: problems about them (or their object) are dropped instead. */
const NESTED_CHOICES = new Set(['behavior']);

/** The output contract's problems with this object (`named`: the event it names), for every event the hook runs on, with what the shell fills in taken as unknown. */
function problemsOf(tree: JsonNode, events: readonly string[], named: string | undefined): OutputProblem[] {
  const dynamic = dynamicPaths(tree, EXPANSION_MARK);
  // A jq expression's value may be of any type: nothing is said of it, or of what holds it, but that its key is known.
  const anyType = dynamicPaths(tree, ANY_VALUE_MARK);
  dynamic.push(...anyType);
  // An object that names one of the hook's events is that event's output (a script shared by several events branches on it).
  const judged = named && events.includes(named) ? [named] : events;
  const unknownChoices = dynamic.filter((path) => NESTED_CHOICES.has(path[path.length - 1]!));
  const value = getNodeValue(tree) as Record<string, unknown>;
  const dropped = new Set(dynamic.map((path) => path.join('.')).filter((key) => OPEN_CHOICES.has(key)));
  const eventNameFilledIn = dynamic.some((path) => path.join('.') === 'hookSpecificOutput.hookEventName');
  const perEvent = judged.map((event) => {
    const json = without(value, dropped, '');
    const specific = value.hookSpecificOutput;
    // A whole `hookSpecificOutput` known only at run time says nothing to judge.
    if (specific === ANY_VALUE_MARK) delete json.hookSpecificOutput;
    if (specific && typeof specific === 'object' && !Array.isArray(specific)) {
      json.hookSpecificOutput = without(specific as Record<string, unknown>, dropped, 'hookSpecificOutput.');
      if (eventNameFilledIn) (json.hookSpecificOutput as Record<string, unknown>).hookEventName = event;
    }
    const problems: OutputProblem[] = [];
    checkOutputJson(event, json, problems);
    return problems.filter(
      (p) =>
        !(
          VALUE_PROBLEMS.has(p.id) &&
          (unknownChoices.some((d) => startsWith(d, p.path ?? [])) ||
            anyType.some((d) => startsWith(d, p.path ?? []) || startsWith(p.path ?? [], d)))
        ),
    );
  });
  // With several events, only what is wrong for each of them is reported (once, as the first event says it).
  const key = (p: OutputProblem): string => `${p.id} ${(p.path ?? []).join('.')}`;
  const everywhere = perEvent.slice(1).map((problems) => new Set(problems.map(key)));
  return perEvent[0]!.filter((p) => everywhere.every((keys) => keys.has(key(p))));
}

/**
 * A copy of the object without the keys (written as paths under `prefix`) in
 * `dropped`, and with a value of any type (ANY_VALUE_MARK) of a typed field
 * standing in as one of that type: the field is still judged as a key, and
 * the rest of the object is judged as if it held a valid value.
 */
function without(object: Record<string, unknown>, dropped: ReadonlySet<string>, prefix: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(object)
      .filter(([key]) => !dropped.has(prefix + key))
      .map(([key, value]) => [key, value === ANY_VALUE_MARK ? (STAND_IN[own(OUTPUT_FIELD_TYPES, key) ?? ''] ?? value) : value]),
  );
}

/** A valid value of each type a field may need, for a value known only at run time. */
const STAND_IN: Record<string, unknown> = { boolean: true, object: {}, 'string[]': [], string: '' };

/** The event the object names in `hookSpecificOutput.hookEventName`, when the script spells it out. */
function namedEvent(tree: JsonNode): string | undefined {
  const value: unknown = locate(tree, ['hookSpecificOutput', 'hookEventName'])?.value;
  return typeof value === 'string' && !value.includes(EXPANSION_MARK) && !value.includes(ANY_VALUE_MARK) ? value : undefined;
}

/** The paths of string values that hold `mark`: filled in at run time; the tree is at most MAX_DEPTH deep. */
function dynamicPaths(tree: JsonNode, mark: string): string[][] {
  const found: string[][] = [];
  const visit = (node: JsonNode, path: string[]): void => {
    if (node.type === 'string' && typeof node.value === 'string' && node.value.includes(mark)) found.push(path);
    if (node.type === 'object')
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value) visit(value, [...path, String(key.value)]);
      }
    if (node.type === 'array') (node.children ?? []).forEach((child, i) => visit(child, [...path, String(i)]));
  };
  visit(tree, []);
  return found;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((part, i) => part === path[i]);
}

/** The value at a path as JSON.parse reads it: of a key written twice, the last. */
function locate(tree: JsonNode, path: readonly string[]): JsonNode | undefined {
  let node: JsonNode | undefined = tree;
  for (const part of path) {
    if (node?.type !== 'object') return undefined;
    const properties: JsonNode[] = node.children ?? [];
    let value: JsonNode | undefined;
    for (const property of properties) if (property.children?.[0]?.value === part) value = property.children[1];
    node = value;
  }
  return node;
}

/** Where a problem is in the printed text: the value it is about, else its key, else the nearest enclosing key, else the object. */
function placeOf(tree: JsonNode, problem: OutputProblem): { offset: number; length: number } {
  const path = problem.path ?? [];
  for (let depth = path.length; depth > 0; depth--) {
    const node = locate(tree, path.slice(0, depth));
    if (!node) continue;
    if (VALUE_PROBLEMS.has(problem.id) && depth === path.length && node.type !== 'object') return node;
    const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    return key ?? node;
  }
  return { offset: tree.offset, length: 1 };
}
