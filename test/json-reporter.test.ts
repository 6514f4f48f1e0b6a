import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import type { Diagnostic, LintResult } from '../src/diagnostics.js';
import type { CliIO } from '../src/io.js';
import { memoryIO } from '../src/io.js';
import { jsonChunks, jsonReporter } from '../src/reporters/json.js';

const range = { line: 2, column: 3, endLine: 4, endColumn: 1 };
const finding = (over: Partial<Diagnostic>): Diagnostic => ({
  ruleId: 'command-rm-rf',
  severity: 'error',
  message: 'm',
  ...range,
  ...over,
});

/** Results whose text exercises what JSON escapes and nests: line breaks, tabs, quotes, non-ASCII, empty lists, nested fixes. */
const RESULTS: LintResult[] = [
  { filePath: '/p/a.md', diagnostics: [] },
  {
    filePath: '/p/b "quoted".md',
    diagnostics: [
      finding({ message: 'two\nlines\tand a tab, "quotes", \\ and é 🚀', hook: 'on_blocking_start', docsUrl: 'https://x/y' }),
      finding({ severity: 'info', ruleId: 'shellcheck/SC2086', messageId: 'quote' }),
      finding({
        severity: 'warning',
        related: [{ message: 'defined here', file: '/p/c.md', range }],
        fixes: [
          { title: 'quote it', safe: true, edits: [{ range, text: '"$X"\n' }] },
          { title: 'drop it', safe: false, edits: [] },
        ],
      }),
    ],
  },
  { filePath: '/p/ünïcode.md', diagnostics: [finding({ severity: 'warning', endLine: 9 })] },
];

describe('the json reporter in pieces', () => {
  it('writes what JSON.stringify(…, null, 2) writes, whatever the size of the pieces', () => {
    for (const results of [[], RESULTS.slice(0, 1), RESULTS]) {
      const whole = jsonReporter(results, { cwd: '/', color: false, verbose: false });
      // Parsing and writing again with JSON.stringify's own layout gives back the same text.
      expect(whole).toBe(`${JSON.stringify(JSON.parse(whole), null, 2)}\n`);
      for (const size of [1, 40, 64 * 1024]) expect([...jsonChunks(results, size)].join('')).toBe(whole);
    }
  });

  it('says what ESLint says of each file', () => {
    const [, b] = JSON.parse(jsonReporter(RESULTS, { cwd: '/', color: false, verbose: false })) as Record<string, unknown>[];
    expect(b).toMatchObject({ filePath: '/p/b "quoted".md', errorCount: 1, warningCount: 1, fixableErrorCount: 0, fixableWarningCount: 1 });
    expect((b!.messages as Record<string, unknown>[]).map((m) => [m.severity, m.level])).toEqual([
      [2, undefined],
      [1, 'info'],
      [1, undefined],
    ]);
  });

  it('hands out a long report a piece at a time, each about the size asked', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ ...RESULTS[1]!, filePath: `/p/${i}.md` }));
    const pieces = [...jsonChunks(many, 4096)];
    expect(pieces.length).toBeGreaterThan(10);
    const longest = Math.max(...pieces.map((p) => p.length));
    const oneFile = JSON.stringify(JSON.parse(jsonReporter([many[0]!], { cwd: '/', color: false, verbose: false })), null, 2).length;
    expect(longest).toBeLessThan(4096 + 2 * oneFile);
  });
});

describe('the CLI prints a json report in pieces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vah-json-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes many files as several writes, together the same report', async () => {
    mkdirSync(join(dir, 'agents'));
    for (let i = 0; i < 120; i++) {
      const hook = `  on_blocking_start: |\n    rm -rf /tmp/agent-${i}/*\n    echo "step ${i} \\"done\\"" >> /tmp/log-${i}\n`;
      writeFileSync(join(dir, 'agents', `agent-${i}.md`), `---\nname: agent-${i}\nhooks:\n${hook}---\nBody ${i}.\n`);
    }
    const io = memoryIO({ cwd: dir });
    const writes: string[] = [];
    const counting: CliIO = {
      ...io,
      stdout: (text) => {
        writes.push(text);
        io.stdout(text);
      },
    };
    const code = await main(['agents', '--format', 'json', '--no-shellcheck'], counting);
    expect(code).toBe(1);
    expect(writes.length).toBeGreaterThan(1);
    const parsed = JSON.parse(io.out()) as { filePath: string; messages: unknown[] }[];
    expect(parsed).toHaveLength(120);
    expect(parsed.every((file) => file.messages.length > 0)).toBe(true);
    expect(io.out()).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
  });
});
