/**
 * The one diagnostic model of the tool. Positions are 1-based lines and
 * columns, end exclusive, end always present. Columns count UTF-16 code units
 * (JavaScript string indices), as ESLint does; only the LSP reporter converts
 * (to 0-based), and adapters of tools that count otherwise (ShellCheck counts
 * code points) convert on the way in.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface Position {
  line: number;
  column: number;
}

export interface Range {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface TextEdit {
  range: Range;
  text: string;
}

export interface Fix {
  /** What applying the fix does, for editors' quick-fix menus. */
  title: string;
  edits: TextEdit[];
  /** Safe fixes are applied by `--fix`; the others are only offered in editors. */
  safe: boolean;
}

export interface RelatedInformation {
  message: string;
  file: string;
  range: Range;
}

export interface Diagnostic extends Range {
  ruleId: string;
  severity: Severity;
  message: string;
  messageId?: string;
  /** The hook the finding is in, e.g. `on_blocking_start` or `lifecycle.init`. */
  hook?: string;
  docsUrl?: string;
  related?: RelatedInformation[];
  fixes?: Fix[];
}

export interface LintResult {
  filePath: string;
  diagnostics: Diagnostic[];
  /** The text that was linted (BOM removed), kept for code frames and fixes. */
  source?: string;
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    a.endLine - b.endLine ||
    a.endColumn - b.endColumn ||
    a.ruleId.localeCompare(b.ruleId) ||
    a.message.localeCompare(b.message)
  );
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number; infos: number } {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
    else infos++;
  }
  return { errors, warnings, infos };
}
