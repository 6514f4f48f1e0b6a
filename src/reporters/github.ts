import { relative, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { escapeControl, escapeControlBlock } from '../text/control-chars.js';
import type { Reporter } from './types.js';

const COMMAND: Record<Diagnostic['severity'], string> = { error: 'error', warning: 'warning', info: 'notice' };

/** @actions/core's `escapeData`. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** @actions/core's `escapeProperty`: the data escapes plus `:` and `,`, which delimit properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions workflow commands, one annotation per finding. Paths are
 * relative to the repository root (`root`; the CLI finds it with git), which
 * GitHub resolves them against, wherever in the checkout the tool ran.
 */
export const githubReporter: Reporter = (results, options) => {
  let out = '';
  for (const result of results) {
    const file = (relative(options.root ?? options.cwd, result.filePath) || result.filePath).split(sep).join('/');
    for (const d of result.diagnostics) {
      const properties: [string, string | number][] = [
        ['file', file],
        ['line', d.line],
        ['endLine', d.endLine],
        ['col', d.column],
        ['endColumn', d.endColumn],
        ['title', d.ruleId],
      ];
      // File names, rule ids and messages quote what a file says: its control characters are shown escaped, as by stylish.
      const props = properties.map(([key, value]) => `${key}=${escapeProperty(escapeControl(String(value)))}`).join(',');
      out += `::${COMMAND[d.severity]} ${props}::${escapeData(escapeControlBlock(d.message))}\n`;
    }
  }
  return out;
};
