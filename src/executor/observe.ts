import { readFileSync } from 'node:fs';
import { lstat, readdir, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { processesInPidNamespace } from './host.js';

/**
 * What the supervisor sees for itself. `limitsHit` and `signal` are built
 * from these, never from what the hook prints: a hook can write "CPU time
 * limit exceeded" to stderr or `exit 152` (128 + SIGXCPU) without having
 * come near a limit. Each check here looks at something the hook cannot
 * forge from inside the sandbox.
 */

/**
 * Samples the sandbox's PID namespace: the peak number of processes in it
 * (the process limit), and the most CPU time one of them had used (the
 * CPU limit is per process, like `ulimit -t`), from the kernel's /proc.
 */
export function sampleProcessPeak(
  init: Promise<{ pid: number; namespace: string } | undefined>,
  everyMs: number,
  /** The run's control group lists its processes cheaply; without one, /proc is scanned for the namespace. */
  listProcesses?: () => number[],
): { peak(): number; cpuPeakSeconds(): number; stop(): void } {
  let peak = 0;
  let cpuPeak = 0;
  let active = true;
  let root: { pid: number; namespace: string } | undefined;
  void init.then((value) => {
    root = value;
  });
  const timer = setInterval(() => {
    if (!active || !root) return;
    const pids = listProcesses?.() ?? processesInPidNamespace(root.namespace);
    peak = Math.max(peak, pids.length);
    for (const pid of pids) cpuPeak = Math.max(cpuPeak, cpuSecondsOf(pid));
  }, everyMs);
  timer.unref();
  return {
    peak: () => peak,
    cpuPeakSeconds: () => cpuPeak,
    stop: () => {
      active = false;
      clearInterval(timer);
    },
  };
}

/** User + system CPU seconds of a process (fields 14 and 15 of /proc/PID/stat, in USER_HZ = 100 ticks a second). */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Whether a file under `roots` is exactly at the file-size limit: what
 * `ulimit -f` leaves when it stops a write, and also what a hook writing
 * exactly that many bytes leaves, so a hint (a warning), not a proof. The walk is skipped when the file
 * system holds less than the limit altogether, and bounded in entries.
 */
export async function fileAtSizeLimit(roots: readonly string[], limitBytes: number, maxEntries = 20_000): Promise<boolean> {
  try {
    const stats = await statfs(roots[0]!);
    if ((stats.blocks - stats.bfree) * stats.bsize < limitBytes) return false;
  } catch {
    // Not a file system we can ask; walk anyway.
  }
  let budget = maxEntries;
  const walk = async (path: string): Promise<boolean> => {
    if (budget-- <= 0) return false;
    const stat = await lstat(path).catch(() => undefined);
    if (!stat) return false;
    if (stat.isFile()) return stat.size === limitBytes;
    if (!stat.isDirectory()) return false;
    for (const entry of await readdir(path).catch(() => [] as string[])) if (await walk(join(path, entry))) return true;
    return false;
  };
  for (const root of roots) if (await walk(root)) return true;
  return false;
}
