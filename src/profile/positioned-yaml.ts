import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { Range } from '../diagnostics.js';
import { nodeAtPath } from './profile.js';

/**
 * A YAML input file the tool reads besides profiles (a simulator scenario, a
 * Claude Code test table): parsed with positions, so every problem, from the
 * YAML itself, the schema or the contract, is reported at its line and column.
 */
export interface PositionedYaml {
  doc: Document.Parsed;
  data: unknown;
  /** The range of a node (its value, or the key of a missing value), or 1:1 when there is none. */
  nodeRange: (node: unknown) => Range;
  /** Where the value at a path is written; the parent's key when the value is missing. */
  at: (segments: readonly string[]) => Range;
}

export interface YamlProblem {
  range: Range;
  message: string;
}

export type PositionedYamlLoad = { ok: true; yaml: PositionedYaml } | { ok: false; problems: YamlProblem[] };

const FIRST_CHARACTER: Range = { line: 1, column: 1, endLine: 1, endColumn: 1 };

/**
 * The file's text without a byte-order mark, or the problem that it cannot be
 * read (`Unreadable scenario: ENOENT.`), at its first character; `what` names
 * the document in that message.
 */
export async function readYamlText(file: string, what: string): Promise<{ text: string } | { problems: YamlProblem[] }> {
  try {
    return { text: (await readFile(file, 'utf8')).replace(/^\uFEFF/, '') };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { problems: [{ range: FIRST_CHARACTER, message: `Unreadable ${what}: ${reason}.` }] };
  }
}

export function parsePositionedYaml(text: string): PositionedYamlLoad {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const rangeOf = (start: number, end: number): Range => {
    const from = lineCounter.linePos(start);
    const to = lineCounter.linePos(Math.max(end, start + 1));
    return { line: from.line, column: from.col, endLine: to.line, endColumn: to.col };
  };
  if (doc.errors.length > 0)
    return {
      ok: false,
      problems: doc.errors.map((error) => ({
        range: rangeOf(error.pos[0], error.pos[1]),
        message: `Invalid YAML: ${error.message.split('\n')[0] ?? ''}`,
      })),
    };
  const nodeRange = (node: unknown): Range => {
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    return range ? rangeOf(range[0], range[1]) : FIRST_CHARACTER;
  };
  const at = (segments: readonly string[]): Range => {
    const { node, pair } = nodeAtPath(doc.contents, [...segments]);
    return nodeRange(node ?? pair?.key ?? (segments.length > 0 ? undefined : doc.contents));
  };
  return { ok: true, yaml: { doc, data: doc.toJS({ maxAliasCount: 50 }) as unknown, nodeRange, at } };
}

/** What an Ajv error reports of the data: its keyword, where, and the parameters the messages read. */
interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * Schema errors as positioned problems, each said once: an unexpected key at
 * that key, a missing one at its parent, other errors at the value.
 * `oneOf`/`if` errors are left out: they report every branch, and the branch
 * errors beneath them say what is wrong. `whole` names the document in messages.
 */
export function schemaProblems(yaml: PositionedYaml, errors: readonly SchemaError[], whole: string): YamlProblem[] {
  const problems: YamlProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const segments = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const where = segments.join('.') || whole;
    let range: Range;
    let message: string;
    if (error.keyword === 'additionalProperties') {
      const name = String(error.params.additionalProperty);
      range = yaml.nodeRange(nodeAtPath(yaml.doc.contents, [...segments, name]).pair?.key);
      message = `Unexpected key \`${name}\` in ${where}.`;
    } else if (error.keyword === 'required') {
      range = yaml.at(segments);
      message = `Expected \`${String(error.params.missingProperty)}\` in ${where}.`;
    } else if (error.keyword === 'enum') {
      range = yaml.at(segments);
      message = `Invalid \`${where}\`: expected one of ${(error.params.allowedValues as unknown[]).map(String).join(', ')}.`;
    } else {
      range = yaml.at(segments);
      message = `Invalid \`${where}\`: ${error.message ?? 'is invalid'}.`;
    }
    const key = `${range.line}:${range.column}:${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ range, message });
  }
  return problems;
}
