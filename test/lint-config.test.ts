import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The linter's configuration as the project documents it; `npm test` runs the linter itself. */
const ROOT = join(import.meta.dirname, '..');

describe('lint configuration', () => {
  const eslint = new ESLint({ cwd: ROOT });
  const severity = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

  it('applies the strict, type-checked rules to source and tests, with size and shape as warnings', async () => {
    for (const file of ['src/index.ts', 'src/executor/redis/store.ts', 'rules/index.ts', 'test/cli.test.ts']) {
      const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as { rules: Record<string, unknown> };
      // Type-aware rules (they need the TypeScript program) and strict-only rules are on.
      expect(severity(config.rules['@typescript-eslint/no-floating-promises']), file).toBe(2);
      expect(severity(config.rules['@typescript-eslint/no-misused-promises']), file).toBe(2);
      expect(severity(config.rules['@typescript-eslint/no-unnecessary-type-assertion']), file).toBe(2);
      expect(severity(config.rules['@typescript-eslint/restrict-template-expressions']), file).toBe(2);
      expect(config.rules['max-lines'], file).toEqual([1, { max: 400 }]);
      expect(severity(config.rules.complexity), file).toBe(1);
    }
  });

  it('keeps the unsafe-any rules on in production code and relaxes them only in tests', async () => {
    const source = (await eslint.calculateConfigForFile(join(ROOT, 'src/cli/main.ts'))) as { rules: Record<string, unknown> };
    const test = (await eslint.calculateConfigForFile(join(ROOT, 'test/cli.test.ts'))) as { rules: Record<string, unknown> };
    expect(severity(source.rules['@typescript-eslint/no-unsafe-member-access'])).toBe(2);
    expect(severity(test.rules['@typescript-eslint/no-unsafe-member-access'])).toBe(0);
  });

  it('npm test runs the formatter check and the linter after the type-check and before the tests', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const steps = scripts.test!.split('&&').map((step) => step.trim());
    const index = (step: string): number => steps.indexOf(step);
    expect(scripts.lint).toBe('eslint .');
    expect(index('tsc -p tsconfig.test.json')).toBeGreaterThanOrEqual(0);
    expect(index('biome format .')).toBeGreaterThan(index('tsc -p tsconfig.test.json'));
    expect(index('npm run lint')).toBeGreaterThan(index('tsc -p tsconfig.test.json'));
    // vitest stays last: CI appends its reporter options to `npm test`.
    expect(steps.at(-1)).toBe('vitest run');
  });
});
