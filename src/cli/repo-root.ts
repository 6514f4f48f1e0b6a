import { childProcess } from '../child-process.js';
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';

/**
 * The directory CI paths are relative to: the git repository's top level when
 * `cwd` is inside one, else `cwd`. Code scanning and annotations name files
 * from the repository root, wherever in it the tool ran. git answers with the
 * real path; the answer is given in `cwd`'s own spelling (symlinks and all),
 * so that the linted paths, spelled from `cwd`, stay inside it.
 */
export function repositoryRoot(cwd: string, env: Record<string, string | undefined> = {}): string {
  let top: string;
  try {
    top = childProcess()
      .execFileSync('git', ['rev-parse', '--show-toplevel'], {
        cwd,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
      .trim();
  } catch {
    return cwd;
  }
  if (!top) return cwd;
  let realCwd: string;
  try {
    realCwd = realpathSync(cwd);
  } catch {
    return cwd;
  }
  const below = relative(realpathSync(top), realCwd);
  if (below.startsWith('..')) return top;
  const depth = below === '' ? 0 : below.split(sep).length;
  return resolve(cwd, ...Array<string>(depth).fill('..'));
}
