import { accessSync, closeSync, constants, openSync, readSync } from 'node:fs';

/**
 * The sandbox's one-process redis-cli (src/executor/native/vah-redis.c, built into
 * dist/libexec by scripts/build-helper.mjs): a hook's `redis-cli` and slash
 * command calls start it instead of redis-cli, whose start alone costs five
 * /bin/true. Undefined when the build had no C compiler; the sandbox then
 * calls redis-cli itself.
 */
let found: string | null | undefined;

export function findRedisHelper(): string | undefined {
  if (found !== undefined) return found ?? undefined;
  // From dist/src/executor/, dist/bundle/ and src/executor/ (tests run the sources).
  for (const candidate of ['../../libexec/vah-redis', '../libexec/vah-redis', '../../dist/libexec/vah-redis']) {
    const path = new URL(candidate, import.meta.url).pathname;
    try {
      accessSync(path, constants.X_OK);
    } catch {
      continue; // try the next location
    }
    // A package built on another machine may carry a helper for another processor: calling it would
    // fail every redis-cli call of every hook, so only one this machine runs is used.
    if (!runsHere(path)) break;
    return (found = path);
  }
  found = null;
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
