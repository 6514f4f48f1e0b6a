import { accessSync, constants, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Host facts the executor depends on: where tools live and which processes exist. */

export function findExecutable(name: string, searchPath = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'): string | undefined {
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** `pid:[4026532181]`, the identity of a PID namespace, or undefined when the process is gone. */
export function pidNamespaceOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** Whether a process exists and has not finished (zombies have finished). */
export function isRunning(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = status.slice(status.lastIndexOf(')') + 2, status.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Host PIDs of every running process in the given PID namespace. */
export function processesInPidNamespace(namespace: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pidNamespaceOf(pid) === namespace && isRunning(pid)) found.push(pid);
  }
  return found;
}

/** Host PIDs of running processes whose environment carries `marker` (the no-sandbox mode's only handle). */
export function processesWithEnvironmentMarker(marker: string): number[] {
  const found: number[] = [];
  const needle = Buffer.from(marker);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(needle) && isRunning(Number(name))) found.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

export function killProcess(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
