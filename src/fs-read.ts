import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { MAX_FILE_BYTES } from './profile/source.js';

/**
 * A file's bytes; of a larger file, a device or a pipe (`/dev/zero`, `<(…)`),
 * whose size is not known before it is read, no more than one byte past the
 * size limit, with `size` the size on disk of a file over it. A profile over
 * the limit is reported, not held in memory.
 */
export function readBounded(path: string): { bytes: Uint8Array; size?: number } {
  const fd = openSync(path, 'r');
  try {
    const info = fstatSync(fd);
    if (info.isFile() && info.size <= MAX_FILE_BYTES) return { bytes: readFileSync(fd) };
    const limit = MAX_FILE_BYTES + 1;
    const bytes = Buffer.alloc(limit);
    let read = 0;
    while (read < limit) {
      const n = readSync(fd, bytes, read, limit - read, null);
      if (n === 0) break;
      read += n;
    }
    return info.isFile() ? { bytes: bytes.subarray(0, read), size: info.size } : { bytes: bytes.subarray(0, read) };
  } finally {
    closeSync(fd);
  }
}
