import { createScanner, type Node as JsonNode, type ParseError, parseTree, printParseErrorCode, SyntaxKind } from 'jsonc-parser';
import type { Diagnostic } from '../diagnostics.js';
import { LineIndex } from '../text/line-index.js';
import type { Profile } from './profile.js';
import type { SourceText } from './source.js';

/**
 * JSON nested deeper than this is refused before jsonc-parser builds its tree:
 * its parser recurses per level (5,000 levels overflowed the stack and ended
 * the whole run). Claude Code's settings nest about seven.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * A JSON hook configuration (settings, plugin hooks file, plugin manifest),
 * parsed with offsets; a syntax error is a positioned finding, and the tree
 * jsonc-parser recovers is still read.
 */
export function parseJsonDocument(path: string, source: SourceText): Profile {
  const lines = new LineIndex(source.text);
  const problems: Diagnostic[] = [];
  const profile: Profile = { path, kind: 'json', source, lines, bodyStart: source.text.length, problems };
  const tooDeep = firstTooDeepJson(source.text, MAX_JSON_DEPTH);
  if (tooDeep !== undefined) {
    problems.push({
      ruleId: 'json-syntax',
      severity: 'error',
      ...lines.rangeOf(tooDeep, tooDeep + 1),
      message: `JSON nested more than ${MAX_JSON_DEPTH} levels deep: not read (a hook configuration nests about seven).`,
    });
    return profile;
  }
  const errors: ParseError[] = [];
  const json = parseTree(source.text, errors, { allowTrailingComma: false, disallowComments: false, allowEmptyContent: false });
  const commas = errors.length > 0 ? trailingCommas(source.text) : undefined;
  const reported = new Set<number>();
  for (const error of errors.slice(0, 5)) {
    const comma = commas?.get(error.offset);
    // After a comma before `}` jsonc-parser expects a name and then a value: one mistake, one finding.
    if (comma !== undefined && reported.has(comma)) continue;
    if (comma !== undefined) reported.add(comma);
    problems.push({
      ruleId: 'json-syntax',
      severity: 'error',
      ...(comma === undefined
        ? {
            ...lines.rangeOf(error.offset, error.offset + Math.max(1, error.length)),
            message: `Invalid JSON: ${printParseErrorCode(error.error)
              .replace(/([a-z])([A-Z])/g, '$1 $2')
              .toLowerCase()}.`,
          }
        : {
            ...lines.rangeOf(comma, comma + 1),
            message: 'Invalid JSON: trailing comma (JSON.parse, which reads this file, rejects it).',
          }),
    });
  }
  if (json) {
    profile.json = json;
    problems.push(...duplicateKeys(json, lines));
  }
  return profile;
}

/**
 * Each comma followed (past blanks and comments) by a closing bracket, keyed
 * by that bracket's offset: jsonc-parser reports a trailing comma as a value
 * or property name expected at the bracket, often lines below the comma.
 */
function trailingCommas(text: string): Map<number, number> {
  const found = new Map<number, number>();
  const scanner = createScanner(text, true);
  let comma: number | undefined;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (token === SyntaxKind.LineCommentTrivia || token === SyntaxKind.BlockCommentTrivia) continue;
    if ((token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) && comma !== undefined)
      found.set(scanner.getTokenOffset(), comma);
    comma = token === SyntaxKind.CommaToken ? scanner.getTokenOffset() : undefined;
  }
  return found;
}

/** The offset of the first bracket that opens a level past `limit`, strings and comments skipped. */
function firstTooDeepJson(text: string, limit: number): number | undefined {
  const scanner = createScanner(text, false);
  let depth = 0;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      if (++depth > limit) return scanner.getTokenOffset();
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/**
 * A key written twice in one object: Claude Code reads its settings with
 * JSON.parse, where the last value wins, so an earlier one (a `command`, a
 * whole `hooks`) is silently dropped. The reader keeps the last too
 * (src/hooks/tree.ts), and each dropped key is reported.
 */
function duplicateKeys(root: JsonNode, lines: LineIndex): Diagnostic[] {
  const found: Diagnostic[] = [];
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const seen = new Map<string, JsonNode>();
    for (const child of node.children ?? []) {
      if (node.type === 'object' && child.type === 'property') {
        const key = child.children?.[0];
        if (key && typeof key.value === 'string') {
          const earlier = seen.get(key.value);
          if (earlier) {
            const { line, column } = lines.rangeOf(key.offset, key.offset + 1);
            found.push({
              ruleId: 'json-syntax',
              severity: 'error',
              ...lines.rangeOf(earlier.offset, earlier.offset + earlier.length),
              message: `Duplicate key \`${key.value}\`: Claude Code reads the last one (${line}:${column}), so this value is ignored.`,
            });
          }
          seen.set(key.value, key);
        }
      }
      stack.push(child);
    }
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}
