import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, statfs } from 'node:fs/promises';

/**
 * The disk budget as a file system that cannot grow past it. The sandbox's
 * writable places (each agent's workspace and home, the shared /tmp) live in
 * one tmpfs mounted with `size=`, so a hook that fills it meets ENOSPC at the
 * budget, however fast it writes; nothing has to notice in time. The tmpfs
 * is mounted on the host rather than inside bwrap because workspaces outlive
 * a run (the simulator plays an agent's hooks one after another against the
 * same workspace) and the host reads them afterwards.
 *
 * Mounting needs root (CAP_SYS_ADMIN). Without it the area is a plain
 * directory and the executor falls back to watching free space, which the
 * run's result states as a warning.
 */

export interface WritableArea {
  path: string;
  /** Whether the budget is enforced by the file system itself. */
  bounded: boolean;
  /** Why it is not, when it is not. */
  unboundedReason?: string;
  /** Raises the size by `bytes` (a workspace seed should not eat the hook's budget). */
  grow(bytes: number): Promise<void>;
  /** Whether the file system is (nearly) full: the budget was reached. */
  full(): Promise<boolean>;
  /** Unmounts (the caller removes the directory). */
  release(): Promise<void>;
  /** The same, synchronously, for a process on its way out. */
  releaseSync(): void;
}

const MOUNT_SOURCE = 'vah-writable';

export async function createWritableArea(path: string, budgetBytes: number): Promise<WritableArea> {
  await mkdir(path, { mode: 0o711 });
  let size = Math.max(budgetBytes, 1024 * 1024);
  const mounted = process.getuid?.() === 0 ? await run('mount', ['-t', 'tmpfs', '-o', options(size), MOUNT_SOURCE, path]) : 'not root';
  if (mounted !== undefined) {
    return {
      path,
      bounded: false,
      unboundedReason: `could not mount a size-limited file system (${mounted}); the disk budget is watched instead`,
      grow: () => Promise.resolve(),
      full: () => Promise.resolve(false),
      release: () => Promise.resolve(),
      releaseSync: () => undefined,
    };
  }
  let released = false;
  return {
    path,
    bounded: true,
    async grow(bytes) {
      if (bytes <= 0) return;
      size += bytes;
      await run('mount', ['-o', `remount,${options(size)}`, path]);
    },
    async full() {
      try {
        const stats = await statfs(path);
        // tmpfs hands out whole pages; a few left is as full as a hook can make it.
        return stats.bavail * stats.bsize < 64 * 1024;
      } catch {
        return false;
      }
    },
    async release() {
      if (released) return;
      released = true;
      if ((await run('umount', [path])) !== undefined) await run('umount', ['-l', path]);
    },
    releaseSync() {
      if (released) return;
      released = true;
      unmountSync(path);
    },
  };
}

function options(size: number): string {
  return `size=${size},mode=0711,nosuid,nodev`;
}

/** Unmounts whatever our own tmpfs is mounted at `path` (a stale session's), lazily if it is busy. */
export function unmountSync(path: string): void {
  if (spawnSync('umount', [path], { stdio: 'ignore' }).status !== 0) spawnSync('umount', ['-l', path], { stdio: 'ignore' });
}

/** Whether one of our tmpfs is mounted at `path` (read from the mount table, so no guess from inode numbers). */
export function isOurMount(path: string): boolean {
  try {
    return readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .some((line) => {
        const [source, target, type] = line.split(' ');
        return source === MOUNT_SOURCE && type === 'tmpfs' && target === path.replace(/ /g, '\\040');
      });
  } catch {
    return false;
  }
}

/** Runs a command; undefined on success, else what went wrong. */
function run(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000 }, (error, _stdout, stderr) => {
      resolve(error ? (stderr.trim() || error.message).split('\n')[0] : undefined);
    });
  });
}
