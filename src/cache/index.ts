import { createHash } from 'node:crypto';
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { makeDirectories, notReplaceable, readRegularFile, writeTarget } from '../fs-write.js';
import { dirname, join, resolve, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';

export const DEFAULT_CACHE_LOCATION = '.validate-agent-hooks-cache';
const FORMAT = 1;

/**
 * The cache file `--cache-location` names, as ESLint reads it: a directory
 * (one that exists, or a path ending in a slash) holds a file named
 * DEFAULT_CACHE_LOCATION; anything else is the file itself.
 */
export function cacheFilePath(cwd: string, location: string = DEFAULT_CACHE_LOCATION): string {
  const path = resolve(cwd, location);
  return location.endsWith('/') || location.endsWith(sep) || isDirectory(path) ? join(path, DEFAULT_CACHE_LOCATION) : path;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Missing, or under a file (ENOTDIR): not a directory; writing there fails later, with a warning.
    return false;
  }
}

interface CacheFile {
  format: number;
  entries: Record<string, { key: string; diagnostics: Diagnostic[] }>;
}

/**
 * ESLint-style result cache: a file's findings are reused while its content
 * and everything else that decides them (effective configuration, tool
 * version, ShellCheck version and arguments) are unchanged. The file is
 * replaced atomically (write to a unique temporary name, then rename), so
 * parallel runs never see half a cache; a corrupt or foreign file is ignored.
 */
export class ResultCache {
  private readonly entries: CacheFile['entries'];
  private dirty = false;

  private constructor(
    readonly location: string,
    entries: CacheFile['entries'],
  ) {
    this.entries = entries;
  }

  static open(location: string): ResultCache {
    const path = resolve(location);
    try {
      const data = JSON.parse(readRegularFile(path) ?? '') as Partial<CacheFile>;
      if (data.format === FORMAT && data.entries && typeof data.entries === 'object') return new ResultCache(path, data.entries);
    } catch {
      // Missing or corrupt: start empty.
    }
    return new ResultCache(path, {});
  }

  /** The key of a file's findings: its bytes plus the run's settings. */
  keyFor(content: Uint8Array | string, settings: string): string {
    return createHash('sha256').update(settings).update('\0').update(content).digest('hex');
  }

  get(filePath: string, key: string): Diagnostic[] | undefined {
    const entry = this.entries[filePath];
    return entry?.key === key ? entry.diagnostics : undefined;
  }

  set(filePath: string, key: string, diagnostics: Diagnostic[]): void {
    this.entries[filePath] = { key, diagnostics };
    this.dirty = true;
  }

  /**
   * Writes the cache if anything changed. A cache that cannot be written (a
   * read-only or missing place, a directory in the way) is no reason to fail
   * the run: the error is returned for a warning, and no temporary file is left.
   */
  save(): Error | undefined {
    if (!this.dirty) return undefined;
    // Through a symbolic link to the file it names; never over a device, a directory or a FIFO.
    const target = writeTarget(this.location);
    const refused = notReplaceable(target) ?? foreignLinkTarget(this.location, target);
    if (refused) return new Error(refused);
    const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
    try {
      makeDirectories(dirname(target));
      writeFileSync(temporary, JSON.stringify({ format: FORMAT, entries: this.entries } satisfies CacheFile));
      renameSync(temporary, target);
    } catch (error) {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Not there, or not ours to remove: nothing more to do.
      }
      return error instanceof Error ? error : new Error(String(error));
    }
    this.dirty = false;
    return undefined;
  }
}

/**
 * A cache reached through a symbolic link is written only over a cache of this tool. A repository can
 * ship `.validate-agent-hooks-cache` as a link to `~/.bashrc`: written through, the file would become
 * this JSON, whose strings (hook names, messages) a shell sourcing it would run (`$(…)`).
 */
function foreignLinkTarget(location: string, target: string): string | undefined {
  if (resolve(location) === target) return undefined;
  try {
    const data = JSON.parse(readRegularFile(target) ?? '') as Partial<CacheFile> | null;
    if (data?.format === FORMAT && data.entries && typeof data.entries === 'object') return undefined;
  } catch {
    // Missing, unreadable or not JSON: not a cache of ours.
  }
  return `${location} is a symbolic link to ${target}, which is not a cache of this tool: not written (name the cache file with --cache-location)`;
}

/** Everything besides a file's content that decides its findings, as one string. */
export function cacheSettings(parts: {
  toolVersion: string;
  config: unknown;
  shellcheck?: { version: string; args: readonly string[] } | undefined;
  inlineConfig: boolean;
}): string {
  return JSON.stringify(parts);
}
