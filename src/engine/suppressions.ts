import type { Diagnostic, Range } from '../diagnostics.js';
import { ScriptSourceMap } from '../hooks/source-map.js';
import type { HookScript } from '../hooks/types.js';
import { mapPairs, nodeRange, rootMap, type Profile } from '../profile/profile.js';
import { isMap, isSeq } from 'yaml';

export const UNUSED_SUPPRESSION_RULE = 'suppression-unused';

/**
 * Where a script's directive-looking lines are real shell comments: a line of
 * a heredoc's body or of a multi-line string is text the hook prints, and
 * suppresses nothing. Script lines, and the file lines they start on.
 */
export interface DirectiveComments {
  scriptLines: ReadonlySet<number>;
  fileLines: ReadonlySet<number>;
}

/** The lines of a parsed script on which a directive is a comment of its own; undefined when the script has no directive text. */
export function directiveComments(
  hook: HookScript,
  map: ScriptSourceMap,
  comments: () => Iterable<{ startPosition: { row: number } }>,
): DirectiveComments | undefined {
  if (!hook.text.includes('validate-agent-hooks-')) return undefined;
  const scriptLines = new Set<number>();
  const fileLines = new Set<number>();
  for (const comment of comments()) {
    const line = comment.startPosition.row + 1;
    if (!DIRECTIVE.test(map.scriptLines.lineText(line))) continue;
    scriptLines.add(line);
    fileLines.add(map.mapRange({ line, column: 1, endLine: line, endColumn: 1 }).range.line);
  }
  return { scriptLines, fileLines };
}

const DIRECTIVE = /^[ \t]*#[ \t]*validate-agent-hooks-(disable-next-line|disable)(?=$|[ \t])(.*)$/;
/** The same in a Node program, as a `//` comment. */
const NODE_DIRECTIVE = /^[ \t]*\/\/[ \t]*validate-agent-hooks-(disable-next-line|disable)(?=$|[ \t])(.*)$/;

interface Directive {
  kind: 'disable' | 'disable-next-line';
  /** Rule ids as written; empty means every rule. */
  ruleIds: string[];
  range: Range;
  /** Lines (inclusive) the directive covers, and the hook it is in, if any. */
  fromLine: number;
  toLine: number;
  hook?: string;
  /** For a directive inside a JSON string: the file range of the script line it covers (with `hook`). */
  coverRange?: Range;
  used: Set<string>;
}

/**
 * Inline configuration, the same comment in a hook script and in the YAML
 * around it:
 *   `# validate-agent-hooks-disable-next-line rule-a, rule-b -- reason`
 *   `# validate-agent-hooks-disable rule-a -- reason`
 * `disable` inside a script covers the whole script; before a YAML key it
 * covers that key and its value. A rule id matches itself, its family
 * (`shellcheck` matches `shellcheck/SC2086`) and a bare ShellCheck code.
 * Directives that suppress nothing are reported.
 */
export function applySuppressions(
  profile: Profile,
  diagnostics: Diagnostic[],
  hooks: readonly HookScript[],
  reportUnused: boolean,
  bodyBlocks: readonly HookScript[] = [],
  comments: ReadonlyMap<HookScript, DirectiveComments> = new Map(),
): { kept: Diagnostic[]; unused: Diagnostic[] } {
  const directives = findDirectives(profile, hooks, bodyBlocks, comments);
  if (directives.length === 0) return { kept: diagnostics, unused: [] };
  const kept = diagnostics.filter((diagnostic) => {
    const directive = directives.find((d) => covers(d, diagnostic));
    if (!directive) return true;
    directive.used.add(directive.ruleIds.find((id) => matchesRule(id, diagnostic.ruleId)) ?? '*');
    return false;
  });
  const unused: Diagnostic[] = [];
  if (reportUnused) {
    for (const directive of directives) {
      const idle =
        directive.ruleIds.length === 0
          ? directive.used.size === 0
            ? ['every rule']
            : []
          : directive.ruleIds.filter((id) => !directive.used.has(id));
      if (idle.length === 0) continue;
      unused.push({
        ruleId: UNUSED_SUPPRESSION_RULE,
        severity: 'warning',
        ...directive.range,
        message: `Unused suppression: \`validate-agent-hooks-${directive.kind}\` of ${idle.map((id) => (id === 'every rule' ? id : `\`${id}\``)).join(', ')} suppresses nothing here.`,
      });
    }
  }
  return { kept, unused };
}

function covers(directive: Directive, diagnostic: Diagnostic): boolean {
  if (diagnostic.ruleId === UNUSED_SUPPRESSION_RULE) return false;
  if (directive.ruleIds.length > 0 && !directive.ruleIds.some((id) => matchesRule(id, diagnostic.ruleId))) return false;
  if (directive.kind === 'disable' && directive.hook !== undefined && diagnostic.hook === directive.hook) return true;
  if (directive.coverRange) return diagnostic.hook === directive.hook && startsWithin(diagnostic, directive.coverRange);
  return diagnostic.line >= directive.fromLine && diagnostic.line <= directive.toLine;
}

export function matchesRule(written: string, ruleId: string): boolean {
  return written === ruleId || ruleId.startsWith(`${written}/`) || ruleId.endsWith(`/${written}`);
}

/**
 * Directives in the frontmatter (hook scripts and YAML comments) and in the
 * shell code blocks of the body that rules read; in a code block, `disable`
 * covers that block.
 */
function findDirectives(
  profile: Profile,
  hooks: readonly HookScript[],
  bodyBlocks: readonly HookScript[],
  comments: ReadonlyMap<HookScript, DirectiveComments>,
): Directive[] {
  if (profile.kind === 'json') return jsonStringDirectives(profile, hooks, comments);
  const fm = profile.frontmatter;
  const regions: { from: number; to: number }[] = bodyBlocks.map((b) => ({ from: b.valueRange.line, to: b.valueRange.endLine }));
  if (fm) regions.unshift({ from: profile.lines.positionAt(fm.start).line, to: profile.lines.positionAt(fm.end).line });
  // A script, Python or Node file that hooks run: its comments (`#`; Node's `//`) anywhere in it.
  if (profile.kind === 'script' || profile.kind === 'python' || profile.kind === 'node')
    regions.push({ from: 1, to: profile.lines.lineCount });
  const directivePattern = profile.kind === 'node' ? NODE_DIRECTIVE : DIRECTIVE;
  const scripts = [...hooks, ...bodyBlocks];
  const directives: Directive[] = [];
  for (const region of regions) {
    for (let line = region.from; line <= region.to; line++) {
      const text = profile.lines.lineText(line);
      if (!text.includes('validate-agent-hooks-')) continue;
      const match = directivePattern.exec(text);
      if (!match) continue;
      const kind = match[1] as Directive['kind'];
      const ruleIds = match[2]!
        .split(/\s--\s|\s--$/)[0]!
        .split(/[\s,]+/)
        .filter(Boolean);
      const column = text.indexOf(profile.kind === 'node' ? '//' : '#') + 1;
      const directive: Directive = {
        kind,
        ruleIds,
        range: { line, column, endLine: line, endColumn: text.length + 1 },
        fromLine: line + 1,
        toLine: line + 1,
        used: new Set(),
      };
      const script = scripts.find((h) => h.valueRange.line <= line && line <= h.valueRange.endLine);
      if (script && comments.get(script)?.fileLines.has(line) === false) continue;
      if (kind === 'disable') {
        if (script) {
          directive.hook = script.name;
          directive.fromLine = script.keyRange.line;
          directive.toLine = script.valueRange.endLine;
        } else {
          directive.toLine = nodeStartingAfter(profile, line) ?? region.to;
        }
      }
      directives.push(directive);
    }
  }
  return directives;
}

/**
 * JSON has no comments: a directive in a JSON file is a shell comment inside
 * a hook's command (`"# validate-agent-hooks-disable-next-line rule\nrm …"`).
 * `disable` covers that hook; `disable-next-line` the next line of its script.
 */
function jsonStringDirectives(
  profile: Profile,
  hooks: readonly HookScript[],
  comments: ReadonlyMap<HookScript, DirectiveComments>,
): Directive[] {
  const directives: Directive[] = [];
  for (const hook of hooks) {
    if (!hook.text.includes('validate-agent-hooks-')) continue;
    const map = new ScriptSourceMap(hook, profile.lines);
    const lines = map.scriptLines;
    for (let line = 1; line <= lines.lineCount; line++) {
      const match = DIRECTIVE.exec(lines.lineText(line));
      if (!match || comments.get(hook)?.scriptLines.has(line) === false) continue;
      const kind = match[1] as Directive['kind'];
      const text = lines.lineText(line);
      const range = map.mapRange({ line, column: text.indexOf('#') + 1, endLine: line, endColumn: text.length + 1 }).range;
      const directive: Directive = {
        kind,
        ruleIds: ruleIdsOf(match[2]!),
        range,
        fromLine: range.line,
        toLine: range.endLine,
        hook: hook.name,
        used: new Set(),
      };
      if (kind === 'disable-next-line') {
        if (line === lines.lineCount) continue;
        directive.coverRange = map.mapRange({
          line: line + 1,
          column: 1,
          endLine: line + 1,
          endColumn: lines.lineText(line + 1).length + 1,
        }).range;
      }
      directives.push(directive);
    }
  }
  return directives;
}

function ruleIdsOf(written: string): string[] {
  return written
    .split(/\s--\s|\s--$/)[0]!
    .split(/[\s,]+/)
    .filter(Boolean);
}

function startsWithin(range: Range, outer: Range): boolean {
  const after = range.line > outer.line || (range.line === outer.line && range.column >= outer.column);
  const before = range.line < outer.endLine || (range.line === outer.endLine && range.column < outer.endColumn);
  return after && before;
}

/** The last line of the YAML entry whose key starts first after `line`. */
function nodeStartingAfter(profile: Profile, line: number): number | undefined {
  let best: { keyLine: number; endLine: number } | undefined;
  const visit = (node: unknown): void => {
    if (isMap(node)) {
      for (const pair of mapPairs(node)) {
        const key = nodeRange(profile, pair.key);
        if (key && key.line > line && (!best || key.line < best.keyLine)) {
          const value = nodeRange(profile, pair.value) ?? key;
          best = { keyLine: key.line, endLine: value.endLine };
        }
        visit(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item);
    }
  };
  visit(rootMap(profile));
  return best?.endLine;
}
