import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Diagnostic, LintResult } from '../src/diagnostics.js';
import { escapedJsonEncoder } from '../src/lsp/command.js';
import { loadReporter, REPORTER_NAMES } from '../src/reporters/index.js';
import { escapeJsonControl, hasRawControl, stringifyJson } from '../src/text/control-chars.js';

/** ESC (a terminal escape), CSI alone (U+009B), a right-to-left override, the Arabic letter mark, a line separator, DEL. */
const NASTY = 'x\u001b[2Jy\u009bz\u202ew\u061cv\u2028u\u007ft';
// eslint-disable-next-line no-control-regex -- finding them is the point
const RAW = /[\u001b\u007f\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const range = { line: 1, column: 1, endLine: 1, endColumn: 2 };
const diagnostic: Diagnostic = {
  ruleId: `rule-${NASTY}`,
  severity: 'error',
  message: `message ${NASTY}`,
  hook: `on_${NASTY}`,
  ...range,
  related: [{ message: `related ${NASTY}`, file: `/p/other-${NASTY}.md`, range }],
  fixes: [{ title: `fix ${NASTY}`, safe: true, edits: [{ range, text: `text ${NASTY}` }] }],
};
const RESULTS: LintResult[] = [{ filePath: `/p/file-${NASTY}.md`, diagnostics: [diagnostic], source: `line ${NASTY}\n` }];

/** Every string in a parsed value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('no report holds a raw control character quoted from a file', () => {
  it.each(REPORTER_NAMES.flatMap((name) => [false, true].map((verbose) => [name, verbose] as const)))(
    '%s (verbose: %s)',
    async (name, verbose) => {
      const reporter = await loadReporter(name);
      const out = reporter(RESULTS, { cwd: '/p', root: '/p', color: false, verbose, rules });
      expect(RAW.exec(out)).toBeNull();
      expect(hasRawControl(out.replaceAll('\n', ''))).toBe(false);
      if (name === 'json' || name === 'lsp' || name === 'sarif') {
        // The same value parses back: the escapes are JSON's own.
        const texts = strings(JSON.parse(out));
        for (const expected of [diagnostic.message, diagnostic.related![0]!.message]) expect(texts).toContain(expected);
        expect(texts.some((text) => text.includes(NASTY))).toBe(true);
        if (name !== 'sarif') expect(texts).toContain(diagnostic.ruleId);
      } else {
        // Text formats show the characters as escapes, as `cat -v` would.
        expect(out).toContain('x\\x1b[2Jy\\x9bz\\u202ew\\u061cv\\u2028u\\x7ft');
      }
    },
  );

  it('escapeJsonControl writes \\uXXXX escapes, so JSON.parse gives the same value', () => {
    const value = { [NASTY]: [NASTY, `\\${NASTY}`, '\u200e\u200f\u202a\u2066\u2069\u2029\u0085'] };
    const json = stringifyJson(value, 2);
    expect(RAW.exec(json)).toBeNull();
    expect(JSON.parse(json)).toEqual(value);
    expect(escapeJsonControl(JSON.stringify('\u009b'))).toBe('"\\u009b"');
    expect(escapeJsonControl('"plain é 🚀"')).toBe('"plain é 🚀"');
  });

  it('the language server sends its messages with the same escapes', async () => {
    const message = {
      jsonrpc: '2.0',
      method: 'textDocument/publishDiagnostics',
      params: { uri: 'file:///p/a.md', diagnostics: [{ message: NASTY, code: NASTY }] },
    };
    const bytes = Buffer.from(await escapedJsonEncoder.encode(message)).toString('utf8');
    expect(RAW.exec(bytes)).toBeNull();
    expect(JSON.parse(bytes)).toEqual(message);
  });
});
