import { isMap, isScalar, isSeq, parseDocument, visit, type Document, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';
import type { Node as JsonNode } from 'jsonc-parser';
import type { Diagnostic, Range } from '../diagnostics.js';
import { LineIndex } from '../text/line-index.js';
import { fastYaml } from './fast-yaml.js';
import { parseJsonDocument } from './json-document.js';
import { bytePosition, decodeSource, fromText, MAX_FILE_BYTES, type SourceProblem, type SourceText } from './source.js';

/** Aliases expanded while converting YAML to data; more means a "billion laughs" document. */
export const MAX_ALIAS_COUNT = 200;

/**
 * Collections nested deeper than this are refused before the YAML parser
 * sees them: its parser and composer recurse per level, a stack overflow
 * there (`? ? ? …`, `[[[[…`) can end the process in V8 rather than throw,
 * and nested complex keys cost polynomial time. Real profiles nest a handful
 * of levels.
 */
export const MAX_YAML_DEPTH = 64;
export { MAX_JSON_DEPTH } from './json-document.js';
const FAST_PATH_DEPTH_MARGIN = 4;

export interface Frontmatter {
  /** File offsets of the YAML text between the `---` fences. */
  start: number;
  end: number;
  doc: Document.Parsed;
  /** The YAML as data, or undefined when it has errors or could not be expanded safely. */
  data: unknown;
}

/** What a linted file is: a Markdown profile (agent, skill, command), a JSON hook configuration, or a shell script or Python program run by hooks. */
export type DocumentKind = 'markdown' | 'json' | 'script' | 'python' | 'node';

export interface Profile {
  path: string;
  /** Undefined means Markdown. */
  kind?: DocumentKind;
  /** JSON files: the parse tree with offsets (jsonc-parser), when the text has a value at all. */
  json?: JsonNode;
  source: SourceText;
  lines: LineIndex;
  frontmatter?: Frontmatter;
  /** File offset where the Markdown body starts. */
  bodyStart: number;
  /** The file does not start with a `---` line. */
  frontmatterMissing?: boolean;
  /** Problems found while reading and parsing, reported under the core rules' ids. */
  problems: Diagnostic[];
}

export type LoadedProfile = { ok: true; profile: Profile } | { ok: false; diagnostic: Diagnostic };

const FENCE = /^---[ \t]*\r?$/;
const CLOSING_FENCE = /^(?:---|\.\.\.)[ \t]*\r?$/;

export function profileFromBytes(path: string, bytes: Uint8Array, kind: DocumentKind = documentKind(path), size?: number): LoadedProfile {
  const decoded = decodeSource(bytes, MAX_FILE_BYTES, size);
  if ('kind' in decoded) return { ok: false, diagnostic: sourceProblemDiagnostic(decoded, bytes) };
  return { ok: true, profile: parseDocument_(path, decoded, kind) };
}

export function profileFromText(path: string, text: string, kind: DocumentKind = documentKind(path)): Profile {
  return parseDocument_(path, fromText(text), kind);
}

/** The kind of document a path names, from its extension: `.json` settings and hook files, `.sh`/`.bash` scripts, else Markdown. */
export function documentKind(path: string): DocumentKind {
  if (/\.json$/i.test(path)) return 'json';
  if (/\.(?:sh|bash)$/i.test(path)) return 'script';
  return 'markdown';
}

function parseDocument_(path: string, source: SourceText, kind: DocumentKind): Profile {
  if (kind === 'json') return parseJsonDocument(path, source);
  if (kind === 'script' || kind === 'python' || kind === 'node')
    return { path, kind, source, lines: new LineIndex(source.text), bodyStart: source.text.length, problems: [] };
  return parseProfile(path, source);
}

/** A `file-unreadable` finding about the whole file, at its start. */
export function unreadableFile(message: string): Diagnostic {
  return { ruleId: 'file-unreadable', severity: 'error', line: 1, column: 1, endLine: 1, endColumn: 1, message };
}

function sourceProblemDiagnostic(problem: SourceProblem, bytes: Uint8Array): Diagnostic {
  const at = (offset: number): Range => {
    const { line, column } = bytePosition(bytes, offset);
    return { line, column, endLine: line, endColumn: column + 1 };
  };
  switch (problem.kind) {
    case 'binary':
      return {
        ruleId: 'file-unreadable',
        severity: 'error',
        ...at(problem.offset),
        message: 'Unexpected binary content (a NUL byte): this is not a Markdown profile.',
      };
    case 'encoding':
      return {
        ruleId: 'file-unreadable',
        severity: 'error',
        ...at(problem.offset),
        message: 'Invalid UTF-8 byte sequence: profiles must be UTF-8 text.',
      };
    case 'too-large':
      return unreadableFile(
        `Unexpected file size of ${problem.atLeast ? 'more than ' : ''}${problem.atLeast ? MAX_FILE_BYTES : problem.bytes} bytes: profiles over ${MAX_FILE_BYTES / 1024 / 1024} MiB are not linted.`,
      );
  }
}

function parseProfile(path: string, source: SourceText): Profile {
  const lines = new LineIndex(source.text);
  const problems: Diagnostic[] = [];
  const profile: Profile = { path, source, lines, bodyStart: 0, problems };
  const first = lines.lineText(1);
  if (!FENCE.test(first)) {
    // Whether that is a problem depends on what the file is: the frontmatter-missing rule decides.
    profile.frontmatterMissing = true;
    return profile;
  }
  let closingLine = 0;
  for (let line = 2; line <= lines.lineCount; line++) {
    if (CLOSING_FENCE.test(lines.lineText(line))) {
      closingLine = line;
      break;
    }
  }
  if (closingLine === 0) {
    problems.push({
      ruleId: 'frontmatter-unclosed',
      severity: 'error',
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 4,
      message: 'Expected a closing `---` line for the frontmatter opened here.',
    });
    return profile;
  }
  const start = lines.lineStarts[1]!;
  const end = lines.lineStarts[closingLine - 1]!;
  profile.bodyStart = lines.lineStarts[closingLine] ?? source.text.length;
  const yamlText = source.text.slice(start, end);
  if (yamlText.trim() === '') {
    problems.push({
      ruleId: 'frontmatter-empty',
      severity: 'warning',
      line: 1,
      column: 1,
      endLine: closingLine,
      endColumn: 4,
      message: 'Unexpected empty frontmatter: a profile needs at least a `name` and a `description`.',
    });
    return profile;
  }
  // The fast path runs first and needs no guard: it gives up on collections nested deeper than the
  // guard's limit less a margin, and the guard counts the shapes it reads at most one level deeper
  // than they nest (a compact `- `, a one-line flow sequence). The one document it reads that the
  // guard refused is a block scalar whose lines step their indentation deeper 60 times and more:
  // text, not nesting, which the guard's generous count of indentation took for collections.
  const fast = fastYaml(yamlText, MAX_YAML_DEPTH - FAST_PATH_DEPTH_MARGIN);
  if (fast) {
    // The fast path only accepts documents yaml reads without an error or a warning.
    profile.frontmatter = { start, end, doc: fast.doc, data: fast.data };
    return profile;
  }
  const tooDeep = firstTooDeep(yamlText, MAX_YAML_DEPTH);
  if (tooDeep !== undefined) {
    problems.push({
      ruleId: 'frontmatter-yaml',
      severity: 'error',
      ...lines.rangeOf(start + tooDeep, start + tooDeep + 1),
      message: `Invalid YAML: collections nested deeper than ${MAX_YAML_DEPTH} levels are not read.`,
    });
    return profile;
  }
  const doc = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false, strict: true });
  const frontmatter: Frontmatter = { start, end, doc, data: undefined };
  profile.frontmatter = frontmatter;
  const rangeAt = (pos: readonly [number, number]): Range => lines.rangeOf(start + pos[0], start + Math.max(pos[1], pos[0] + 1));
  // One broken line makes the parser report again and again: on it, on the
  // next line, on the blank line after it. The first report explains the
  // cause; an error that starts where the previous one's text ends (only
  // blank lines between) is the same cause and is not reported again.
  let lastEnd = 0;
  for (const error of doc.errors) {
    let range = rangeAt(error.pos);
    // yaml places "a plain value cannot contain `: `" at the value's start: the `: ` it means is further on the line.
    if (error.code === 'BLOCK_AS_IMPLICIT_KEY') {
      const lineEnd = yamlText.indexOf('\n', error.pos[0]);
      const colon = /:(?=[ \t]|$)/m.exec(yamlText.slice(error.pos[0], lineEnd === -1 ? undefined : lineEnd));
      if (colon) range = rangeAt([error.pos[0] + colon.index, error.pos[0] + colon.index + 1]);
    }
    if (lastEnd > 0 && isCascade(lines, lastEnd, range.line)) {
      lastEnd = Math.max(lastEnd, range.endLine);
      continue;
    }
    lastEnd = range.endLine;
    const hint = error.code === 'BLOCK_AS_IMPLICIT_KEY' ? ' (a plain value cannot contain `: `; quote it or use a `>` block)' : '';
    problems.push({ ruleId: 'frontmatter-yaml', severity: 'error', ...range, message: `Invalid YAML: ${firstLine(error.message)}${hint}` });
  }
  for (const warning of doc.warnings) {
    problems.push({
      ruleId: 'frontmatter-yaml',
      severity: 'warning',
      ...rangeAt(warning.pos),
      message: `Unexpected YAML: ${firstLine(warning.message)}`,
    });
  }
  if (doc.errors.length === 0) {
    try {
      frontmatter.data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
      if (yamlText.includes('*')) inlineAliases(doc);
    } catch (error) {
      // yaml refuses to expand a document whose aliases multiply past the bound.
      problems.push({
        ruleId: 'frontmatter-yaml',
        severity: 'error',
        ...lines.rangeOf(start, start + 3),
        ...firstAliasRange(doc, rangeAt),
        message: `Invalid YAML: ${firstLine(error instanceof Error ? error.message : String(error))}`,
      });
    }
  }
  return profile;
}

/**
 * Puts in place of each alias (`post: *h`) the node its anchor names, as any
 * YAML loader (and so the runtime) reads it: the hook behind an alias is
 * linted, its findings placed at the anchored text. Called only once the
 * document expanded within MAX_ALIAS_COUNT; an alias to a collection that
 * holds it (`&a [*a]`) stays an alias, so walks of the tree end.
 */
function inlineAliases(doc: Document.Parsed): void {
  visit(doc, {
    Alias(_key, alias, path) {
      const target = alias.resolve(doc);
      if (target && !path.includes(target)) return target;
      return undefined;
    },
  });
}

/** Does a YAML error starting on `line` follow on from an error that ended on `previousEnd`? */
function isCascade(lines: LineIndex, previousEnd: number, line: number): boolean {
  if (line <= previousEnd + 1 || lines.lineText(line).trim() === '') return true;
  for (let between = previousEnd + 1; between < line; between++) if (lines.lineText(between).trim() !== '') return false;
  return true;
}

/**
 * Offset where the YAML text first nests deeper than `limit`, judged from the
 * text alone (the parser cannot be asked: it is what overflows). It counts
 * generously: indentation levels, compact indicators (`- - x`, `? ? x`) and
 * unclosed flow brackets, so a deep document is caught whatever its form.
 */
function firstTooDeep(yamlText: string, limit: number): number | undefined {
  const indents: number[] = [];
  let flow = 0;
  let offset = 0;
  for (const line of yamlText.split('\n')) {
    let indent = 0;
    while (line[indent] === ' ' || line[indent] === '\t') indent++;
    const rest = line.slice(indent);
    if (rest !== '' && rest[0] !== '#') {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      // Most lines start with a key: the compact indicators are looked for only where one can be.
      const compact = '-?:'.includes(rest[0]!) ? (/^(?:[-?:](?:[ \t]+|$))*/.exec(rest)![0].match(/[-?:]/g) ?? []).length : 0;
      if (indents.length + compact + flow > limit) return offset + indent;
      // Only a line with a bracket (or an open flow collection) can change the flow depth.
      if (flow === 0 && !rest.includes('[') && !rest.includes('{')) {
        offset += line.length + 1;
        continue;
      }
      for (let i = 0; i < rest.length; i++) {
        const c = rest[i];
        if (c === '[' || c === '{') {
          if (indents.length + compact + ++flow > limit) return offset + indent + i;
        } else if ((c === ']' || c === '}') && flow > 0) {
          flow--;
        }
      }
    }
    offset += line.length + 1;
  }
  return undefined;
}

function firstLine(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/ at line \d+, column \d+:?$/, '')
    .trim();
}

function firstAliasRange(doc: Document.Parsed, rangeAt: (pos: readonly [number, number]) => Range): Range | undefined {
  let found: Range | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (node.range) found = rangeAt([node.range[0], node.range[1]]);
      return visit.BREAK;
    },
  });
  return found;
}

/** File range of a YAML node (its value part, without trailing comments). */
export function nodeRange(profile: Profile, node: YamlNode | null | undefined): Range | undefined {
  const fm = profile.frontmatter;
  if (!fm || !node?.range) return undefined;
  const [from, to] = node.range;
  return profile.lines.rangeOf(fm.start + from, fm.start + Math.max(to, from + 1));
}

/** The top-level map of the frontmatter, when it is one. */
export function rootMap(profile: Profile): YAMLMap | undefined {
  const contents = profile.frontmatter?.doc.contents;
  return isMap(contents) ? contents : undefined;
}

export function mapPairs(node: unknown): Pair<YamlNode, YamlNode | null>[] {
  return isMap(node) ? (node.items as Pair<YamlNode, YamlNode | null>[]) : [];
}

export function keyName(pair: Pair<YamlNode, YamlNode | null>): string | undefined {
  const key = pair.key;
  return isScalar(key) ? String(key.value) : undefined;
}

export function findPair(map: unknown, name: string): Pair<YamlNode, YamlNode | null> | undefined {
  return mapPairs(map).find((pair) => keyName(pair) === name);
}

/** Walks a JSON-pointer-like path (`/hooks/pre/0`) through the YAML tree. */
export function nodeAtPath(
  root: unknown,
  segments: readonly string[],
): { node: YamlNode | null | undefined; pair?: Pair<YamlNode, YamlNode | null> } {
  let node = root as YamlNode | null | undefined;
  let pair: Pair<YamlNode, YamlNode | null> | undefined;
  for (const segment of segments) {
    if (isMap(node)) {
      pair = findPair(node, segment);
      if (!pair) return { node: undefined };
      node = pair.value;
    } else if (isSeq(node)) {
      node = node.items[Number(segment)] as YamlNode | undefined;
      pair = undefined;
    } else {
      return { node: undefined };
    }
  }
  return { node, pair };
}
