import { accessSync, closeSync, constants, openSync, readSync } from 'node:fs';

/**
 * The executor's C helpers (src/executor/native/, built into dist/libexec by
 * scripts/build-helper.mjs), each undefined when the build had no C compiler:
 * - `vah-redis`, the sandbox's one-process redis-cli: a hook's `redis-cli` and
 *   slash command calls start it instead of redis-cli, whose start alone costs
 *   five /bin/true; without it the sandbox calls redis-cli itself;
 * - `vah-mount`, which holds a session's size-limited tmpfs (src/executor/disk.ts);
 *   without it the host's mount and umount do.
 */
export type NativeHelper = 'vah-redis' | 'vah-mount';

const found = new Map<NativeHelper, string | undefined>();

export function findNativeHelper(name: NativeHelper): string | undefined {
  if (!found.has(name)) found.set(name, locate(name));
  return found.get(name);
}

function locate(name: NativeHelper): string | undefined {
  // From dist/src/executor/, dist/bundle/ and src/executor/ (tests run the sources).
  for (const dir of ['../../libexec/', '../libexec/', '../../dist/libexec/']) {
    const path = new URL(`${dir}${name}`, import.meta.url).pathname;
    try {
      accessSync(path, constants.X_OK);
    } catch {
      continue; // try the next location
    }
    // A package built on another machine may carry a helper for another processor: calling it would
    // fail every call, so only one this machine runs is used.
    return runsHere(path) ? path : undefined;
  }
  return undefined;
}

/** ELF `e_machine` of the processors Node runs on that the helper can be built for. */
const ELF_MACHINE: Partial<Record<NodeJS.Architecture, number>> = {
  x64: 0x3e,
  arm64: 0xb7,
  ia32: 0x03,
  arm: 0x28,
  riscv64: 0xf3,
  ppc64: 0x15,
  s390x: 0x16,
  loong64: 0x102,
};

/** Whether the file is a little- or big-endian ELF executable for this process's processor. */
export function runsHere(path: string, arch: NodeJS.Architecture = process.arch): boolean {
  const header = Buffer.alloc(20);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    if (readSync(fd, header, 0, 20, 0) < 20) return false;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return false;
  const machine = header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
  return machine === ELF_MACHINE[arch];
}
