import type { Fix, Range, TextEdit } from '../diagnostics.js';
import type { ScriptSourceMap } from '../hooks/source-map.js';
import type { HookScript } from '../hooks/types.js';
import type { Report } from './rule.js';

/**
 * Script rules give fix edits in script ranges and script text; a fix whose
 * edits do not map exactly, or whose text cannot be written in the hook's
 * quoting, is dropped.
 */
export function withFileFixes(report: Report, map: ScriptSourceMap): Report {
  if (!report.fixes) return report;
  const fixes = report.fixes.flatMap((fix) => fileFix(fix, map) ?? []);
  const { fixes: _unmapped, ...rest } = report;
  return fixes.length ? { ...rest, fixes } : rest;
}

/**
 * One fix given in script ranges and script text (a rule's, or ShellCheck's),
 * in file ranges and the text the file must hold; undefined when any edit
 * cannot be placed exactly or written in the hook's quoting.
 */
export function fileFix(fix: Fix, map: ScriptSourceMap): Fix | undefined {
  const edits: TextEdit[] = [];
  for (const edit of fix.edits) {
    const mapped = map.mapRange(edit.range);
    const text = encodeForSource(edit.text, map.hook, edit.range);
    if (!mapped.exact || text === undefined) return undefined;
    edits.push({ range: mapped.range, text });
  }
  return { ...fix, edits };
}

/**
 * Script text as the hook's source must spell it: escaped in a JSON string
 * or a double-quoted YAML scalar, `'` doubled in a single-quoted one. In a
 * plain scalar a quote at its start or `: `/` #` would change the YAML, and
 * a folded scalar joins lines, so such fixes are not offered there.
 */
function encodeForSource(text: string, hook: HookScript, range: Range): string | undefined {
  switch (hook.style) {
    case 'json-string':
      return JSON.stringify(text).slice(1, -1);
    case 'double-quoted':
      return /\n/.test(text) ? undefined : text.replace(/[\\"]/g, (c) => `\\${c}`);
    case 'single-quoted':
      return /\n/.test(text) ? undefined : text.replace(/'/g, "''");
    case 'plain': {
      const atStart = range.line === 1 && range.column === 1;
      return /\n|: | #/.test(text) || (atStart && /^["'&*!|>%@`#,[\]{}-]/.test(text)) ? undefined : text;
    }
    case 'folded':
      return undefined;
    default:
      return text;
  }
}
