import type { Diagnostic, Range, Severity } from '../diagnostics.js';
import type { Profile } from '../profile/profile.js';
import { settingOptions, settingSeverity, toSeverity, type LintConfig } from './config.js';
import { DOCS_BASE, formatMessage, type Report, type Rule } from './rule.js';

/** From a rule's report to a finding: its severity by the configuration, its options, its range kept inside the text. */

/**
 * Drops findings that an overlapping finding of a rule declaring
 * `meta.supersedes` already explains. Their fixes move to the finding that
 * stays (ShellCheck's quoting fix for SC2086 fixes an unquoted `$TASK` too).
 */
export function withoutSuperseded(diagnostics: Diagnostic[], byId: ReadonlyMap<string, Rule<unknown>>): Diagnostic[] {
  // By line, so a hook with thousands of findings is not a product of thousands.
  const supersedingByLine = new Map<number, Diagnostic[]>();
  for (const d of diagnostics) {
    if (!byId.get(d.ruleId)?.meta.supersedes?.length) continue;
    for (let line = d.line; line <= d.endLine; line++) supersedingByLine.set(line, [...(supersedingByLine.get(line) ?? []), d]);
  }
  if (supersedingByLine.size === 0) return diagnostics;
  const kept: Diagnostic[] = [];
  for (const d of diagnostics) {
    let winner: Diagnostic | undefined;
    for (let line = d.line; line <= d.endLine && !winner; line++) {
      winner = supersedingByLine.get(line)?.find((s) => byId.get(s.ruleId)!.meta.supersedes!.includes(d.ruleId) && overlaps(s, d));
    }
    if (!winner) {
      kept.push(d);
      continue;
    }
    if (d.fixes?.length) winner.fixes = [...(winner.fixes ?? []), ...d.fixes];
  }
  return kept;
}

function overlaps(a: Range, b: Range): boolean {
  const before = (l1: number, c1: number, l2: number, c2: number): boolean => l1 < l2 || (l1 === l2 && c1 < c2);
  return before(a.line, a.column, b.endLine, b.endColumn) && before(b.line, b.column, a.endLine, a.endColumn);
}

export function effectiveSeverity(rule: Rule<unknown>, config: LintConfig): Severity | undefined {
  const configured = settingSeverity(config.rules[rule.id]);
  if (configured !== undefined) return toSeverity(configured);
  return rule.meta.severity === 'off' ? undefined : rule.meta.severity;
}

/** The configuration decides; without a setting, a finding's own severity, then its rule's. */
export function resolveSeverity(diagnostic: Diagnostic, rule: Rule<unknown> | undefined, config: LintConfig): Severity | undefined {
  const exact = settingSeverity(config.rules[diagnostic.ruleId]);
  const family = diagnostic.ruleId.includes('/') ? settingSeverity(config.rules[diagnostic.ruleId.split('/')[0]!]) : undefined;
  const configured = exact ?? family;
  if (configured !== undefined) return toSeverity(configured);
  if (rule && rule.meta.severity === 'off') return undefined;
  return diagnostic.severity;
}

/** A rule's options: its defaults, the configuration's, and the configuration itself (command rules read `allowedCommands`). */
export function ruleOptions(rule: Rule<unknown>, config: LintConfig): Record<string, unknown> {
  return { ...(rule.defaultOptions ?? {}), ...(settingOptions(config.rules[rule.id]) ?? {}), config };
}

export function toDiagnostic(rule: Rule<unknown>, report: Report, range: Range, hook?: string): Diagnostic {
  const template = rule.messages[report.messageId] ?? report.messageId;
  const diagnostic: Diagnostic = {
    ruleId: rule.id,
    severity: report.severity ?? (rule.meta.severity === 'off' ? 'warning' : rule.meta.severity),
    message: formatMessage(template, report.data),
    messageId: report.messageId,
    line: range.line,
    column: range.column,
    endLine: range.endLine,
    endColumn: range.endColumn,
    docsUrl: `${DOCS_BASE}${rule.id}/README.md`,
  };
  if (hook !== undefined) diagnostic.hook = hook;
  if (report.related) diagnostic.related = report.related;
  if (report.fixes) diagnostic.fixes = report.fixes;
  return diagnostic;
}

/**
 * The range held inside the text: an editor or SARIF consumer rejects a
 * position past the end (an empty file has one empty line: 1:1 to 1:1).
 */
export function insideText(d: Diagnostic, lines: Profile['lines']): Diagnostic {
  const clamp = (line: number, column: number): [number, number] => {
    const l = Math.min(Math.max(line, 1), lines.lineCount);
    return [l, Math.min(Math.max(column, 1), lines.lineText(l).length + 1)];
  };
  const [line, column] = clamp(d.line, d.column);
  let [endLine, endColumn] = clamp(d.endLine, d.endColumn);
  if (endLine < line || (endLine === line && endColumn < column)) [endLine, endColumn] = [line, column];
  if (line === d.line && column === d.column && endLine === d.endLine && endColumn === d.endColumn) return d;
  return { ...d, line, column, endLine, endColumn };
}
