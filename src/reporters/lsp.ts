import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Range, Severity } from '../diagnostics.js';
import { stringifyJson } from '../text/control-chars.js';
import type { Reporter } from './types.js';

/** The LSP shapes this tool emits, declared here so the reporter needs no LSP package. */
export interface LspPosition {
  line: number;
  character: number;
}
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}
export interface LspDiagnostic {
  range: LspRange;
  severity: 1 | 2 | 3 | 4;
  code: string;
  codeDescription?: { href: string };
  source: 'validate-agent-hooks';
  message: string;
  relatedInformation?: { location: { uri: string; range: LspRange }; message: string }[];
}
export interface LspPublishDiagnostics {
  uri: string;
  diagnostics: LspDiagnostic[];
}

export const LSP_SOURCE = 'validate-agent-hooks';

const LSP_SEVERITY: Record<Severity, 1 | 2 | 3> = { error: 1, warning: 2, info: 3 };

/**
 * Internal positions are 1-based with UTF-16 columns, which is what LSP's
 * default `utf-16` position encoding counts too: converting is only 0-basing.
 */
export function toLspRange(range: Range): LspRange {
  return {
    start: { line: range.line - 1, character: range.column - 1 },
    end: { line: range.endLine - 1, character: range.endColumn - 1 },
  };
}

export function fileUri(filePath: string, cwd = process.cwd()): string {
  return pathToFileURL(isAbsolute(filePath) ? filePath : resolve(cwd, filePath)).href;
}

export function toLspDiagnostic(d: Diagnostic, uri: string, uriOf: (file: string) => string = (f) => f): LspDiagnostic {
  const out: LspDiagnostic = {
    range: toLspRange(d),
    severity: LSP_SEVERITY[d.severity],
    code: d.ruleId,
    source: LSP_SOURCE,
    message: d.message,
  };
  if (d.docsUrl) out.codeDescription = { href: d.docsUrl };
  if (d.related?.length) {
    out.relatedInformation = d.related.map((r) => ({
      location: { uri: r.file ? uriOf(r.file) : uri, range: toLspRange(r.range) },
      message: r.message,
    }));
  }
  return out;
}

/** One `textDocument/publishDiagnostics` params object per file, as a JSON array. */
export const lspReporter: Reporter = (results, options) => {
  const uriOf = (file: string): string => fileUri(file, options.cwd);
  const files: LspPublishDiagnostics[] = results.map((result) => {
    const uri = uriOf(result.filePath);
    return { uri, diagnostics: result.diagnostics.map((d) => toLspDiagnostic(d, uri, uriOf)) };
  });
  return `${stringifyJson(files, 2)}\n`;
};
