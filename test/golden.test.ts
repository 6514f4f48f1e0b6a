import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { memoryIO } from '../src/io.js';

/**
 * Exact output of every format for fixed inputs. `UPDATE_GOLDEN=1 npx vitest
 * run test/golden.test.ts` rewrites them; review the diff before committing.
 * ShellCheck is off here so the files do not depend on its version.
 */
const DIR = join(import.meta.dirname, 'golden');
const FORMATS: [string, string, string[]][] = [
  ['stylish', 'stylish.txt', []],
  ['stylish', 'stylish-verbose.txt', ['--verbose']],
  ['json', 'json', []],
];

describe('golden outputs', () => {
  for (const input of ['risky.md', 'crlf-bom.md']) {
    for (const [format, extension, extra] of FORMATS) {
      it(`${input} as ${extension}`, async () => {
        const io = memoryIO({ cwd: DIR, env: { NO_COLOR: '1' } });
        const code = await main([`inputs/${input}`, '--format', format, '--no-shellcheck', ...extra], io);
        expect(code).toBe(1);
        const output = io.out().split(DIR).join('<golden>');
        const golden = join(DIR, `${input.replace(/\.md$/, '')}.${extension}`);
        if (process.env.UPDATE_GOLDEN || !existsSync(golden)) writeFileSync(golden, output);
        expect(output).toBe(readFileSync(golden, 'utf8'));
      });
    }
  }
});
