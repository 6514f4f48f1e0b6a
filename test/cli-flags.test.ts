import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../src/io.js';
import { main } from '../src/cli/main.js';
import { needsSandbox, profileText, sandboxMissing } from './simulate/helpers.js';

async function cli(args: string[], cwd = tmpdir()): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd, env: {} });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const balanced = (text: string): boolean => (text.match(/'/g) ?? []).length % 2 === 0 && (text.match(/"/g) ?? []).length % 2 === 0;

describe('output flags on every command', () => {
  it.each([
    ['run', ['run', 'missing.md', '--hook', 'pre']],
    ['simulate', ['simulate', 'missing.md', '--scenario', 'signal']],
    ['test', ['test', 'missing.md']],
    ['run --event', ['run', 'missing.md', '--event', 'PreToolUse']],
  ])('%s accepts --no-color, --color and --ci', async (_name, base) => {
    for (const flags of [['--no-color'], ['--color'], ['--ci'], ['--ci', '--no-color']]) {
      const { code, err } = await cli([...base, ...flags]);
      // Past the options: the missing file is the complaint.
      expect(err).not.toMatch(/Unknown option/);
      expect(err).toMatch(/missing\.md/);
      expect(code).toBe(2);
    }
  });

  it.each([['run'], ['simulate'], ['test']])('%s --help lists them', async (name) => {
    const { out } = await cli([name, '--help']);
    expect(out).toMatch(/--color \/ --no-color/);
    expect(out).toMatch(/--ci\b/);
  });

  it.each([
    ['the linter', ['--bogus', 'x.md']],
    ['run', ['run', 'x.md', '--hook', 'pre', '--bogus']],
    ['simulate', ['simulate', 'x.md', '--bogus']],
    ['test', ['test', 'x.yaml', '--bogus']],
    ['run --event', ['run', 'x.md', '--event', 'PreToolUse', '--bogus']],
  ])('%s names an unknown option with balanced quotes', async (_name, args) => {
    const { code, err } = await cli(args);
    expect(code).toBe(2);
    const line = err.split('\n')[0]!;
    expect(line).toMatch(/Unknown option '--bogus'/);
    expect(balanced(line)).toBe(true);
  });

  describe.skipIf(sandboxMissing !== undefined)(needsSandbox('simulate colours its stylish findings only when asked'), () => {
    it('--color paints, --no-color and --ci do not', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vah-flags-'));
      writeFileSync(
        join(dir, 'p.md'),
        // A read with no fallback for the miss (`|| true` would be one, and not reported).
        profileText('p', { on_blocking_start: 'X=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:never" --level agent)\necho "$X"' }),
      );
      const run = (flags: string[]) =>
        cli(['simulate', 'p.md', '--scenario', 'signal', '--signal-after-ms', '10', '--format', 'stylish', ...flags], dir);
      const painted = await run(['--color']);
      expect(painted.out).toContain('memory-read-unwritten');
      expect(painted.out).toContain('\u001b[');
      for (const flags of [['--no-color'], ['--ci'], ['--ci', '--color', '--no-color']]) {
        const plain = await run(flags);
        expect(plain.out).toContain('memory-read-unwritten');
        expect(plain.out).not.toContain('\u001b[');
      }
    });
  });
});

describe('a flag that takes a value, followed by a negative number', () => {
  it('--max-warnings -1 means no limit, as in ESLint (and as --max-warnings=-1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-maxw-'));
    writeFileSync(join(dir, '.validate-agent-hooks.yaml'), 'rules:\n  command-sudo: warn\n');
    writeFileSync(join(dir, 'w.md'), '---\nname: w\ndescription: d\nhooks:\n  pre: |\n    sudo ls\n---\n');
    const lint = (flags: string[]) => cli(['--no-shellcheck', ...flags, 'w.md'], dir);
    expect((await lint(['--max-warnings', '-1'])).code).toBe(0);
    expect((await lint(['--max-warnings=-1'])).code).toBe(0);
    expect((await lint(['--max-warnings', '0'])).code).toBe(1);
    const below = await lint(['--max-warnings', '-2']);
    expect([below.code, below.err]).toEqual([2, 'validate-agent-hooks: --max-warnings expects a whole number, got "-2"\n']);
    // Only a number is taken as the value: a flag after it is still an error.
    expect((await lint(['--max-warnings', '--quiet'])).code).toBe(2);
  });

  it.each([
    ['simulate', ['simulate', 'missing.md', '--scenario', 'signal', '--signal-after-ms', '-5'], "invalid --signal-after-ms '-5'"],
    ['run', ['run', 'missing.md', '--hook', 'pre', '--timeout-ms', '-5'], "invalid --timeout-ms '-5'"],
    ['test', ['test', 'missing.yaml', '--timeout-cap', '-1'], "invalid --timeout-cap '-1'"],
  ])('%s checks a negative number as a value, not as an ambiguous flag', async (_name, args, message) => {
    const { code, err } = await cli(args);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).not.toContain('ambiguous');
  });

  it('withNegativeValues joins only a number to a flag that takes a value', async () => {
    const { withNegativeValues } = await import('../src/cli/output-flags.js');
    const options = { n: { type: 'string', short: 'n' }, q: { type: 'boolean' } } as const;
    expect(withNegativeValues(['--n', '-1', '-n', '-2.5', '--q', '-3', '--n', '-x', '--', '--n', '-4'], options)).toEqual([
      '--n=-1',
      '-n-2.5',
      '--q',
      '-3',
      '--n',
      '-x',
      '--',
      '--n',
      '-4',
    ]);
  });
});
