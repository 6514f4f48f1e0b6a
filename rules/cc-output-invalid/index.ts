import {
  createScanner,
  findNodeAtLocation,
  getNodeValue,
  type Node as JsonNode,
  type ParseError,
  parseTree,
  printParseErrorCode,
  SyntaxKind,
} from 'jsonc-parser';
import { defineRule } from '../../src/engine/rule.js';
import { eventSpec, eventsOfHook } from '../../src/runtimes/claude-code/contract.js';
import { checkOutputJson, type OutputProblem } from '../../src/runtimes/claude-code/output-json.js';
import { EXPANSION_MARK, printedText, runsUnconditionally, type PrintedText } from '../../src/shell/printed-text.js';

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
    syntax:
      "Invalid JSON in the hook's output ({{error}}): Claude Code reports output that starts with `{` but does not parse as a hook error (since v2.1.248), and acts on none of it.",
  },
  checkScript(context) {
    const events = [...new Set(eventsOfHook(context.hook))];
    // A background hook's output decides nothing (cc-async-invalid speaks of that).
    if (events.length === 0 || context.hook.claudeCode?.async) return;
    const source = context.hook.text;
    for (const command of context.commands) {
      const printed = printedText(command, source);
      if (!printed || !printed.text.trimStart().startsWith('{')) continue;
      const at = (start: number, end: number) =>
        context.range(printed.offsets[start]!, printed.ends[Math.min(Math.max(start, end - 1), printed.ends.length - 1)]!);
      const shape = jsonShape(printed);
      if (shape === 'dynamic') continue;
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
      // A branch that answers another event (`case $event in PermissionRequest) …`) is for handlers this file does not show.
      const named = namedEvent(tree);
      if (named && !events.includes(named) && eventSpec(named) && !runsUnconditionally(command)) continue;
      for (const problem of problemsOf(tree, events)) {
        const place = placeOf(tree, problem);
        context.report({
          messageId: 'problem',
          data: { message: problem.message },
          severity: problem.severity,
          range: at(place.offset, place.offset + place.length),
        });
      }
    }
  },
});

/**
 * `dynamic` when the shell fills in more than string contents (a raw `$VALUE`
 * or a key), so the JSON's shape is not known; `complete` when the print
 * holds one whole object (its braces close); else `partial`.
 */
function jsonShape(printed: PrintedText): 'dynamic' | 'complete' | 'partial' {
  const scanner = createScanner(printed.text, true);
  let depth = 0;
  let closed = false;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    const token = printed.text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength());
    if (closed) return 'partial';
    if (token.includes(EXPANSION_MARK)) {
      if (kind !== SyntaxKind.StringLiteral) return 'dynamic';
      // A string followed by `:` is a key.
      const next = printed.text.slice(scanner.getTokenOffset() + scanner.getTokenLength()).trimStart();
      if (next.startsWith(':')) return 'dynamic';
    }
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) depth++;
    if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) closed = --depth === 0;
  }
  return closed ? 'complete' : 'partial';
}

/** The output contract's problems with this object, for every event the hook runs on; those of values the shell fills in dropped. */
function problemsOf(tree: JsonNode, events: readonly string[]): OutputProblem[] {
  const json = getNodeValue(tree) as Record<string, unknown>;
  const dynamic = dynamicPaths(tree);
  const named = namedEvent(tree);
  // An object that names one of the hook's events is that event's output (a script shared by several events branches on it).
  const judged = named && events.includes(named) ? [named] : events;
  const perEvent = judged.map((event) => {
    const problems: OutputProblem[] = [];
    const input = dynamic.some((p) => p.join('.') === 'hookSpecificOutput.hookEventName') ? withEventName(json, event) : json;
    checkOutputJson(event, input, problems);
    return problems.filter((p) => !(VALUE_PROBLEMS.has(p.id) && dynamic.some((d) => samePath(d, p.path ?? []))));
  });
  // With several events, only what is wrong for each of them is reported (once, as the first event says it).
  const key = (p: OutputProblem): string => `${p.id} ${(p.path ?? []).join('.')}`;
  return perEvent[0]!.filter((p) => perEvent.every((problems) => problems.some((q) => key(q) === key(p))));
}

/** The event the object names in `hookSpecificOutput.hookEventName`, when the script spells it out. */
function namedEvent(tree: JsonNode): string | undefined {
  const value: unknown = findNodeAtLocation(tree, ['hookSpecificOutput', 'hookEventName'])?.value;
  return typeof value === 'string' && !value.includes(EXPANSION_MARK) ? value : undefined;
}

function withEventName(json: Record<string, unknown>, event: string): Record<string, unknown> {
  return { ...json, hookSpecificOutput: { ...(json.hookSpecificOutput as Record<string, unknown>), hookEventName: event } };
}

/** The paths of string values the shell fills in (they hold an expansion). */
function dynamicPaths(tree: JsonNode): string[][] {
  const found: string[][] = [];
  const visit = (node: JsonNode, path: string[]): void => {
    if (node.type === 'string' && typeof node.value === 'string' && node.value.includes(EXPANSION_MARK)) found.push(path);
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

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

/** Where a problem is in the printed text: the value it is about, else its key, else the nearest enclosing key, else the object. */
function placeOf(tree: JsonNode, problem: OutputProblem): { offset: number; length: number } {
  const path = problem.path ?? [];
  for (let depth = path.length; depth > 0; depth--) {
    const node = findNodeAtLocation(tree, path.slice(0, depth));
    if (!node) continue;
    if (VALUE_PROBLEMS.has(problem.id) && depth === path.length && node.type !== 'object') return node;
    const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    return key ?? node;
  }
  return { offset: tree.offset, length: 1 };
}
