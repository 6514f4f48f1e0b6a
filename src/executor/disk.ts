import { execFile, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, statfs } from 'node:fs/promises';
import { findNativeHelper } from './native-helper.js';

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
 * run's result states as a warning. With it, src/executor/native/vah-mount.c
 * holds the mount for the session's life (one process, which also unmounts
 * when its parent dies); without that helper, util-linux's mount and umount.
 *
 * The helper can also hold the session's directory itself in a tmpfs of its
 * own (the area is made inside it): the session's files (scripts, sockets,
 * each run's environment) are then written to memory instead of the host's
 * disk, and go at once with the unmount, where removing them one by one took
 * 5-10 ms of every `run` on ext4. It is a second file system so that a hook
 * that fills its budget never leaves the host without room for the next
 * run's files.
 */

export interface WritableArea {
  path: string;
  /** Whether the budget is enforced by the file system itself. */
  bounded: boolean;
  /** Whether the holder asked for is a tmpfs of its own too, whose files go with release(). */
  holdsSession: boolean;
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
const HOLDER_SOURCE = 'vah-session';
/** The holder's size: the session's own files (the helper's copy, ~0.7 MB, is the largest). */
const HOLDER_BYTES = 64 * 1024 * 1024;
/** How long a mount, remount or unmount may take before it counts as failed. */
const MOUNT_TIMEOUT_MS = 10_000;
const HELPER_GONE = 'vah-mount could not be started';

export interface WritableAreaOptions {
  /** The vah-mount to use (default: the build's; null: util-linux's mount and umount); tests choose. */
  helper?: string | null;
  /** The directory `path` is in (the session's), held in a tmpfs of its own when the helper can. */
  holder?: string;
}

export async function createWritableArea(path: string, budgetBytes: number, options: WritableAreaOptions = {}): Promise<WritableArea> {
  const helper = options.helper === undefined ? findNativeHelper('vah-mount') : (options.helper ?? undefined);
  const { holder } = options;
  let size = Math.max(budgetBytes, 1024 * 1024);
  const root = process.getuid?.() === 0;
  const held = root && helper !== undefined && holder !== undefined;
  // The helper makes the area in the holder's tmpfs; everywhere else it is made here.
  let made = false;
  const makePath = async (): Promise<void> => {
    if (made) return;
    made = true;
    await mkdir(path, { mode: 0o711 });
  };
  if (!held) await makePath();
  let mount: Mount | string = !root
    ? 'not root'
    : helper
      ? await helperMount(helper, path, size, held ? holder : undefined)
      : await commandMount(path, size);
  // A helper that could not be started leaves the job to the binaries.
  if (mount === HELPER_GONE) mount = await makePath().then(() => commandMount(path, size));
  const holdsSession = held && typeof mount !== 'string' && mount.holds;
  if (typeof mount === 'string') {
    await makePath();
    return {
      path,
      bounded: false,
      holdsSession: false,
      unboundedReason: `could not mount a size-limited file system (${mount}); the disk budget is watched instead, best effort: a file deleted while held open, or kept in a directory the hook made unreadable, is not seen`,
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
    holdsSession,
    async grow(bytes) {
      if (bytes <= 0) return;
      size += bytes;
      await mount.remount(size);
    },
    async full() {
      try {
        const stats = await statfs(path);
        // tmpfs hands out whole pages; a few left is as full as a hook can make it. Its inodes run out likewise.
        return stats.bavail * stats.bsize < 64 * 1024 || stats.ffree < 16;
      } catch {
        return false;
      }
    },
    async release() {
      if (released) return;
      released = true;
      if ((await mount.unmount()) === undefined) return;
      await run('umount', ['-l', path]);
      if (holdsSession) await run('umount', ['-l', holder]);
    },
    releaseSync() {
      if (released) return;
      released = true;
      mount.abandon();
      unmountSync(path);
      if (holdsSession) unmountSync(holder);
    },
  };
}

/** A tmpfs mounted at a path: each step resolves to undefined when done, else to what went wrong. */
interface Mount {
  remount(size: number): Promise<string | undefined>;
  unmount(): Promise<string | undefined>;
  /** Lets go of whatever holds the mount, for a process on its way out (the caller unmounts). */
  abandon(): void;
  /** Whether a holder's tmpfs is mounted around it (and unmounted with it). */
  holds: boolean;
}

/** With util-linux's binaries: a process for the mount, one for each remount and one for the unmount. */
async function commandMount(path: string, size: number): Promise<Mount | string> {
  const failed = await run('mount', ['-t', 'tmpfs', '-o', options(size), MOUNT_SOURCE, path]);
  return (
    failed ?? {
      remount: (bigger) => run('mount', ['-o', `remount,${options(bigger)}`, path]),
      unmount: () => run('umount', [path]),
      abandon: () => undefined,
      holds: false,
    }
  );
}

/**
 * With src/executor/native/vah-mount.c: one small process mounts, remounts
 * on request and unmounts when its input ends (which our exit, however it
 * happens, also does), answering a line each time.
 */
function helperMount(helper: string, path: string, size: number, holder: string | undefined): Promise<Mount | string> {
  const holding = holder === undefined ? [] : [HOLDER_SOURCE, holder, String(HOLDER_BYTES)];
  const child = spawn(helper, [MOUNT_SOURCE, path, String(size), ...holding], { stdio: ['pipe', 'pipe', 'ignore'] });
  // A helper that died leaves its pipe broken: the answer that never comes says so, not an 'error' event.
  child.stdin.on('error', () => undefined);
  const waiting: ((line: string | undefined) => void)[] = [];
  const noMoreAnswers = (): void => {
    for (const answer of waiting.splice(0)) answer(undefined);
  };
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      waiting.shift()?.(line);
    }
  });
  let gone = false;
  const ended = new Promise<void>((resolve) => {
    child.on('close', resolve);
    child.on('error', () => resolve());
  }).then(() => {
    gone = true;
    noMoreAnswers();
  });
  /** The helper's next answer, bounded: undefined when done, else what went wrong. */
  const answer = (): Promise<string | undefined> =>
    new Promise<string | undefined>((resolve) => {
      if (gone) {
        resolve(undefined);
        return;
      }
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(undefined);
      }, MOUNT_TIMEOUT_MS);
      waiting.push((text) => {
        clearTimeout(timer);
        resolve(text);
      });
    }).then((text) =>
      text === undefined
        ? child.pid === undefined
          ? HELPER_GONE
          : 'vah-mount ended without answering'
        : text.startsWith('error: ')
          ? text.slice('error: '.length)
          : undefined,
    );
  // It answers the mount unasked.
  return answer().then(async (failed) => {
    if (failed !== undefined) {
      await ended;
      return failed;
    }
    return {
      remount: (bigger) => {
        const answered = answer();
        child.stdin.write(`grow ${bigger}\n`);
        return answered;
      },
      unmount: async () => {
        // The end of its input is the request to unmount.
        const answered = answer();
        child.stdin.end();
        const failedUnmount = await answered;
        await ended;
        return failedUnmount;
      },
      abandon: () => child.kill('SIGKILL'),
      holds: holder !== undefined,
    };
  });
}

/**
 * Inodes of the tmpfs: one for each 4 KiB page of its size (at least 1024).
 * An empty file or a directory takes no page, so `size=` alone does not bound
 * them, but each is about a kilobyte of the kernel's memory: a hook making
 * empty files took 1 GB of it in 8 s against a 512 MiB budget, and in a
 * simulation they stay for the session's next hooks. A seed is counted at a
 * page a file at least (treeBytes), so the area's growth for it brings its
 * inodes too. Past them a write fails with ENOSPC, as past the size.
 */
export function inodesFor(size: number): number {
  return Math.max(1024, Math.floor(size / 4096));
}

function options(size: number): string {
  return `size=${size},nr_inodes=${inodesFor(size)},mode=0711,nosuid,nodev`;
}

/** Unmounts whatever our own tmpfs is mounted at `path` (a stale session's), lazily if it is busy. */
export function unmountSync(path: string): void {
  if (spawnSync('umount', [path], { stdio: 'ignore' }).status !== 0) spawnSync('umount', ['-l', path], { stdio: 'ignore' });
}

/** Whether one of our tmpfs (an area or a holder) is mounted at `path` (read from the mount table, so no guess from inode numbers). */
export function isOurMount(path: string): boolean {
  return ourMounts().some((mounted) => mounted === path);
}

/** Where our tmpfs (areas and holders) are mounted now, one read of the mount table. */
export function ourMounts(): string[] {
  try {
    return readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .filter((line) => {
        const [source, , type] = line.split(' ');
        return (source === MOUNT_SOURCE || source === HOLDER_SOURCE) && type === 'tmpfs';
      })
      .map((line) => line.split(' ')[1]!.replace(/\\040/g, ' '));
  } catch {
    return [];
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
