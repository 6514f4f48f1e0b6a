import type { Node as JsonNode } from 'jsonc-parser';
import { isMap, isScalar, isSeq, type Node as YamlNode, type Pair } from 'yaml';
import type { Range } from '../diagnostics.js';
import type { Profile } from '../profile/profile.js';
import { locateSegments, styleOf } from './extract.js';
import { decodeJsonString } from './json-string.js';
import type { ScalarStyle, SourceSegment } from './types.js';

/**
 * A value of a hook configuration with its place in the file, the same for
 * YAML frontmatter and JSON files, so one walker reads Claude Code's
 * events → groups → handlers wherever they are written.
 */
export type PNode = PObject | PArray | PScalar;

interface PBase {
  /** File range of the value. */
  range: Range;
}

export interface PEntry {
  key: string;
  keyRange: Range;
  value: PNode;
}

export interface PObject extends PBase {
  kind: 'object';
  entries: PEntry[];
}

export interface PArray extends PBase {
  kind: 'array';
  items: PNode[];
}

export interface PScalar extends PBase {
  kind: 'string' | 'number' | 'boolean' | 'null';
  value: string | number | boolean | null;
  /** For strings: the decoded text with its source map into the file. */
  script?(): { text: string; style: ScalarStyle; segments: SourceSegment[] };
}

export function entry(node: PNode | undefined, key: string): PEntry | undefined {
  return node?.kind === 'object' ? node.entries.find((e) => e.key === key) : undefined;
}

/** Kind of a value in words, for messages. */
export function kindOf(node: PNode): string {
  switch (node.kind) {
    case 'object':
      return 'a mapping';
    case 'array':
      return 'a list';
    case 'null':
      return 'nothing';
    default:
      return `a ${node.kind}`;
  }
}

/** A YAML node of a profile's frontmatter as a positioned value. */
export function fromYaml(profile: Profile, node: YamlNode | null | undefined, fallback: Range, parentIndent: number): PNode {
  const fm = profile.frontmatter!;
  const rangeOf = (n: YamlNode): Range | undefined =>
    n.range ? profile.lines.rangeOf(fm.start + n.range[0], fm.start + Math.max(n.range[1], n.range[0] + 1)) : undefined;
  if (!node) return { kind: 'null', value: null, range: fallback };
  const range = rangeOf(node) ?? fallback;
  if (isMap(node)) {
    const entries: PEntry[] = [];
    for (const pair of node.items as Pair<YamlNode, YamlNode | null>[]) {
      if (!isScalar(pair.key)) continue;
      const keyRange = rangeOf(pair.key) ?? range;
      entries.push({ key: String(pair.key.value), keyRange, value: fromYaml(profile, pair.value, keyRange, keyRange.column - 1) });
    }
    return { kind: 'object', entries, range };
  }
  if (isSeq(node)) {
    return { kind: 'array', items: node.items.map((item) => fromYaml(profile, item as YamlNode, range, range.column - 1)), range };
  }
  if (isScalar(node)) {
    const value = node.value;
    if (typeof value === 'string') {
      const scalar = node;
      return {
        kind: 'string',
        value,
        range: trimmedRange(profile, scalar) ?? range,
        script: () => yamlScript(profile, scalar, parentIndent),
      };
    }
    if (typeof value === 'number' || typeof value === 'boolean') return { kind: typeof value as 'number' | 'boolean', value, range };
    if (value === null || value === undefined) return { kind: 'null', value: null, range };
    // Dates and other tagged scalars: their text is what a hook would see.
    return { kind: 'string', value: value instanceof Date ? value.toISOString() : JSON.stringify(value), range };
  }
  return { kind: 'null', value: null, range };
}

/** A block scalar's range runs to the next key; the value ends with its last non-blank character. */
function rawBounds(profile: Profile, node: YamlNode): { start: number; end: number } | undefined {
  const fm = profile.frontmatter;
  if (!fm || !node.range) return undefined;
  const start = fm.start + node.range[0];
  let end = fm.start + node.range[1];
  while (end > start && /\s/.test(profile.source.text[end - 1]!)) end--;
  return { start, end };
}

function trimmedRange(profile: Profile, node: YamlNode): Range | undefined {
  const bounds = rawBounds(profile, node);
  return bounds && profile.lines.rangeOf(bounds.start, bounds.end);
}

function yamlScript(
  profile: Profile,
  node: YamlNode,
  parentIndent: number,
): { text: string; style: ScalarStyle; segments: SourceSegment[] } {
  const scalar = node as unknown as import('yaml').Scalar;
  const style = styleOf(scalar);
  const text = String(scalar.value);
  const bounds = rawBounds(profile, node)!;
  const raw = profile.source.text.slice(bounds.start, bounds.end);
  return { text, style, segments: locateSegments(raw, bounds.start, text, style, parentIndent) };
}

/** A jsonc-parser tree as a positioned value. */
export function fromJson(profile: Profile, node: JsonNode): PNode {
  const range = profile.lines.rangeOf(node.offset, node.offset + node.length);
  switch (node.type) {
    case 'object': {
      const entries: PEntry[] = [];
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (!key || typeof key.value !== 'string') continue;
        const keyRange = profile.lines.rangeOf(key.offset, key.offset + key.length);
        entries.push({
          key: key.value,
          keyRange,
          value: value ? fromJson(profile, value) : { kind: 'null', value: null, range: keyRange },
        });
      }
      // A key written twice: JSON.parse, and so Claude Code, keeps the last (the reader reports the others).
      const last = new Map(entries.map((e, i) => [e.key, i]));
      return { kind: 'object', entries: last.size < entries.length ? entries.filter((e, i) => last.get(e.key) === i) : entries, range };
    }
    case 'array':
      return { kind: 'array', items: (node.children ?? []).map((child) => fromJson(profile, child)), range };
    case 'string':
      return {
        kind: 'string',
        value: node.value as string,
        range,
        script: () => {
          const raw = profile.source.text.slice(node.offset + 1, node.offset + node.length - 1);
          return { ...decodeJsonString(raw, node.offset + 1), style: 'json-string' };
        },
      };
    case 'number':
    case 'boolean':
      return { kind: node.type, value: node.value as number | boolean, range };
    default:
      return { kind: 'null', value: null, range };
  }
}

/**
 * Whether a key under a frontmatter's `hooks:` belongs to Claude Code rather
 * than claude-flow, from the entry's own shape, never from the file: Claude
 * Code's events are PascalCase and hold lists of matcher groups; claude-flow's
 * hooks are snake_case and hold scripts. A misspelt event (`pre_tool_use:`
 * holding groups) is still Claude Code's, so its did-you-mean offers events.
 */
export function isClaudeCodeEntry(key: string, value: PNode): boolean {
  if (/^[A-Z]/.test(key)) return true;
  if (value.kind === 'array') return value.items.some((item) => item.kind === 'object');
  if (value.kind === 'object') return value.entries.some((e) => e.key === 'hooks' || e.key === 'matcher');
  return false;
}
