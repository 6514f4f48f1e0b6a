import { isMap, isScalar, isSeq, Scalar, type Node as YamlNode, type Pair } from 'yaml';
import type { Range } from '../diagnostics.js';
import { keyName, mapPairs, nodeRange, findPair, rootMap, type Profile } from '../profile/profile.js';
import { HOOK_SETTING_KEYS, LIFECYCLE_HOOKS, KNOWN_HOOK_NAMES } from '../runtime/contract.js';
import { fromYaml, isClaudeCodeEntry } from './tree.js';
import type { HookScript, ScalarStyle, SourceSegment } from './types.js';

/** A hook entry as written, script or not; the rules judge the ones that are not scripts. */
export interface HookEntry {
  name: string;
  keyPath: string[];
  pair: Pair<YamlNode, YamlNode | null>;
  keyRange: Range;
  /** Set when the value is a string the runtime would run with bash. */
  script?: HookScript;
}

const SETTING_KEYS = new Set<string>(HOOK_SETTING_KEYS);
const LIFECYCLE_KEYS = new Set<string>([...LIFECYCLE_HOOKS, ...KNOWN_HOOK_NAMES]);

/**
 * Every hook of a profile: the entries of `hooks:`, the nested
 * `hooks.lifecycle.*` map, and the hook-named keys of a top-level
 * `lifecycle:` map (whose other keys are settings such as `max_retries`).
 */
export function hookEntries(profile: Profile): HookEntry[] {
  const root = rootMap(profile);
  if (!root) return [];
  const entries: HookEntry[] = [];
  const add = (pair: Pair<YamlNode, YamlNode | null>, keyPath: string[]): void => {
    const keyRange = nodeRange(profile, pair.key);
    if (!keyRange) return;
    const name = keyPath.slice(1).join('.');
    const entry: HookEntry = { name, keyPath, pair, keyRange };
    const script = scriptOf(profile, pair, name, keyPath, keyRange);
    if (script) entry.script = script;
    entries.push(entry);
  };
  const hooks = findPair(root, 'hooks');
  for (const pair of mapPairs(hooks?.value)) {
    const key = keyName(pair);
    if (key === undefined || SETTING_KEYS.has(key)) continue;
    // Claude Code's entries in the same map are that runtime's (src/runtimes/claude-code/read.ts).
    if (isClaudeCodeYamlEntry(profile, pair, key)) continue;
    if (key === 'lifecycle' && isMap(pair.value)) {
      for (const inner of mapPairs(pair.value)) {
        const innerKey = keyName(inner);
        if (innerKey !== undefined) add(inner, ['hooks', 'lifecycle', innerKey]);
      }
      continue;
    }
    add(pair, ['hooks', key]);
  }
  const lifecycle = findPair(root, 'lifecycle');
  for (const pair of mapPairs(lifecycle?.value)) {
    const key = keyName(pair);
    if (key !== undefined && LIFECYCLE_KEYS.has(key) && isScalar(pair.value) && typeof pair.value.value === 'string') {
      add(pair, ['lifecycle', key]);
    }
  }
  return entries;
}

/** Whether a `hooks:` entry has Claude Code's shape (decided per entry, see isClaudeCodeEntry). */
export function isClaudeCodeYamlEntry(profile: Profile, pair: Pair<YamlNode, YamlNode | null>, key: string): boolean {
  if (/^[A-Z]/.test(key)) return true;
  const value = pair.value;
  if (!isMap(value) && !isSeq(value)) return false;
  const fallback = profile.lines.rangeOf(0, 0);
  return isClaudeCodeEntry(key, fromYaml(profile, value, fallback, 0));
}

export function extractHooks(profile: Profile): HookScript[] {
  return hookEntries(profile).flatMap((entry) => (entry.script ? [entry.script] : []));
}

function scriptOf(
  profile: Profile,
  pair: Pair<YamlNode, YamlNode | null>,
  name: string,
  keyPath: string[],
  keyRange: Range,
): HookScript | undefined {
  const value = pair.value;
  const fm = profile.frontmatter;
  if (!fm || !isScalar(value) || typeof value.value !== 'string' || !value.range) return undefined;
  const style = styleOf(value);
  const text = value.value;
  const rawStart = fm.start + value.range[0];
  // A block scalar's range runs to the start of the next key; the value ends with its last non-blank line.
  let rawEnd = fm.start + value.range[1];
  while (rawEnd > rawStart && /\s/.test(profile.source.text[rawEnd - 1]!)) rawEnd--;
  const raw = profile.source.text.slice(rawStart, rawEnd);
  const valueRange = profile.lines.rangeOf(rawStart, rawEnd);
  return {
    runtime: 'claude-flow',
    file: profile.path,
    name,
    keyPath,
    text,
    style,
    keyRange,
    valueRange,
    segments: locateSegments(raw, rawStart, text, style, keyRange.column - 1),
  };
}

export function styleOf(node: Scalar): ScalarStyle {
  switch (node.type) {
    case Scalar.BLOCK_LITERAL:
      return 'literal';
    case Scalar.BLOCK_FOLDED:
      return 'folded';
    case Scalar.QUOTE_SINGLE:
      return 'single-quoted';
    case Scalar.QUOTE_DOUBLE:
      return 'double-quoted';
    default:
      return 'plain';
  }
}

/**
 * Finds where the decoded script's text stands verbatim in the file. Each
 * source line contributes one fragment (a block scalar's line without its
 * indentation, a flow scalar's line without its folding whitespace; escape
 * sequences split a fragment, since their decoded text differs from the
 * source). Fragments are looked up in order in the decoded text, only a
 * separator's width ahead of where the previous one ended: literal blocks map
 * line for line, folded and flow scalars map wherever their text survived
 * folding, and the rest falls back to the value's range.
 */
export function locateSegments(raw: string, rawStart: number, text: string, style: ScalarStyle, parentIndent: number): SourceSegment[] {
  const fragments = sourceFragments(raw, style, parentIndent);
  const segments: SourceSegment[] = [];
  let cursor = 0;
  let pendingBreaks = 0;
  for (const fragment of fragments) {
    if (fragment.text === '') {
      pendingBreaks++;
      continue;
    }
    const slack = pendingBreaks + 2;
    const found = text.indexOf(fragment.text, cursor);
    if (found !== -1 && found - cursor <= slack) {
      const segment: SourceSegment = { scriptOffset: found, fileOffset: rawStart + fragment.offset, length: fragment.text.length };
      if (fragment.fileLength !== undefined) segment.fileLength = fragment.fileLength;
      segments.push(segment);
      cursor = found + fragment.text.length;
      pendingBreaks = 0;
    } else {
      pendingBreaks++;
    }
  }
  return segments;
}

const YAML_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};

/** What a YAML double-quoted escape decodes to, or undefined for one YAML rejects. */
export function decodeYamlEscape(escape: string): string | undefined {
  const c = escape[1]!;
  if (c === 'x' || c === 'u' || c === 'U') {
    const code = Number.parseInt(escape.slice(2), 16);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return YAML_ESCAPES[c];
}

interface Fragment {
  /** Offset in the raw value text. */
  offset: number;
  text: string;
  /** An escape (`\"`, `\u00e9`, `''`): `text` is what it decodes to, this its length in the file. */
  fileLength?: number;
}

function sourceFragments(raw: string, style: ScalarStyle, parentIndent: number): Fragment[] {
  const lines: { offset: number; text: string }[] = [];
  let offset = 0;
  for (const line of raw.split('\n')) {
    lines.push({ offset, text: line.endsWith('\r') ? line.slice(0, -1) : line });
    offset += line.length + 1;
  }
  if (style === 'literal' || style === 'folded') {
    const header = lines.shift();
    if (!header) return [];
    const explicit = /^[|>][+-]?([1-9])|^[|>]([1-9])/.exec(header.text);
    const indicator = explicit ? Number(explicit[1] ?? explicit[2]) : undefined;
    const firstContent = lines.find((l) => l.text.trim() !== '');
    const indent =
      indicator !== undefined
        ? parentIndent + indicator
        : firstContent
          ? // YAML indents with spaces only: a tab after them is the line's content.
            /^ */.exec(firstContent.text)![0].length
          : 0;
    return lines.map((l) => ({ offset: l.offset + Math.min(indent, l.text.length), text: l.text.slice(indent) }));
  }
  const fragments: Fragment[] = [];
  lines.forEach((line, index) => {
    let start = 0;
    let end = line.text.length;
    if (index === 0 && (style === 'single-quoted' || style === 'double-quoted')) start = 1;
    if (index === lines.length - 1 && (style === 'single-quoted' || style === 'double-quoted')) end = Math.max(start, end - 1);
    if (index > 0) while (start < end && (line.text[start] === ' ' || line.text[start] === '\t')) start++;
    if (index < lines.length - 1) while (end > start && (line.text[end - 1] === ' ' || line.text[end - 1] === '\t')) end--;
    const body = line.text.slice(start, end);
    const escape =
      style === 'double-quoted'
        ? /\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g
        : style === 'single-quoted'
          ? /''/g
          : undefined;
    if (!escape) {
      fragments.push({ offset: line.offset + start, text: body });
      return;
    }
    let last = 0;
    for (const match of body.matchAll(escape)) {
      if (match.index > last) fragments.push({ offset: line.offset + start + last, text: body.slice(last, match.index) });
      // Each escape maps as a whole, so positions after it (and ranges across it) stay exact.
      const decoded = style === 'single-quoted' ? "'" : decodeYamlEscape(match[0]);
      if (decoded !== undefined) fragments.push({ offset: line.offset + start + match.index, text: decoded, fileLength: match[0].length });
      last = match.index + match[0].length;
    }
    if (last < body.length || body.length === 0) fragments.push({ offset: line.offset + start + last, text: body.slice(last) });
  });
  return fragments;
}
