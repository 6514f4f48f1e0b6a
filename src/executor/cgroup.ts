import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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
  /** Moves a process (and so everything it will start) into the group. */
  enter(pid: number): Promise<void>;
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

export async function createRunCgroup(name: string, memoryBytes: number): Promise<RunCgroup | undefined> {
  const root = findCgroupRoot();
  if (!root) return undefined;
  const path = join(root.parent, name);
  try {
    await mkdir(path);
    if (root.version === 2) {
      await writeFile(join(path, 'memory.max'), String(memoryBytes));
      if (existsSync(join(path, 'memory.swap.max'))) await writeFile(join(path, 'memory.swap.max'), '0');
    } else {
      await writeFile(join(path, 'memory.limit_in_bytes'), String(memoryBytes));
      if (existsSync(join(path, 'memory.memsw.limit_in_bytes')))
        await writeFile(join(path, 'memory.memsw.limit_in_bytes'), String(memoryBytes));
    }
  } catch {
    await rmdir(path).catch(() => undefined);
    return undefined;
  }
  return {
    version: root.version,
    path,
    enter: (pid) => writeFile(join(path, 'cgroup.procs'), String(pid)),
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
    remove: async () => {
      for (let attempt = 0; attempt < 250; attempt++) {
        try {
          await rmdir(path);
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 4));
        }
      }
    },
  };
}
