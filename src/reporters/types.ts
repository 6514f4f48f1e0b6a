import type { LintResult } from '../diagnostics.js';
import type { Rule } from '../engine/rule.js';

export interface ReporterOptions {
  /** Directory paths are shown relative to. */
  cwd: string;
  color: boolean;
  verbose: boolean;
  /** Rule metadata, for formats that describe their rules (SARIF). */
  rules?: readonly Rule<any>[];
  toolVersion?: string;
}

/** Reporters are pure: results in, text out. */
export type Reporter = (results: readonly LintResult[], options: ReporterOptions) => string;
