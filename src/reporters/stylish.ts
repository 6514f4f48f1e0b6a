import { relative } from 'node:path';
import { countBySeverity, type Diagnostic } from '../diagnostics.js';
import { LineIndex } from '../text/line-index.js';
import type { Painter, Reporter } from './types.js';

const same = (text: string): string => text;
const PLAIN: Painter = { underline: same, red: same, yellow: same, blue: same, dim: same, redBold: same, yellowBold: same };

/**
 * ESLint's stylish layout: findings grouped by file, aligned columns, a
 * summary line; with `--verbose`, a code frame under each finding.
 */
export const stylishReporter: Reporter = (results, options) => {
  const chalk = options.painter ?? PLAIN;
  let out = '';
  let total: Diagnostic[] = [];
  for (const result of results) {
    if (result.diagnostics.length === 0) continue;
    total = total.concat(result.diagnostics);
    out += `\n${chalk.underline(relative(options.cwd, result.filePath) || result.filePath)}\n`;
    const lines = options.verbose && result.source !== undefined ? new LineIndex(result.source) : undefined;
    const rows = result.diagnostics.map((d) => [
      `${d.line}:${d.column}`,
      d.severity === 'error' ? chalk.red('error') : d.severity === 'warning' ? chalk.yellow('warning') : chalk.blue('info'),
      d.message.replace(/\.$/, ''),
      chalk.dim(d.ruleId),
    ]);
    const width = (i: number): number => Math.max(...rows.map((r) => visible(r[i]!).length));
    const [w0, w1, w2] = [width(0), width(1), width(2)];
    result.diagnostics.forEach((d, index) => {
      const [pos, sev, msg, rule] = rows[index]!;
      out += `  ${chalk.dim(pos!.padEnd(w0))}  ${pad(sev!, w1)}  ${pad(msg!, w2)}  ${rule!}\n`;
      if (lines) out += codeFrame(lines, d, chalk);
    });
  }
  const { errors, warnings, infos } = countBySeverity(total);
  const problems = errors + warnings;
  if (problems > 0) {
    const summary = `✖ ${problems} problem${problems === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})`;
    out += `\n${errors > 0 ? chalk.redBold(summary) : chalk.yellowBold(summary)}\n`;
  } else if (infos > 0) {
    out += `\n${chalk.blue(`${infos} info finding${infos === 1 ? '' : 's'}, no problems`)}\n`;
  }
  return out;
};

function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visible(text).length));
}

function codeFrame(lines: LineIndex, d: Diagnostic, chalk: Painter): string {
  let frame = '';
  const first = Math.max(1, d.line - 1);
  const last = Math.min(lines.lineCount, d.line + 1);
  const gutter = String(last).length;
  for (let line = first; line <= last; line++) {
    const text = lines.lineText(line).replace(/\t/g, ' ');
    const marker = line === d.line ? chalk.red('>') : ' ';
    frame += `    ${marker} ${chalk.dim(String(line).padStart(gutter))} | ${text}\n`;
    if (line === d.line) {
      const length = d.endLine === d.line ? Math.max(1, d.endColumn - d.column) : Math.max(1, text.length - d.column + 1);
      frame += `      ${' '.repeat(gutter)} | ${' '.repeat(d.column - 1)}${chalk.red('^'.repeat(length))}\n`;
    }
  }
  return frame;
}
