import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/io.js';
import { main } from '../../src/cli/main.js';
import { repositoryRoot } from '../../src/cli/repo-root.js';

/**
 * SARIF and GitHub annotations name files from the repository root, as code
 * scanning and the annotations API read them, wherever in the checkout the
 * tool runs; outside a repository, from the working directory.
 */
const GIT_ENV = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: tmpdir() };
const BAD = '---\nname: bad\ndescription: bad\nhooks:\n  on_blocking_start: |\n    rm -rf "$WORKDIR"\n---\n';

function project(git: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'vah-ci-paths-'));
  if (git) execFileSync('git', ['init', '-q'], { cwd: dir, env: { ...process.env, ...GIT_ENV } });
  mkdirSync(join(dir, 'packages', 'app', '.claude', 'agents'), { recursive: true });
  writeFileSync(join(dir, 'packages', 'app', '.claude', 'agents', 'bad.md'), BAD);
  return dir;
}

async function lint(cwd: string, format: string): Promise<string> {
  const io = memoryIO({ cwd, env: { NO_COLOR: '1', ...GIT_ENV } });
  expect(await main(['--all', '--no-shellcheck', '--format', format], io)).toBe(1);
  return io.out();
}

describe('CI paths from a subdirectory', () => {
  it('SARIF names files from the repository root, and says what %SRCROOT% is', async () => {
    const dir = project(true);
    const log = JSON.parse(await lint(join(dir, 'packages', 'app'), 'sarif'));
    const [run] = log.runs;
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: `file://${dir}/` } });
    for (const result of run.results)
      expect(result.locations[0].physicalLocation.artifactLocation).toEqual({
        uri: 'packages/app/.claude/agents/bad.md',
        uriBaseId: '%SRCROOT%',
      });
  });

  it('GitHub annotations name files from the repository root', async () => {
    const dir = project(true);
    const out = await lint(join(dir, 'packages', 'app'), 'github');
    expect(out).toMatch(/^::error file=packages\/app\/\.claude\/agents\/bad\.md,line=6,/m);
    expect(out).not.toMatch(/file=\.claude/);
  });

  it("test: a table's annotations name it from the repository root too", async () => {
    const dir = project(true);
    const cwd = join(dir, 'packages', 'app');
    // An invalid table is reported without running anything: no sandbox needed.
    writeFileSync(
      join(cwd, 'cases.yaml'),
      'target: .claude/settings.json\ncases:\n  - name: x\n    event: PreToolUsage\n    blocked: true\n',
    );
    const io = memoryIO({ cwd, env: { NO_COLOR: '1', ...GIT_ENV } });
    await main(['test', 'cases.yaml', '--format', 'github'], io);
    expect(io.out()).toMatch(/^::error file=packages\/app\/cases\.yaml,line=\d+,/m);
  });

  it('outside a repository, paths are relative to the working directory', async () => {
    const dir = project(false);
    const cwd = join(dir, 'packages', 'app');
    expect(repositoryRoot(cwd, GIT_ENV)).toBe(cwd);
    expect(await lint(cwd, 'github')).toMatch(/^::error file=\.claude\/agents\/bad\.md,/m);
    const run = JSON.parse(await lint(cwd, 'sarif')).runs[0];
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe(`file://${cwd}/`);
    expect(run.results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('.claude/agents/bad.md');
  });

  it("keeps the working directory's spelling when it reaches the repository through a symlink", () => {
    const dir = project(true);
    const link = join(mkdtempSync(join(tmpdir(), 'vah-ci-link-')), 'checkout');
    symlinkSync(dir, link);
    expect(repositoryRoot(join(link, 'packages', 'app'), GIT_ENV)).toBe(link);
  });
});
