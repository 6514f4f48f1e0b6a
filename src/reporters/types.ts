import type { LintResult } from '../diagnostics.js';
import type { Rule } from '../engine/rule.js';

export interface ReporterOptions {
  /** Directory paths are shown relative to. */
  cwd: string;
  /** Directory SARIF and GitHub annotation paths are relative to: the repository root (default: `cwd`). */
  root?: string;
  color: boolean;
  /** Colours for the terminal (chalk, loaded only when colour is on); plain text without it. */
  painter?: Painter;
  verbose: boolean;
  /** Rule metadata, for formats that describe their rules (SARIF). */
  rules?: readonly Rule<unknown>[];
  toolVersion?: string;
}

/** Reporters are pure: results in, text out. */
export type Reporter = (results: readonly LintResult[], options: ReporterOptions) => string;

/** A reporter's text in pieces, to be written one after another (a long report is never held whole). */
export type ChunkedReporter = (results: readonly LintResult[], options: ReporterOptions) => Iterable<string>;

export interface Painter {
  underline(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  dim(text: string): string;
  redBold(text: string): string;
  yellowBold(text: string): string;
}

/** A painter over chalk; imported lazily because chalk costs start-up time that plain output does not need. */
export async function chalkPainter(): Promise<Painter> {
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return {
    underline: (t) => chalk.underline(t),
    red: (t) => chalk.red(t),
    yellow: (t) => chalk.yellow(t),
    blue: (t) => chalk.blue(t),
    dim: (t) => chalk.dim(t),
    redBold: (t) => chalk.red.bold(t),
    yellowBold: (t) => chalk.yellow.bold(t),
  };
}
