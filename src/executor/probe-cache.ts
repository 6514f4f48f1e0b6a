import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Remembers that a bwrap binary could build a sandbox here, so a `run` does
 * not build a throw-away sandbox before the real one. The key is the binary
 * (path, inode, size, mtime), the host user it runs as and the boot: a new
 * bwrap or a reboot (after which user-namespace settings may differ) probes
 * again. Only success is remembered; a failed probe is repeated every time,
 * so fixing the machine is noticed at once.
 */
export interface ProbeCacheOptions {
  /** The cache file; default $XDG_CACHE_HOME (or ~/.cache)/validate-agent-hooks/bwrap-probe.json. */
  file?: string;
}

export function defaultProbeCacheFile(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'validate-agent-hooks', 'bwrap-probe.json');
}

export function probeKey(bwrapPath: string, hostUid: number | undefined, hostGid: number | undefined): string | undefined {
  try {
    const stat = statSync(bwrapPath);
    let boot = '';
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      // no /proc: the binary's identity alone
    }
    return [bwrapPath, stat.ino, stat.size, stat.mtimeMs, hostUid ?? '', hostGid ?? '', boot].join('|');
  } catch {
    return undefined;
  }
}

/** The version recorded for this key, or undefined. */
export function recalledProbe(key: string, options: ProbeCacheOptions = {}): string | undefined {
  try {
    const entries = JSON.parse(readFileSync(options.file ?? defaultProbeCacheFile(), 'utf8')) as Record<string, unknown>;
    const version = entries[key];
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Records a successful probe; a cache that cannot be written only costs the next run a probe. */
export function rememberProbe(key: string, version: string, options: ProbeCacheOptions = {}): void {
  const file = options.file ?? defaultProbeCacheFile();
  try {
    let entries: Record<string, unknown> = {};
    try {
      entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      // a missing or damaged cache starts afresh
    }
    entries[key] = version;
    mkdirSync(dirname(file), { recursive: true });
    const next = `${file}.${process.pid}`;
    writeFileSync(next, JSON.stringify(entries));
    renameSync(next, file);
  } catch {
    // read-only home, full disk: probe next time
  }
}
