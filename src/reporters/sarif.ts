import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Range, Severity } from '../diagnostics.js';
import { DOCS_BASE, type Rule } from '../engine/rule.js';
import { stringifyJson } from '../text/control-chars.js';
import { LineIndex } from '../text/line-index.js';
import type { Reporter } from './types.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
export const INFORMATION_URI = 'https://github.com/validate-agent-hooks/validate-agent-hooks';
/** Our own fingerprint key: GitHub keeps it across runs, and it says what it hashes. */
export const FINGERPRINT_KEY = 'validateAgentHooks/v1';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri: string;
  defaultConfiguration: { level: 'error' | 'warning' | 'note' | 'none'; enabled?: boolean };
  properties: { tags: string[]; 'security-severity'?: string; precision?: string };
}

/**
 * SARIF 2.1.0 as GitHub code scanning reads it: the rules that have results
 * in `tool.driver.rules` (ShellCheck's codes described on the fly),
 * results with repository-relative locations under `%SRCROOT%`, and a
 * fingerprint that survives lines moving: it hashes the rule, the file, the
 * offending line's text and which occurrence of that text it is — not the
 * line number.
 */
export const sarifReporter: Reporter = (results, options) => {
  // Only the rules that have results: the log stays small, and adding a rule changes no other output.
  const registered = new Map((options.rules ?? []).map((rule) => [rule.id, rule]));
  const used = new Set(results.flatMap((r) => r.diagnostics.map((d) => d.ruleId)));
  const driverRules: SarifRule[] = (options.rules ?? []).filter((rule) => used.has(rule.id)).map(describeRule);
  const index = new Map(driverRules.map((rule, i) => [rule.id, i]));
  const ruleIndexOf = (d: Diagnostic): number => {
    let i = index.get(d.ruleId);
    if (i === undefined) {
      const rule = registered.get(d.ruleId);
      i = driverRules.push(rule ? describeRule(rule) : describeForeignRule(d)) - 1;
      index.set(d.ruleId, i);
    }
    return i;
  };

  const base = options.root ?? options.cwd;
  const sarifResults: unknown[] = [];
  for (const result of results) {
    const location = artifactLocation(result.filePath, base);
    const lines = result.source !== undefined ? new LineIndex(result.source) : undefined;
    const seen = new Map<string, number>();
    for (const d of result.diagnostics) {
      const lineText = lines ? lines.lineText(d.line).trim() : '';
      const key = `${d.ruleId}\u0000${location.uri}\u0000${lineText}`;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      const sarifResult: Record<string, unknown> = {
        ruleId: d.ruleId,
        ruleIndex: ruleIndexOf(d),
        level: LEVEL[d.severity],
        message: { text: d.message },
        locations: [{ physicalLocation: { artifactLocation: location, region: region(d) } }],
        partialFingerprints: {
          [FINGERPRINT_KEY]: `${createHash('sha256').update(`${key}\u0000${occurrence}`).digest('hex').slice(0, 32)}:${occurrence}`,
        },
      };
      if (d.related?.length) {
        sarifResult.relatedLocations = d.related.map((r, id) => ({
          id,
          message: { text: r.message },
          physicalLocation: { artifactLocation: r.file ? artifactLocation(r.file, base) : location, region: region(r.range) },
        }));
      }
      const fixes = (d.fixes ?? []).filter((f) => f.edits.length > 0);
      if (fixes.length > 0) {
        sarifResult.fixes = fixes.map((fix) => ({
          description: { text: fix.title },
          artifactChanges: [
            {
              artifactLocation: location,
              replacements: fix.edits.map((edit) => ({ deletedRegion: region(edit.range), insertedContent: { text: edit.text } })),
            },
          ],
        }));
      }
      if (d.hook) sarifResult.properties = { hook: d.hook };
      sarifResults.push(sarifResult);
    }
  }

  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'validate-agent-hooks',
            semanticVersion: options.toolVersion ?? '0.0.0',
            version: options.toolVersion ?? '0.0.0',
            informationUri: INFORMATION_URI,
            rules: driverRules,
          },
        },
        // What %SRCROOT% stands for, so a consumer other than GitHub can find the files (a directory URI ends with a slash).
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(base).href.replace(/\/?$/, '/') } },
        // Our columns are JavaScript string indices, which is SARIF's default kind; said explicitly.
        columnKind: 'utf16CodeUnits',
        results: sarifResults,
      },
    ],
  };
  return `${stringifyJson(log, 2)}\n`;
};

function region(range: Range): { startLine: number; startColumn: number; endLine: number; endColumn: number } {
  return { startLine: range.line, startColumn: range.column, endLine: range.endLine, endColumn: range.endColumn };
}

/** Relative to the repository root with forward slashes; absolute file URIs outside it. */
function artifactLocation(filePath: string, cwd: string): { uri: string; uriBaseId?: string } {
  const rel = relative(cwd, filePath);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return { uri: pathToFileURL(filePath).href };
  return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

function describeRule(rule: Rule<unknown>): SarifRule {
  const helpUri = `${DOCS_BASE}${rule.id}/README.md`;
  const { description } = rule.meta;
  const tags: string[] = [rule.meta.category];
  const properties: SarifRule['properties'] = { tags };
  if (rule.meta.securitySeverity !== undefined) {
    tags.push('security');
    // GitHub reads security-severity as a string holding a number from 0.0 to 10.0.
    properties['security-severity'] = rule.meta.securitySeverity.toFixed(1);
    properties.precision = 'high';
  }
  const fixable = rule.meta.fixable ? ' Some findings come with a fix.' : '';
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: description },
    fullDescription: { text: `${description}${fixable}` },
    help: {
      text: `${description}${fixable}\n\nDocumentation: ${helpUri}`,
      markdown: `${description}${fixable}\n\nSee [${rule.id}](${helpUri}) for examples and how to suppress the finding.`,
    },
    helpUri,
    defaultConfiguration: rule.meta.severity === 'off' ? { level: 'warning', enabled: false } : { level: LEVEL[rule.meta.severity] },
    properties,
  };
}

/** Findings whose ids are not registered rules: ShellCheck's codes, and any other adapter's. */
function describeForeignRule(d: Diagnostic): SarifRule {
  const shellcheck = /^shellcheck\/SC(\d+)$/.exec(d.ruleId);
  if (shellcheck) {
    const code = `SC${shellcheck[1]!}`;
    const helpUri = `https://www.shellcheck.net/wiki/${code}`;
    return {
      id: d.ruleId,
      name: `ShellCheck${code}`,
      shortDescription: { text: `ShellCheck ${code}` },
      fullDescription: { text: `ShellCheck ${code}, found in a hook script. The ShellCheck wiki explains the problem and its fix.` },
      help: { text: `ShellCheck ${code}: see ${helpUri}`, markdown: `ShellCheck [${code}](${helpUri}).` },
      helpUri,
      defaultConfiguration: { level: 'warning' },
      properties: { tags: ['shellcheck'] },
    };
  }
  const helpUri = d.docsUrl ?? `${DOCS_BASE}${d.ruleId}/README.md`;
  return {
    id: d.ruleId,
    name: pascalCase(d.ruleId),
    shortDescription: { text: d.ruleId },
    fullDescription: { text: `Findings of \`${d.ruleId}\`.` },
    help: { text: `See ${helpUri}`, markdown: `See [${d.ruleId}](${helpUri}).` },
    helpUri,
    defaultConfiguration: { level: LEVEL[d.severity] },
    properties: { tags: [d.ruleId.split('/')[0]!] },
  };
}
