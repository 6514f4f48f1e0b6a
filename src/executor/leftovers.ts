import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { lstat, readFile, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { findCgroupRoot } from './cgroup.js';
import { ourMounts, unmountSync } from './disk.js';
import { killProcess } from './host.js';
import { threadPoolFs, type SessionFs } from './session-fs.js';

/**
 * What an executor session leaves on the machine while it is under way — its
 * directory (with a tmpfs mounted in it), sockets, control groups, sandboxes
 * — undone when the process is cut short by SIGINT, SIGTERM or SIGHUP, and
 * swept at the next start when it was killed outright (SIGKILL, a power cut).
 *
 * A session directory is ours to sweep only when all of these hold: its name
 * is `vah-session-XXXXXX`, it is a real directory (not a link) owned by this
 * user, and its owner file names a process that no longer exists — the PID
 * *and* that process's start time, so a recycled PID does not keep it alive
 * and a live session of another `run` is never touched.
 */

export const SESSION_PREFIX = 'vah-session-';
const SESSION_NAME = /^vah-session-[A-Za-z0-9]{6}$/;
export const OWNER_FILE = 'owner.json';
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** How long the asynchronous clean-up may take before the synchronous one finishes the job. */
const CLEANUP_GRACE_MS = 3000;

export interface HeldSession {
  /** Kills every sandbox the session is running. */
  abort(): void;
  /** The session's ordinary close (waits for runs, stops the fakes, unmounts, removes). */
  close(): Promise<void>;
  /** Whatever close() did not get to, done synchronously (a process on its way out cannot wait). */
  closeSync(): void;
}

const sessions = new Set<HeldSession>();
let cleaning = false;

function exitCleanup(): void {
  for (const session of sessions) session.closeSync();
  sessions.clear();
}

async function onSignal(signal: NodeJS.Signals): Promise<void> {
  if (cleaning) return;
  cleaning = true;
  const all = [...sessions];
  for (const session of all) session.abort();
  await Promise.race([Promise.allSettled(all.map((session) => session.close())), delay(CLEANUP_GRACE_MS)]);
  exitCleanup();
  watch(false);
  cleaning = false;
  // Nobody else listens: end as the signal would have ended us.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

const listener = (signal: NodeJS.Signals): void => void onSignal(signal);

let watching = false;
function watch(on: boolean): void {
  if (on === watching) return;
  watching = on;
  if (on) {
    process.on('exit', exitCleanup);
    for (const signal of SIGNALS) process.on(signal, listener);
  } else {
    process.off('exit', exitCleanup);
    for (const signal of SIGNALS) process.off(signal, listener);
  }
}

/** Holds a session until `release`; the signal listeners exist only while one is held. */
export function holdSession(session: HeldSession): () => void {
  sessions.add(session);
  watch(true);
  return () => {
    sessions.delete(session);
    if (sessions.size === 0 && !cleaning) watch(false);
  };
}

/** The start time of a process in clock ticks since boot (field 22 of /proc/PID/stat), or undefined when it is gone. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Written into a new session directory before anything else. */
export async function writeOwnerFile(dir: string, fs: SessionFs = threadPoolFs): Promise<void> {
  await fs.writeFile(join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid, start: processStartTime(process.pid) }), 0o644);
}

/** Removes the named entries of a session directory (none of them the writable area), all at once. */
export async function removeSessionFiles(dir: string, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((name) => rm(join(dir, name), { recursive: true, force: true })));
}

/**
 * Removes a session directory: its tmpfs (the writable area, then the holder
 * of the session's files when it has one) unmounted first, so removal never
 * reaches through a mount.
 */
export function removeSessionDirSync(dir: string, writableArea: string): void {
  const mounted = (paths: readonly string[]): string[] => [writableArea, dir].filter((path) => paths.includes(path));
  const before = mounted(ourMounts());
  for (const path of before) unmountSync(path);
  if (before.length > 0 && mounted(ourMounts()).length > 0) return;
  removeTreeSync(dir);
}

/**
 * Removes a tree a hook wrote in, never throwing. Without root the writable
 * area is a plain directory of the executor's own user, and a hook could
 * make it unremovable by Node's `rmSync`: `chmod 000` on a directory it made
 * (EACCES), or directories nested 2,000 deep (a recursion past the stack).
 * Either crashed the executor with an internal error instead of its report,
 * and left the session behind for every later sweep to fail on too. GNU
 * `chmod -R` and `rm -rf` walk any depth with relative paths; the directories
 * are made the owner's to enter and empty first.
 */
export function removeTreeSync(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
    return;
  } catch {
    // Left as it is for the tools below.
  }
  spawnSync('chmod', ['-R', 'u+rwX', '--', dir], { stdio: 'ignore' });
  spawnSync('rm', ['-rf', '--', dir], { stdio: 'ignore' });
}

/**
 * Removes the sessions a dead process left in `baseDir` (see the rules above),
 * and their control groups. Returns the directories removed.
 */
export async function sweepStaleSessions(baseDir: string, writableAreaOf: (dir: string) => string): Promise<string[]> {
  const uid = process.getuid?.();
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(baseDir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!SESSION_NAME.test(name)) continue;
    const dir = join(baseDir, name);
    try {
      const stat = await lstat(dir);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      const ownerStat = await lstat(join(dir, OWNER_FILE));
      if (!ownerStat.isFile() || (uid !== undefined && ownerStat.uid !== uid)) continue;
      const owner = JSON.parse(await readFile(join(dir, OWNER_FILE), 'utf8')) as { pid?: unknown; start?: unknown };
      if (typeof owner.pid !== 'number' || typeof owner.start !== 'string') continue;
      if (processStartTime(owner.pid) === owner.start) continue;
      removeSessionDirSync(dir, writableAreaOf(dir));
      removed.push(dir);
      await removeCgroupsOf(name);
    } catch {
      // Not ours, half made, or gone while we looked.
    }
  }
  return removed;
}

async function removeCgroupsOf(sessionName: string): Promise<void> {
  const root = findCgroupRoot();
  if (!root) return;
  let entries: string[];
  try {
    entries = readdirSync(root.parent);
  } catch {
    return;
  }
  // The runs' groups (inside the session's group, or at the top as older sessions made them), then the session's.
  const groups: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith(`vah-${sessionName}-`)) groups.push(join(root.parent, entry));
    if (entry !== `vah-${sessionName}`) continue;
    try {
      for (const child of readdirSync(join(root.parent, entry), { withFileTypes: true }))
        if (child.isDirectory()) groups.push(join(root.parent, entry, child.name));
    } catch {
      // gone meanwhile
    }
    groups.push(join(root.parent, entry));
  }
  for (const group of groups) {
    // What is still in a dead session's group is its sandbox on the way out (or stuck): ours to end.
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        await rmdir(group);
        break;
      } catch {
        for (const pid of readFileSync(join(group, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) killProcess(Number(pid));
        await delay(20);
      }
    }
  }
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
