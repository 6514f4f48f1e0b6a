import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';
import { formatters } from '../../src/index.js';
import type { LspPublishDiagnostics } from '../../src/reporters/lsp.js';

/**
 * Every format's exact output for fixed input profiles, compared byte for
 * byte with the files in test/golden/ (inputs in test/golden/inputs/). `UPDATE_GOLDEN=1 npx vitest run
 * test/integration/golden.test.ts` rewrites them; review the diff.
 * The profiles are linted under a virtual directory (/golden) without
 * ShellCheck, so the output depends on nothing outside the repository.
 */
const GOLDEN_DIR = new URL('../golden/', import.meta.url).pathname;
const VIRTUAL_DIR = '/golden';
const INPUTS = ['profile-emoji.md', 'profile-crlf-bom.md'];
// stylish and json have their goldens in test/golden.test.ts (through the CLI).
const FORMATS = [
  ['lsp', 'lsp.json'],
  ['sarif', 'sarif.json'],
  ['github', 'github.txt'],
] as const;

async function render(input: string, format: keyof typeof formatters): Promise<string> {
  const results = await lintInputs([{ filePath: join(VIRTUAL_DIR, input), bytes: readFileSync(join(GOLDEN_DIR, 'inputs', input)) }], {
    rules,
    config: defaultConfig(),
  });
  return formatters[format](results, { cwd: VIRTUAL_DIR, color: false, verbose: false, rules, toolVersion: '0.0.0-golden' });
}

describe('golden output of every format', () => {
  for (const input of INPUTS) {
    for (const [format, suffix] of FORMATS) {
      const goldenPath = join(GOLDEN_DIR, input.replace(/\.md$/, `.${suffix}`));
      it(`${input} as ${format}`, async () => {
        const actual = await render(input, format);
        if (process.env.UPDATE_GOLDEN === '1' || !existsSync(goldenPath)) {
          if (process.env.CI && !existsSync(goldenPath)) throw new Error(`missing golden file ${goldenPath}`);
          writeFileSync(goldenPath, actual);
        }
        expect(actual).toBe(readFileSync(goldenPath, 'utf8'));
      });
    }
  }

  it('lsp ranges are 0-based UTF-16: the emoji before `rm -rf` counts two units', async () => {
    const [file] = JSON.parse(await render('profile-emoji.md', 'lsp')) as LspPublishDiagnostics[];
    const rmRf = file!.diagnostics.find((d) => d.code === 'command-rm-rf')!;
    const line = readFileSync(join(GOLDEN_DIR, 'inputs', 'profile-emoji.md'), 'utf8').split('\n')[5]!;
    const utf16 = line.indexOf('rm -rf');
    expect(Array.from(line.slice(0, utf16)).length).toBe(utf16 - 1); // one astral character before it
    expect(rmRf.range).toEqual({ start: { line: 5, character: utf16 }, end: { line: 5, character: line.length } });
  });

  it('the BOM is not counted and CRLF does not shift columns', async () => {
    const [file] = JSON.parse(await render('profile-crlf-bom.md', 'lsp')) as LspPublishDiagnostics[];
    expect(file!.diagnostics.map((d) => [d.code, d.range.start, d.range.end])).toEqual([
      ['command-chmod-777', { line: 6, character: 4 }, { line: 6, character: 20 }],
    ]);
  });
});
