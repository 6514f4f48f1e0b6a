import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inMemoryFs, threadPoolFs, type SessionFs } from './session-fs.js';

/**
 * A memory limit for the whole sandbox. `ulimit -d` bounds each process, but
 * a hook may start many, and a machine in CI should not meet the OOM killer
 * because of one. A control group bounds them together. It needs root and a
 * writable cgroup file system, so it is best effort: when neither cgroup v2
 * (with the memory controller) nor v1's memory hierarchy can be used, runs
 * go on with the per-process limits alone and the result says so.
 */

export interface RunCgroup {
  version: 1 | 2;
  path: string;
  /** Moves a process (and so everything it will start) into the group; synchronous, a few bytes written to cgroupfs. */
  enter(pid: number): void;
  /**
   * v1: the group's `tasks` file, handed to the sandbox's user, for the
   * trampoline to move itself in by writing `0` (src/executor/trampoline.ts).
   * A thread moving itself takes no machine-wide lock; a move by PID waits
   * for the kernel's cgroup_threadgroup_rwsem, an RCU grace period after a
   * quiet spell (4-19 ms measured here), and holds cgroup_mutex meanwhile,
   * which every mkdir of a group then waits for.
   */
  selfEntry?: string;
  /** Host PIDs in the group now. */
  processes(): number[];
  /** Whether the kernel killed something in the group for exceeding the limit. */
  oomKilled(): Promise<boolean>;
  remove(): Promise<void>;
}

interface CgroupRoot {
  version: 1 | 2;
  /** Directory new groups are created in. */
  parent: string;
}

let cachedRoot: CgroupRoot | null | undefined;

/** Where this process may create memory-limited groups, or null when it may not. */
export function findCgroupRoot(): CgroupRoot | null {
  if (cachedRoot !== undefined) return cachedRoot;
  cachedRoot = null;
  if (process.getuid?.() !== 0) return cachedRoot;
  try {
    // cgroup v2 mounted at /sys/fs/cgroup, with the memory controller handed to children of the root.
    if (
      existsSync('/sys/fs/cgroup/cgroup.controllers') &&
      readFileSync('/sys/fs/cgroup/cgroup.subtree_control', 'utf8').split(/\s+/).includes('memory')
    ) {
      cachedRoot = { version: 2, parent: '/sys/fs/cgroup' };
      return cachedRoot;
    }
    // cgroup v1: a memory hierarchy; new groups go under this process's own group.
    const own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((line) => /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:/.test(line));
    if (own && existsSync('/sys/fs/cgroup/memory/cgroup.procs')) {
      const relative = own.slice(own.indexOf(':', own.indexOf(':') + 1) + 1);
      const parent = join('/sys/fs/cgroup/memory', relative);
      if (existsSync(join(parent, 'memory.limit_in_bytes'))) cachedRoot = { version: 1, parent };
    }
  } catch {
    cachedRoot = null;
  }
  return cachedRoot;
}

/**
 * Readies the kernel for the sandbox's move into its group. The first move of
 * a process between control groups after a quiet spell waits for an RCU grace
 * period (the writer side of the kernel's cgroup_threadgroup_rwsem: 6-20 ms
 * measured here), and moves within ~10 ms of another take ~0.1 ms. This moves
 * this process into the group it is already in, which changes nothing but
 * takes that wait, in the thread pool, while the session sets up; called
 * again closer to the launch, it keeps the lock warm. Never fails. Only for
 * moves by PID (v2, or a v1 group whose `tasks` could not be handed over).
 */
export function primeCgroupMoves(): Promise<void> {
  // v1's runs move themselves in (RunCgroup.selfEntry): nothing to ready, and a prime would hold cgroup_mutex while the groups are made.
  if (findCgroupRoot()?.version === 1) return Promise.resolve();
  const own = ownGroupProcs();
  if (own === undefined) return Promise.resolve();
  return writeFile(own, String(process.pid)).catch(() => undefined);
}

let cachedOwnProcs: string | null | undefined;

/** The cgroup.procs file of this process's own group in the hierarchy findCgroupRoot uses. */
function ownGroupProcs(): string | undefined {
  if (cachedOwnProcs !== undefined) return cachedOwnProcs ?? undefined;
  cachedOwnProcs = null;
  const root = findCgroupRoot();
  if (root?.version === 1) cachedOwnProcs = join(root.parent, 'cgroup.procs');
  else if (root?.version === 2) {
    try {
      const own = /^0::(\/.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
      if (own !== undefined) cachedOwnProcs = join('/sys/fs/cgroup', own, 'cgroup.procs');
    } catch {
      // no priming
    }
  }
  return cachedOwnProcs ?? undefined;
}

/**
 * Every sandbox of a session in one group, under a limit of its own: each run
 * is held to its memory limit, and a settings file's twenty handlers that
 * run at once (or a swarm's agents) are held together to SESSION_MEMORY_FACTOR
 * times it, not twenty times. Made on the first run, removed with the session
 * (and by the sweep of a dead session's leftovers). Undefined where groups
 * cannot be made; runs then get groups of their own at the top, as before.
 */
export const SESSION_MEMORY_FACTOR = 2;

/**
 * v1's groups are made with synchronous calls (session-fs.ts's `inMemoryFs`),
 * each a few microseconds of the kernel's: through the thread pool a
 * writeFile is an open, a write and a close, each waiting for a turn of the
 * event loop, which the session's set-up holds, and the chain of the
 * session's and the run's groups was the last thing a sandbox's start waited
 * for (traced). v2's stay in the thread pool: a prime there
 * (primeCgroupMoves) holds cgroup_mutex through an RCU grace period, which a
 * synchronous mkdir would wait out on the main thread. The modes given are
 * Node's defaults (cgroupfs files exist already; their modes are the kernel's).
 */
const opsFor = (version: 1 | 2): SessionFs => (version === 1 ? inMemoryFs : threadPoolFs);
const sessionGroups = new Map<string, Promise<string | undefined>>();

export function sessionCgroup(sessionName: string, runMemoryBytes: number): Promise<string | undefined> {
  let group = sessionGroups.get(sessionName);
  if (!group) {
    group = makeSessionCgroup(`vah-${sessionName}`, runMemoryBytes * SESSION_MEMORY_FACTOR);
    sessionGroups.set(sessionName, group);
  }
  return group;
}

async function makeSessionCgroup(name: string, memoryBytes: number): Promise<string | undefined> {
  const root = findCgroupRoot();
  if (!root) return undefined;
  const path = join(root.parent, name);
  const ops = opsFor(root.version);
  try {
    await ops.mkdir(path, 0o777);
    await limitMemory(root.version, path, memoryBytes);
    // v2: the memory controller handed on to the runs' groups (a group with children holds no process itself).
    if (root.version === 2) await ops.writeFile(join(path, 'cgroup.subtree_control'), '+memory', 0o666);
    return path;
  } catch {
    await rmdir(path).catch(() => undefined);
    return undefined;
  }
}

/** Removes a session's group once its runs' groups are gone (they are removed as each run ends). */
export async function removeSessionCgroup(sessionName: string): Promise<void> {
  const group = sessionGroups.get(sessionName);
  if (!group) return;
  sessionGroups.delete(sessionName);
  const path = await group;
  if (path) await removeGroup(path);
}

async function limitMemory(version: 1 | 2, path: string, memoryBytes: number): Promise<void> {
  const ops = opsFor(version);
  if (version === 2) {
    await ops.writeFile(join(path, 'memory.max'), String(memoryBytes), 0o666);
    if (existsSync(join(path, 'memory.swap.max'))) await ops.writeFile(join(path, 'memory.swap.max'), '0', 0o666);
  } else {
    await ops.writeFile(join(path, 'memory.limit_in_bytes'), String(memoryBytes), 0o666);
    if (existsSync(join(path, 'memory.memsw.limit_in_bytes')))
      await ops.writeFile(join(path, 'memory.memsw.limit_in_bytes'), String(memoryBytes), 0o666);
  }
}

/** rmdir, retried briefly: a group empties as the last processes of its PID namespace exit. */
async function removeGroup(path: string): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt++) {
    try {
      await rmdir(path);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 4));
    }
  }
}

export async function createRunCgroup(
  name: string,
  memoryBytes: number,
  parent?: string,
  owner?: { uid: number; gid: number },
): Promise<RunCgroup | undefined> {
  const root = findCgroupRoot();
  if (!root) return undefined;
  const path = join(parent ?? root.parent, name);
  const ops = opsFor(root.version);
  try {
    await ops.mkdir(path, 0o777);
    await limitMemory(root.version, path, memoryBytes);
  } catch {
    await rmdir(path).catch(() => undefined);
    return undefined;
  }
  // Where the file cannot be handed over, the trampoline waits at its gate and is moved by PID.
  const selfEntry =
    root.version === 1 && owner
      ? await ops.chown(join(path, 'tasks'), owner.uid, owner.gid).then(
          () => join(path, 'tasks'),
          () => undefined,
        )
      : undefined;
  return {
    version: root.version,
    path,
    ...(selfEntry !== undefined ? { selfEntry } : {}),
    enter: (pid) => writeFileSync(join(path, 'cgroup.procs'), String(pid)),
    processes: () => {
      try {
        return readFileSync(join(path, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    },
    oomKilled: async () => {
      try {
        const text = await readFile(join(path, root.version === 2 ? 'memory.events' : 'memory.oom_control'), 'utf8');
        // Not v1's failcnt: that also counts page cache reclaimed at the limit, which kills nothing.
        const kills = /^oom_kill (\d+)$/m.exec(text);
        return kills !== null && Number(kills[1]) > 0;
      } catch {
        return false;
      }
    },
    // The group empties as the PID namespace dies; retry briefly for the last exits.
    remove: () => removeGroup(path),
  };
}
