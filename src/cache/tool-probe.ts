import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { makeDirectories, notReplaceable, readRegularFile, writeTarget } from '../fs-write.js';

/**
 * Remembers what probing an external tool found, so that a run does not
 * start the tool only to ask it: that bwrap could build a sandbox here (no
 * throw-away sandbox before the real one), ShellCheck's version (no blocking
 * `shellcheck --version` on every lint). The key is the binary (path, inode,
 * size, mtime) plus what else the answer depends on, and the boot: a new
 * binary or a reboot probes again. Only success is remembered; a failed probe
 * is repeated every time, so fixing the machine is noticed at once.
 */
export interface ProbeCacheOptions {
  /** The cache file; default $XDG_CACHE_HOME (or ~/.cache)/validate-agent-hooks/tool-probes.json. */
  file?: string;
}

export function defaultProbeCacheFile(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'validate-agent-hooks', 'tool-probes.json');
}

/** The directory the probe cache may be made under: the home, or XDG_CACHE_HOME's parent. */
function cacheRoot(): string {
  return process.env.XDG_CACHE_HOME ? dirname(resolve(process.env.XDG_CACHE_HOME)) : homedir();
}

/** The key of a binary's probe, or undefined when the binary cannot be found. `extra` is what else the answer depends on. */
export function probeKey(binaryPath: string, ...extra: (string | number | undefined)[]): string | undefined {
  try {
    const stat = statSync(binaryPath);
    let boot = '';
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      // no /proc: the binary's identity alone
    }
    return [binaryPath, stat.ino, stat.size, stat.mtimeMs, ...extra.map((part) => part ?? ''), boot].join('|');
  } catch {
    return undefined;
  }
}

/** The version recorded for this key, or undefined. */
export function recalledProbe(key: string, options: ProbeCacheOptions = {}): string | undefined {
  try {
    const entries = JSON.parse(readRegularFile(options.file ?? defaultProbeCacheFile()) ?? '') as Record<string, unknown>;
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
      entries = JSON.parse(readRegularFile(file) ?? '') as Record<string, unknown>;
    } catch {
      // a missing or damaged cache starts afresh
    }
    entries[key] = version;
    const target = writeTarget(file);
    if (notReplaceable(target)) return;
    // Made under the home (or XDG_CACHE_HOME's parent) only, which must exist.
    makeDirectories(dirname(target), options.file === undefined ? cacheRoot() : undefined);
    const next = `${target}.${process.pid}`;
    writeFileSync(next, JSON.stringify(entries));
    renameSync(next, target);
  } catch {
    // read-only home, full disk: probe next time
  }
}
