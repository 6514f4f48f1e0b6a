import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

/** A git environment that ignores the machine's own configuration (hooks paths, signing). */
export const GIT_ENV = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/**
 * This working tree (tracked and untracked files, not what .gitignore keeps
 * out: node_modules, dist) copied into `into` and committed there, so a test
 * installs what would be pushed, as a user's tool would fetch it. Returns the commit.
 */
export function snapshot(into: string, env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV }): string {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  for (const file of listed.split('\0').filter(Boolean)) {
    const from = join(ROOT, file);
    if (!existsSync(from) || !statSync(from).isFile()) continue; // deleted but still in the index
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(from, join(into, file));
  }
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: into, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'snapshot');
  return git('rev-parse', 'HEAD').trim();
}
