import { statfs } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { isRunning, killProcess, pidNamespaceOf, processesInPidNamespace, processesWithEnvironmentMarker } from './host.js';
import type { SandboxLimits } from './sandbox.js';
import { monotonicMs } from './process-runner.js';
import { raceTimeout } from '../timers.js';

/**
 * What the supervisor (src/executor/execute.ts) watches while a hook runs and
 * after it ends: its output streams (capped), the sandbox's init and PID
 * namespace, processes left behind, and the disk budget.
 */

const DISK_POLL_MS = 100;
const SURVIVOR_GRACE_MS = 1000;

export interface CapturedStream {
  text(): string;
  bytes(): number;
  finished(graceMs: number): Promise<void>;
}

export function captureStream(stream: Readable, limits: SandboxLimits, onRunaway: () => void): CapturedStream {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  let ended = false;
  const done = new Promise<void>((resolve) => {
    stream.once('end', () => {
      ended = true;
      resolve();
    });
    stream.once('close', () => {
      ended = true;
      resolve();
    });
    stream.once('error', () => {
      ended = true;
      resolve();
    });
  });
  stream.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (kept < limits.outputBytes) {
      const slice = chunk.subarray(0, limits.outputBytes - kept);
      chunks.push(slice);
      kept += slice.length;
    }
    if (total > limits.outputKillBytes) onRunaway();
  });
  return {
    text: () => Buffer.concat(chunks).toString('utf8'),
    bytes: () => total,
    finished: async (graceMs) => {
      if (ended) return;
      // Without a PID namespace a surviving grandchild can hold the pipe open forever. The grace
      // timer goes as soon as the stream ends: left pending it would hold a finished CLI open.
      await raceTimeout(done, graceMs, undefined);
      stream.destroy();
    },
  };
}

/**
 * bwrap writes its child's PID first and the namespaces after; the pipe must
 * be read to its end, or bwrap dies of SIGPIPE halfway through starting.
 */
export function readInitPid(info: Readable | undefined): Promise<{ pid: number; namespace: string } | undefined> {
  if (!info) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let text = '';
    let found = false;
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      if (found) return;
      text += chunk;
      const match = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (!match) return;
      found = true;
      const pid = Number(match[1]);
      const namespace = pidNamespaceOf(pid);
      resolve(namespace ? { pid, namespace } : undefined);
    });
    info.once('end', () => resolve(undefined));
    info.once('close', () => resolve(undefined));
    info.once('error', () => resolve(undefined));
  });
}

/**
 * The namespace dies with its init, and init dies with bwrap; this waits for
 * that to finish, and should anything still run after the grace period,
 * kills it and reports it (which would be a sandbox bug worth seeing).
 */
export async function reapNamespace(init: { pid: number; namespace: string } | undefined): Promise<number[]> {
  if (!init) return [];
  const deadline = monotonicMs() + SURVIVOR_GRACE_MS;
  while (monotonicMs() < deadline) {
    if (!isRunning(init.pid) || pidNamespaceOf(init.pid) !== init.namespace) return [];
    await delay(2);
  }
  const survivors = processesInPidNamespace(init.namespace);
  for (const pid of survivors) killProcess(pid);
  return survivors;
}

/** Best effort for --no-sandbox: whatever still carries the run's marker in its environment. */
export async function reapMarked(marker: string): Promise<number[]> {
  await delay(20);
  const survivors = processesWithEnvironmentMarker(marker);
  for (const pid of survivors) killProcess(pid);
  return survivors;
}

/** The disk budget as the free space of the file system at `path` going down (the space used is what went). */
export function watchDisk(path: string, budgetBytes: number, onExceeded: () => void): { stop(): void } {
  const used = async (): Promise<number | undefined> => {
    try {
      const stats = await statfs(path);
      return -stats.bavail * stats.bsize;
    } catch {
      return undefined;
    }
  };
  return watchUsage(used, budgetBytes, onExceeded);
}

/** The disk budget on the sandbox's own usage (its writable places), never the host file system's free space. */
export function watchUsage(usage: () => Promise<number | undefined>, budgetBytes: number, onExceeded: () => void): { stop(): void } {
  let baseline: number | undefined;
  let active = true;
  let busy = false;
  void usage().then((bytes) => {
    baseline = bytes;
  });
  const interval = setInterval(() => {
    if (busy) return;
    busy = true;
    void usage()
      .then((bytes) => {
        if (!active || baseline === undefined || bytes === undefined) return;
        if (bytes - baseline > budgetBytes) {
          active = false;
          onExceeded();
        }
      })
      .finally(() => {
        busy = false;
      });
  }, DISK_POLL_MS);
  interval.unref();
  return {
    stop: () => {
      active = false;
      clearInterval(interval);
    },
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
