import { relative } from 'node:path';
import { maxOf, pushAll } from '../arrays.js';
import { countBySeverity, type Diagnostic } from '../diagnostics.js';
import { escapeControl } from '../text/control-chars.js';
import { LineIndex } from '../text/line-index.js';
import type { Painter, Reporter } from './types.js';

const same = (text: string): string => text;
const PLAIN: Painter = { underline: same, red: same, yellow: same, blue: same, dim: same, redBold: same, yellowBold: same };

/**
 * ESLint's stylish layout: findings grouped by file, aligned columns, a
 * summary line; with `--verbose`, a code frame under each finding and the
 * messages in full (otherwise long ones are shortened: see shortMessage).
 */
export const stylishReporter: Reporter = (results, options) => {
  const chalk = options.painter ?? PLAIN;
  let out = '';
  const total: Diagnostic[] = [];
  for (const result of results) {
    if (result.diagnostics.length === 0) continue;
    pushAll(total, result.diagnostics);
    // File names and messages quote what a file says; the painter's own escapes are the only ones printed raw.
    out += `\n${chalk.underline(escapeControl(relative(options.cwd, result.filePath) || result.filePath))}\n`;
    const lines = options.verbose && result.source !== undefined ? new LineIndex(result.source) : undefined;
    const rows = result.diagnostics.map((d) => [
      `${d.line}:${d.column}`,
      d.severity === 'error' ? chalk.red('error') : d.severity === 'warning' ? chalk.yellow('warning') : chalk.blue('info'),
      escapeControl((options.verbose ? d.message : shortMessage(d.message)).replace(/\.$/, '')),
      chalk.dim(escapeControl(d.ruleId)),
    ]);
    const width = (i: number): number =>
      maxOf(
        rows.map((r) => visible(r[i]!).length),
        0,
      );
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

/** Longest message kept whole on a stylish line; the aligned columns make every line as wide as the widest. */
export const STYLISH_MESSAGE_MAX = 160;
/** A list of more than this many `names` is cut to its first LIST_KEEP plus a count. */
const LIST_MAX = 5;
const LIST_KEEP = 3;

/**
 * A message short enough for one terminal line: a long list of `names` (the
 * known hooks, the variables provided) keeps its first few and says how many
 * more; what is still too long ends at its last whole sentence or clause
 * within the limit. JSON, SARIF and --verbose keep the full text.
 */
export function shortMessage(message: string): string {
  let short = message.replace(/`[^`]+`(?:,\s*(?:or\s+|and\s+)?`[^`]+`)+/g, (list) => {
    const items = list.match(/`[^`]+`/g)!;
    return items.length > LIST_MAX ? `${items.slice(0, LIST_KEEP).join(', ')} and ${items.length - LIST_KEEP} more` : list;
  });
  if (short.length <= STYLISH_MESSAGE_MAX) return short;
  const head = short.slice(0, STYLISH_MESSAGE_MAX - 1);
  const cut = Math.max(head.lastIndexOf('. '), head.lastIndexOf('; '), head.lastIndexOf(': '));
  short = cut > STYLISH_MESSAGE_MAX / 3 ? head.slice(0, cut) : head.slice(0, Math.max(head.lastIndexOf(' '), STYLISH_MESSAGE_MAX / 2));
  return `${short.replace(/[\s,;:.]+$/, '')} …`;
}

function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- the ESC of ANSI colour codes is what is matched
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
    const text = escapeControl(lines.lineText(line).replace(/\t/g, ' '));
    const marker = line === d.line ? chalk.red('>') : ' ';
    frame += `    ${marker} ${chalk.dim(String(line).padStart(gutter))} | ${text}\n`;
    if (line === d.line) {
      const length = d.endLine === d.line ? Math.max(1, d.endColumn - d.column) : Math.max(1, text.length - d.column + 1);
      frame += `      ${' '.repeat(gutter)} | ${' '.repeat(d.column - 1)}${chalk.red('^'.repeat(length))}\n`;
    }
  }
  return frame;
}
