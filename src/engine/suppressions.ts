import type { Diagnostic, Range } from '../diagnostics.js';
import type { HookScript } from '../hooks/types.js';
import { mapPairs, nodeRange, rootMap, type Profile } from '../profile/profile.js';
import { isMap, isSeq } from 'yaml';

export const UNUSED_SUPPRESSION_RULE = 'suppression-unused';

const DIRECTIVE = /^[ \t]*#[ \t]*validate-agent-hooks-(disable-next-line|disable)(?=$|[ \t])(.*)$/;

interface Directive {
  kind: 'disable' | 'disable-next-line';
  /** Rule ids as written; empty means every rule. */
  ruleIds: string[];
  range: Range;
  /** Lines (inclusive) the directive covers, and the hook it is in, if any. */
  fromLine: number;
  toLine: number;
  hook?: string;
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
): { kept: Diagnostic[]; unused: Diagnostic[] } {
  const directives = findDirectives(profile, hooks, bodyBlocks);
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
function findDirectives(profile: Profile, hooks: readonly HookScript[], bodyBlocks: readonly HookScript[]): Directive[] {
  const fm = profile.frontmatter;
  const regions: { from: number; to: number }[] = bodyBlocks.map((b) => ({ from: b.valueRange.line, to: b.valueRange.endLine }));
  if (fm) regions.unshift({ from: profile.lines.positionAt(fm.start).line, to: profile.lines.positionAt(fm.end).line });
  const scripts = [...hooks, ...bodyBlocks];
  const directives: Directive[] = [];
  for (const region of regions) {
    for (let line = region.from; line <= region.to; line++) {
      const text = profile.lines.lineText(line);
      if (!text.includes('validate-agent-hooks-')) continue;
      const match = DIRECTIVE.exec(text);
      if (!match) continue;
      const kind = match[1] as Directive['kind'];
      const ruleIds = match[2]!
        .split(/\s--\s|\s--$/)[0]!
        .split(/[\s,]+/)
        .filter(Boolean);
      const column = text.indexOf('#') + 1;
      const directive: Directive = {
        kind,
        ruleIds,
        range: { line, column, endLine: line, endColumn: text.length + 1 },
        fromLine: line + 1,
        toLine: line + 1,
        used: new Set(),
      };
      const script = scripts.find((h) => h.valueRange.line <= line && line <= h.valueRange.endLine);
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
