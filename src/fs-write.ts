import { lstatSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Where a write to `path` lands: the file a symbolic link names, as
 * `writeFile` would write through it. A write made by a rename (temporary
 * file, then `rename`) must go there too: renaming onto the link would
 * replace the link with a copy and leave the file it names unchanged.
 */
export function writeTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Missing (or a dangling link): written where named.
    return path;
  }
}

/**
 * Why a rename onto `path` must not happen, or undefined when it may: only a
 * missing path or a regular file may be replaced. A device (`/dev/null`), a
 * directory, a FIFO or a socket named as a cache file is left alone
 * (renaming onto `/dev/null` made it a regular file for the whole machine).
 */
export function notReplaceable(path: string): string | undefined {
  let info;
  try {
    info = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    // A file in the way of the path (ENOTDIR) or no access: the write itself fails, and says why.
    return undefined;
  }
  return !info || info.isFile() ? undefined : `${path} is not a regular file`;
}

/**
 * `mkdir -p`, one level at a time. Node 20's `mkdirSync(…, { recursive: true })`
 * never returns for a path under /proc (it retries the ENOENT it gets there
 * forever); here the first level that cannot be made ends it with an error.
 * With `within`, only directories below it are made (a cache under a home
 * directory that does not exist is not worth creating that home).
 */
export function makeDirectories(dir: string, within?: string): void {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    const info = statSync(at, { throwIfNoEntry: false });
    if (info) {
      if (!info.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR' });
      break;
    }
    if (within !== undefined && (at === within || !at.startsWith(`${within}/`)))
      throw Object.assign(new Error(`ENOENT: no such directory, mkdir '${within}'`), { code: 'ENOENT' });
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing.reverse()) mkdirSync(level);
}

/**
 * A file's text when it is a regular file (through links), else undefined:
 * reading a FIFO named as a cache would wait for a writer forever, and a
 * device could be read without end.
 */
export function readRegularFile(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
