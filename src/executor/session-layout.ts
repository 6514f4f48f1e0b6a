import { execFile } from 'node:child_process';
import { constants, statSync } from 'node:fs';
import { cp, lchown, lstat, mkdir, open, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { escapeControl } from '../text/control-chars.js';
import type { ShellLayout } from './env.js';
import { findExecutable } from './host.js';
import { threadPoolFs, type SessionFs } from './session-fs.js';
import { controlShim, redisCliShim, shellFunctions } from './shims.js';

/** Where a session's files go on the host, and how they are made; see session.ts. */

/**
 * The OS temp dir, unless the sandbox user could not reach into it (a root
 * `TMPDIR` of mode 0700): bwrap runs as that user and must find its binds.
 */
export function reachableTempDir(forOtherUser: boolean): string {
  const base = tmpdir();
  if (!forOtherUser) return base;
  for (let path = base; ; path = dirname(path)) {
    const mode = statSync(path, { throwIfNoEntry: false })?.mode ?? 0;
    if ((mode & 0o001) === 0) return '/tmp';
    if (path === dirname(path)) return base;
  }
}

/** Agent ids become directory names; anything odd in them must not steer the path. */
export function safeName(agentId: string): string {
  const cleaned =
    agentId
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 80) || 'agent';
  return `${cleaned}-${createHashSuffix(agentId)}`;
}

function createHashSuffix(text: string): string {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash.toString(36);
}

/** `fs`: how the session writes its files (a seed's copied tree is handed over in the thread pool, however large). */
export async function prepareAgentDirs(
  root: string,
  seed: string | undefined,
  owner: { uid: number; gid: number } | undefined,
  fs: SessionFs = threadPoolFs,
): Promise<{ workspace: string; home: string }> {
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  await fs.mkdir(root, 0o755, { recursive: true });
  await Promise.all([fs.mkdir(workspace, 0o755), fs.mkdir(home, 0o700)]);
  // Claude Code (which claude-flow agents run in too) always has ~/.claude: hooks log there, and a
  // write into a missing directory fails with sh's exit 2, which Claude Code reads as a block.
  await fs.mkdir(join(home, '.claude'), 0o755);
  if (seed) await copySeed(seed, workspace);
  if (owner) {
    await chownTree(workspace, owner, seed ? threadPoolFs : fs);
    await chownTree(home, owner, fs);
  }
  return { workspace, home };
}

/**
 * An empty file at `relative` under an agent's home (its directories made as
 * needed, owned as the home is), unless something is there already: the
 * transcript a Claude Code event names (`transcript_path`), which a hook may
 * read (`jq … "$transcript_path"` exits 2, a block, on a missing file).
 * The home lasts the session and earlier hooks wrote in it, so nothing in it
 * is followed: where a link, a file or anything but a directory stands on the
 * way, nothing is made (the hook then finds no transcript, as it arranged);
 * directories are made one at a time and the file is opened with O_EXCL and
 * O_NOFOLLOW, so the host (root, when it hands the files to the sandbox user)
 * never writes outside the home.
 */
export async function ensureHomeFile(home: string, relative: string, owner: { uid: number; gid: number } | undefined): Promise<void> {
  const target = resolve(home, relative);
  if (!target.startsWith(`${home}/`)) return;
  const made: string[] = [];
  let dir = home;
  for (const part of target
    .slice(home.length + 1)
    .split('/')
    .slice(0, -1)) {
    dir = join(dir, part);
    const found = await lstat(dir).catch(() => undefined);
    if (found?.isDirectory()) continue;
    if (found) return;
    await mkdir(dir, { mode: 0o755 });
    made.push(dir);
  }
  let file;
  try {
    file = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  await file?.close();
  if (owner) for (const path of [...made, ...(file ? [target] : [])]) await lchown(path, owner.uid, owner.gid);
}

/**
 * Copies the workspace seed keeping the holes of sparse files (GNU `cp
 * --sparse=always`): Node's `fs.cp` writes a hole out as zeros, so a 3 GB
 * sparse file took 3 GB of the tmpfs's RAM. Where that `cp` is missing (busybox),
 * `fs.cp`; the seed is at most the disk budget either way (`checkSeedSize`).
 */
async function copySeed(seed: string, workspace: string): Promise<void> {
  const args = ['-R', '-P', '-f', '--preserve=mode,timestamps', '--sparse=always', '-T', seed, workspace];
  const failure = await new Promise<Error | undefined>((resolve) => {
    execFile('cp', args, { maxBuffer: 64 * 1024 }, (error, _stdout, stderr) =>
      resolve(
        error
          ? // The caller's directory could not be copied (unreadable files, a pseudo file system): their mistake to fix, not ours.
            Object.assign(new Error(`copying --workspace ${escapeControl(seed)}: ${firstLines(stderr) || escapeControl(error.message)}`), {
              code: error.code,
              name: 'UsageError',
            })
          : undefined,
      ),
    );
  });
  if (!failure) return;
  if ((failure as { code?: unknown }).code !== 'ENOENT' && !/unrecognized option|invalid option/.test(failure.message)) throw failure;
  await cp(seed, workspace, { recursive: true, dereference: false, verbatimSymlinks: true, preserveTimestamps: true, force: true });
}

/** cp's complaints about the files it could not copy (names from the caller's tree): the first, escaped, and how many more. */
function firstLines(stderr: string): string {
  const lines = stderr.trim().split('\n').filter(Boolean);
  if (lines.length === 0) return '';
  return `${escapeControl(lines[0]!)}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ''}`;
}

async function chownTree(path: string, owner: { uid: number; gid: number }, fs: SessionFs): Promise<void> {
  const stat = await fs.lstat(path);
  if (stat.isSymbolicLink()) return;
  // lchown: were the entry swapped for a link since lstat, the link is what changes hands.
  await fs.lchown(path, owner.uid, owner.gid);
  if (!stat.isDirectory()) return;
  for (const entry of await fs.readdir(path)) await chownTree(join(path, entry), owner, fs);
}

/**
 * Where hooks may find redis-cli by absolute path; each gets the wrapper, so
 * `/usr/bin/redis-cli` reaches the session's Redis too. Only /usr is in the
 * sandbox (and /bin links into it).
 */
export function redisCliLocations(realRedisCli: string): string[] {
  const candidates = [realRedisCli, '/usr/bin/redis-cli', '/usr/local/bin/redis-cli'];
  return [...new Set(candidates.filter((path) => path.startsWith('/usr/') && findExecutable('redis-cli', dirname(path)) === path))];
}

/**
 * --no-sandbox: the same commands, as files in the run's directory (the
 * sockets' host paths are baked in) and as bash functions named `/NAME`.
 */
export async function noSandboxLayout(options: {
  runDir: string;
  agent: { workspace: string; home: string };
  tmpDir: string;
  realRedisCli: string;
  controlSocket: string;
  redisSocket: string;
  slashNames: string[];
}): Promise<{ shell: ShellLayout; prelude: string }> {
  const binDir = join(options.runDir, 'bin');
  const shimDir = join(options.runDir, 'shims');
  await Promise.all([mkdir(binDir), mkdir(shimDir)]);
  await writeFile(join(binDir, 'redis-cli'), redisCliShim({ redisCli: options.realRedisCli, redisSocket: options.redisSocket }), {
    mode: 0o755,
  });
  const commands: Record<string, string> = {};
  await Promise.all(
    options.slashNames.map(async (name) => {
      const path = join(shimDir, name);
      await writeFile(path, controlShim({ commandName: name, redisCli: options.realRedisCli, controlSocket: options.controlSocket }), {
        mode: 0o755,
      });
      commands[name] = path;
    }),
  );
  const prelude = join(options.runDir, 'functions.bash');
  await writeFile(
    prelude,
    shellFunctions({
      redisCli: options.realRedisCli,
      redisSocket: options.redisSocket,
      controlSocket: options.controlSocket,
      commands: Object.keys(commands).sort(),
    }),
  );
  return {
    prelude,
    shell: {
      home: options.agent.home,
      workspace: options.agent.workspace,
      tmp: options.tmpDir,
      path: `${binDir}:${process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
      user: process.env.USER ?? 'root',
    },
  };
}

/** Bytes a directory tree takes, in whole 4 KiB pages per file (how tmpfs counts), links not followed. */
export async function treeBytes(path: string, stopAbove = Number.POSITIVE_INFINITY): Promise<number> {
  const page = 4096;
  const stat = await lstat(path);
  if (!stat.isDirectory()) return Math.ceil(stat.size / page) * page + page;
  let total = page;
  for (const entry of await readdir(path)) {
    total += await treeBytes(join(path, entry), stopAbove - total);
    // Past the bound the answer is already "too big"; a huge tree is not walked to its end.
    if (total > stopAbove) return total;
  }
  return total;
}

/**
 * A workspace seed is copied once per agent into the size-limited file system,
 * which grows by the seed's size for it: a seed larger than the disk budget
 * (apparent size: a sparse file's holes count, as a hook reading it or a copy
 * without hole support would fill them) is refused before anything is copied.
 */
export async function checkSeedSize(seed: string, budgetBytes: number): Promise<number> {
  const bytes = await treeBytes(seed, budgetBytes);
  if (bytes > budgetBytes)
    throw new Error(
      `cannot copy ${seed} into the sandbox: it holds more than the disk budget of ${Math.round(budgetBytes / 1024 / 1024)} MiB ` +
        '(sizes as files report them, the holes of sparse files included), and each agent works on a copy inside that budget. ' +
        'Give a smaller directory (run --workspace DIR; run --event and test: --project DIR, e.g. without node_modules) or, for run, a larger --limit-disk.',
    );
  return bytes;
}

/** Where a session's writable places (workspaces, homes, the shared /tmp) live: the size-limited file system. */
export function writableAreaPath(sessionDir: string): string {
  return join(sessionDir, 'rw');
}

/**
 * Bytes held under the given directories (files, not blocks), walked with a
 * cap so a tree of many small files cannot make the check itself a load: the
 * disk budget of a sandbox without its own size-limited file system.
 */
export async function ownedBytes(roots: readonly string[], maxEntries = 20_000): Promise<number | undefined> {
  let total = 0;
  let seen = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const path = stack.pop()!;
    let entries;
    try {
      entries = await readdir(path, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > maxEntries) return total;
      const child = join(path, entry.name);
      if (entry.isDirectory()) stack.push(child);
      else if (entry.isFile()) total += (await lstat(child).catch(() => undefined))?.size ?? 0;
    }
  }
  return total;
}
