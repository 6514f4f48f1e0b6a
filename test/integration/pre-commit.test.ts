import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/io.js';
import { main } from '../../src/cli/main.js';

/**
 * The installed hook in a real temporary repository: it runs the built bin
 * (`npm run build` first; `npm test` does it), so this is the path a user's
 * `git commit` takes.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
// The machine's own git configuration (a global core.hooksPath, signing) must not leak in.
process.env.GIT_CONFIG_GLOBAL = '/dev/null';
process.env.GIT_CONFIG_NOSYSTEM = '1';
const BAD = '---\nname: bad\ndescription: bad\nhooks:\n  on_blocking_start: |\n    rm -rf "$WORKDIR"\n---\n';
const GOOD = '---\nname: good\ndescription: good\nhooks:\n  on_blocking_start: |\n    echo "started $AGENT_ID"\n---\n';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vah-precommit-'));
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'commit.gpgsign', 'false');
  mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
  return dir;
}

function commit(dir: string, message: string): { status: number | null; output: string } {
  const result = spawnSync('git', ['commit', '-q', '-m', message], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('init-pre-commit', () => {
  it('installs a hook that refuses a bad staged profile and lets a good one through', async () => {
    const dir = repo();
    const io = memoryIO({ cwd: dir });
    expect(await main(['init-pre-commit'], io)).toBe(0);
    const hook = join(dir, '.git', 'hooks', 'pre-commit');
    expect(statSync(hook).mode & 0o111).not.toBe(0);

    writeFileSync(join(dir, '.claude', 'agents', 'bad.md'), BAD);
    git(dir, 'add', '.');
    const refused = commit(dir, 'bad');
    expect(refused.status).not.toBe(0);
    expect(refused.output).toContain('command-rm-rf');
    expect(refused.output).toContain('commit refused');
    expect(() => git(dir, 'rev-parse', 'HEAD')).toThrow();

    writeFileSync(join(dir, '.claude', 'agents', 'bad.md'), GOOD);
    git(dir, 'add', '.');
    const accepted = commit(dir, 'good');
    expect(accepted.output).not.toContain('error');
    expect(accepted.status).toBe(0);
  });

  it('lints the staged content, not the working file', async () => {
    const dir = repo();
    expect(await main(['init-pre-commit'], memoryIO({ cwd: dir }))).toBe(0);
    const file = join(dir, '.claude', 'agents', 'a b.md');
    writeFileSync(file, BAD);
    git(dir, 'add', '.');
    writeFileSync(file, GOOD); // fixed in the working tree, but not staged
    expect(commit(dir, 'x').status).not.toBe(0);
    // Files outside .claude/agents are not linted.
    git(dir, 'add', '.');
    writeFileSync(join(dir, 'README.md'), BAD);
    git(dir, 'add', '.');
    expect(commit(dir, 'y').status).toBe(0);
  });

  it('refuses to overwrite an existing hook without --force, and honours core.hooksPath', async () => {
    const dir = repo();
    git(dir, 'config', 'core.hooksPath', 'my-hooks');
    mkdirSync(join(dir, 'my-hooks'));
    writeFileSync(join(dir, 'my-hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
    const io = memoryIO({ cwd: dir });
    expect(await main(['init-pre-commit'], io)).toBe(2);
    expect(io.err()).toContain('--force');
    expect(readFileSync(join(dir, 'my-hooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    // The same through the built bin (the bundled CLI loads this subcommand from dist/src).
    const spawned = spawnSync(process.execPath, [join(ROOT, 'bin', 'validate-agent-hooks'), 'init-pre-commit'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(spawned.status).toBe(2);
    expect(spawned.stderr).toMatch(/^validate-agent-hooks: init-pre-commit: .*pre-commit exists; pass --force to replace it\.\n$/);
    expect(await main(['init-pre-commit', '--force'], memoryIO({ cwd: dir }))).toBe(0);
    expect(readFileSync(join(dir, 'my-hooks', 'pre-commit'), 'utf8')).toContain('validate-agent-hooks');
    expect(existsSync(join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('outside a git repository it is a usage error', async () => {
    const io = memoryIO({ cwd: mkdtempSync(join(tmpdir(), 'vah-nogit-')), env: { GIT_CEILING_DIRECTORIES: tmpdir() } });
    expect(await main(['init-pre-commit'], io)).toBe(2);
  });
});

describe('.pre-commit-hooks.yaml', () => {
  it('declares the hook for the pre-commit framework with the package bin and agent profiles only', () => {
    const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Record<string, unknown>[];
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(hooks).toHaveLength(1);
    const [hook] = hooks;
    expect(hook).toMatchObject({ id: 'validate-agent-hooks', language: 'node', types: ['markdown'] });
    expect(Object.keys(pkg.bin)).toContain(hook!.entry);
    const files = new RegExp(hook!.files as string);
    expect(files.test('.claude/agents/coder.md')).toBe(true);
    expect(files.test('.claude/agents/team/coder.md')).toBe(true);
    expect(files.test('docs/coder.md')).toBe(false);
    expect(files.test('.claude/agents/notes.txt')).toBe(false);
  });
});
