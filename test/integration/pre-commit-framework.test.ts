import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_ENV, ROOT, snapshot } from '../helpers/snapshot.js';

/**
 * The real pre-commit framework (Debian's `pre-commit`) installing our hook
 * the way a user's `.pre-commit-config.yaml` asks for it: `repo:` a git
 * repository, `rev:` a commit. The repository is a snapshot of this working
 * tree (tracked and untracked files, not node_modules or dist), committed in a
 * temporary clone, so what is tested is what would be pushed. pre-commit
 * installs it as npm does a git dependency: `npm install`, `npm pack` (whose
 * standard output it takes as the tarball's name), `npm install -g` that
 * tarball. The npm registry is needed (CI has it); the npm cache makes it quick.
 */
const hasPreCommit = spawnSync('pre-commit', ['--version']).status === 0;
if (!hasPreCommit)
  console.warn('pre-commit-framework.test.ts: skipped: `pre-commit` is not installed (apt-get install pre-commit; CI installs it).');

const BAD = '---\nname: bad\ndescription: bad\nhooks:\n  on_blocking_start: |\n    rm -rf "$WORKDIR"\n---\n';
const GOOD = '---\nname: good\ndescription: good\nhooks:\n  on_blocking_start: |\n    echo "started $AGENT_ID"\n---\n';

function git(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe.skipIf(!hasPreCommit)('the pre-commit framework', () => {
  it('npm pack prints only the tarball name on stdout, although prepack builds', () => {
    const work = mkdtempSync(join(tmpdir(), 'vah-pack-'));
    const env = { ...process.env, ...GIT_ENV };
    snapshot(join(work, 'tool'), env);
    // Dependencies linked from this checkout: the build needs typescript and esbuild.
    execFileSync('ln', ['-s', join(ROOT, 'node_modules'), join(work, 'tool', 'node_modules')]);
    const packed = spawnSync('npm', ['pack'], { cwd: join(work, 'tool'), encoding: 'utf8', env });
    expect(packed.status, packed.stderr).toBe(0);
    expect(packed.stdout).toBe('validate-agent-hooks-0.1.0.tgz\n');
  }, 600_000);

  it('installs the hook from a local clone at a commit, and a commit of a bad profile fails on our findings', () => {
    const work = mkdtempSync(join(tmpdir(), 'vah-pcf-'));
    const env = { ...process.env, ...GIT_ENV, PRE_COMMIT_HOME: join(work, 'cache'), NO_COLOR: '1' };
    const rev = snapshot(join(work, 'tool'), env);
    const user = join(work, 'user');
    mkdirSync(join(user, '.claude', 'agents'), { recursive: true });
    git(user, env, 'init', '-q');
    writeFileSync(
      join(user, '.pre-commit-config.yaml'),
      `repos:\n  - repo: ${join(work, 'tool')}\n    rev: ${rev}\n    hooks:\n      - id: validate-agent-hooks\n`,
    );
    const install = spawnSync('pre-commit', ['install'], { cwd: user, env, encoding: 'utf8' });
    expect(install.status, install.stdout + install.stderr).toBe(0);

    writeFileSync(join(user, '.claude', 'agents', 'bad.md'), BAD);
    git(user, env, 'add', '-A');
    const refused = spawnSync('git', ['commit', '-m', 'bad'], { cwd: user, env, encoding: 'utf8' });
    const output = refused.stdout + refused.stderr;
    expect(output).not.toMatch(/An error has occurred|CalledProcessError/);
    expect(refused.status, output).not.toBe(0);
    expect(output).toContain('validate-agent-hooks....');
    expect(output).toMatch(/\.claude\/agents\/bad\.md\n\s+6:5\s+error\s+Disallowed `rm -rf`.*command-rm-rf/);
    expect(() => git(user, env, 'rev-parse', 'HEAD')).toThrow();

    writeFileSync(join(user, '.claude', 'agents', 'bad.md'), GOOD);
    git(user, env, 'add', '-A');
    const accepted = spawnSync('git', ['commit', '-m', 'good'], { cwd: user, env, encoding: 'utf8' });
    expect(accepted.status, accepted.stdout + accepted.stderr).toBe(0);
    expect(accepted.stdout + accepted.stderr).toMatch(/validate-agent-hooks\.+Passed/);
  }, 900_000);
});
