import {
  chmodSync,
  chownSync,
  copyFileSync,
  lchownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  type Stats,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { chmod, chown, copyFile, lchown, link, lstat, mkdir, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';

/**
 * The file operations an executor session does on its own files and
 * directories (its scripts, each run's directory and environment, the
 * agents' directories). Where they live in a tmpfs (src/executor/disk.ts),
 * each is a few microseconds of the kernel's, less than the thread pool's
 * round trip and the event loop's turn that follows it, which a chain of
 * them paid every time: there they are made synchronously. On a disk (no
 * root, so no tmpfs) a file's creation took ~0.5 ms here, and the thread
 * pool overlaps them. v1's control groups are made the same way (cgroup.ts).
 */
export interface SessionFs {
  mkdir(path: string, mode: number, options?: { recursive: boolean }): Promise<void>;
  writeFile(path: string, data: string | Uint8Array, mode: number): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  chown(path: string, uid: number, gid: number): Promise<void>;
  lchown(path: string, uid: number, gid: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  link(existing: string, path: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  lstat(path: string): Promise<Stats>;
  /** Removes a tree, as `rm -rf`. */
  remove(path: string): Promise<void>;
}

export const threadPoolFs: SessionFs = {
  mkdir: async (path, mode, options) => {
    await mkdir(path, { mode, ...options });
  },
  writeFile: (path, data, mode) => writeFile(path, data, { mode }),
  chmod: (path, mode) => chmod(path, mode),
  chown: (path, uid, gid) => chown(path, uid, gid),
  lchown: (path, uid, gid) => lchown(path, uid, gid),
  rename: (from, to) => rename(from, to),
  link: (existing, path) => link(existing, path),
  copyFile: (from, to) => copyFile(from, to),
  symlink: (target, path) => symlink(target, path),
  readdir: (path) => readdir(path),
  lstat: (path) => lstat(path),
  remove: (path) => rm(path, { recursive: true, force: true }),
};

/** Settles as the synchronous call did (the executor's throw is the promise's rejection). */
function settled<T>(call: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(call()));
}

export const inMemoryFs: SessionFs = {
  mkdir: (path, mode, options) => settled(() => void mkdirSync(path, { mode, ...options })),
  writeFile: (path, data, mode) => settled(() => writeFileSync(path, data, { mode })),
  chmod: (path, mode) => settled(() => chmodSync(path, mode)),
  chown: (path, uid, gid) => settled(() => chownSync(path, uid, gid)),
  lchown: (path, uid, gid) => settled(() => lchownSync(path, uid, gid)),
  rename: (from, to) => settled(() => renameSync(from, to)),
  link: (existing, path) => settled(() => linkSync(existing, path)),
  copyFile: (from, to) => settled(() => copyFileSync(from, to)),
  symlink: (target, path) => settled(() => symlinkSync(target, path)),
  readdir: (path) => settled(() => readdirSync(path)),
  lstat: (path) => settled(() => lstatSync(path)),
  remove: (path) => settled(() => rmSync(path, { recursive: true, force: true })),
};
