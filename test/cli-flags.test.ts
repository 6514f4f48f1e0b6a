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
        profileText('p', { on_blocking_start: '/sqlite-memory retrieve --key "agent:${AGENT_ID}:never" --level agent || true' }),
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
