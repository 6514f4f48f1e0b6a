import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellcheckVersion } from '../src/shellcheck/index.js';
import { sandboxMissing } from './executor/helpers.js';
import { GIT_ENV } from './helpers/snapshot.js';

/**
 * The doc test: every fenced block of commands in the README carries a
 * marker, `<!-- doctest: run exit=0,1 [needs=sandbox] -->` or
 * `<!-- doctest: skip (why, and which test covers it) -->`. Each command of a
 * `run` block (each line of a sh block; each `run:` of a workflow block) runs
 * with bash in a temporary git repository made from fixtures/readme (plus
 * fixtures/swarm), where `validate-agent-hooks` and `npx validate-agent-hooks`
 * reach this checkout's build. A command passes when it exits with a code the
 * marker allows and prints no internal error or stack trace.
 */
const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Block {
  line: number;
  lang: string;
  body: string;
  marker?: string;
}

function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)/.exec(lines[i]!);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith('```')) end++;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = /^<!-- doctest: (.*) -->$/.exec(lines[before] ?? '')?.[1];
    blocks.push({ line: i + 1, lang: open[1]!, body: lines.slice(i + 1, end).join('\n'), ...(marker ? { marker } : {}) });
    i = end;
  }
  return blocks;
}

/** The commands of a block: sh lines (comments dropped, continuations joined), or a workflow's `run:` values. */
function commands(block: Block): string[] {
  if (block.lang === 'yaml') return [...block.body.matchAll(/^\s*-?\s*run: (.+)$/gm)].map((m) => m[1]!.trim());
  return block.body
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s{2,}#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const hasCommands = (block: Block): boolean =>
  ['sh', 'bash', 'console', 'shell'].includes(block.lang) || (block.lang === 'yaml' && /^\s*-?\s*run: /m.test(block.body));

const blocks = fencedBlocks(README).filter(hasCommands);
const runnable = blocks.filter((b) => b.marker?.startsWith('run'));

describe('the README', () => {
  it('marks every block of commands as run by this test, or skipped with the reason', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(blocks.filter((b) => !b.marker || !/^(run\b|skip \(.+\))/.test(b.marker)).map((b) => `README.md:${b.line}`)).toEqual([]);
    expect(runnable.length).toBeGreaterThanOrEqual(3);
  });

  it('quick start states the Node and Neovim versions it needs, as package.json does', () => {
    const quickStart = README.slice(README.indexOf('## Quick start'), README.indexOf('## Usage'));
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=20');
    expect(quickStart).toMatch(/Node 20 or later/);
    expect(quickStart).toMatch(/Neovim 0\.7 or later/);
  });

  describe('commands', () => {
    let project: string;
    let bin: string;
    beforeAll(() => {
      project = join(mkdtempSync(join(tmpdir(), 'vah-readme-')), 'project');
      cpSync(join(ROOT, 'fixtures', 'readme'), project, { recursive: true });
      cpSync(join(ROOT, 'fixtures', 'swarm'), join(project, 'fixtures', 'swarm'), { recursive: true });
      execFileSync('git', ['init', '-q'], { cwd: project, env: { ...process.env, ...GIT_ENV } });
      // The package as a project installs it: npx finds node_modules/.bin first, with no network.
      mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(join(ROOT, 'bin', 'validate-agent-hooks'), join(project, 'node_modules', '.bin', 'validate-agent-hooks'));
      bin = join(project, '..', 'bin');
      mkdirSync(bin);
      writeFileSync(
        join(bin, 'validate-agent-hooks'),
        `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'validate-agent-hooks')}" "$@"\n`,
      );
      chmodSync(join(bin, 'validate-agent-hooks'), 0o755);
    });

    const cases = runnable.flatMap((block) => commands(block).map((command) => ({ block, command })));
    it.each(cases.map((c) => [`README.md:${c.block.line}: ${c.command}`, c] as const))('%s', (_title, { block, command }) => {
      // What a command needs follows from the command: run, simulate and test need the sandbox, --ci needs ShellCheck.
      const missing =
        (/needs=sandbox/.test(block.marker!) || /validate-agent-hooks (run|simulate|test)\b/.test(command)) && sandboxMissing
          ? sandboxMissing
          : /--ci\b/.test(command) && !/--no-shellcheck/.test(command) && shellcheckVersion() === undefined
            ? 'ShellCheck is not installed (--ci requires it)'
            : undefined;
      if (missing) {
        console.warn(`readme-commands.test.ts: skipped \`${command}\`: ${missing}`);
        return;
      }
      const allowed = (/exit=([\d,]+)/.exec(block.marker!)?.[1] ?? '0').split(',').map(Number);
      const run = spawnSync('bash', ['--noprofile', '--norc', '-o', 'pipefail', '-c', command], {
        cwd: project,
        encoding: 'utf8',
        input: '',
        timeout: 120_000,
        env: { ...process.env, ...GIT_ENV, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1' },
      });
      const output = run.stdout + run.stderr;
      expect(allowed, `exit ${String(run.status)}: ${output.slice(0, 2000)}`).toContain(run.status);
      expect(output).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)?\n/);
    });
  });
});
