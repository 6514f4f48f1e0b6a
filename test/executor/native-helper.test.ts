import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findNativeHelper, runsHere } from '../../src/executor/native-helper.js';

/** The first 20 bytes of an ELF file: magic, class, byte order, …, e_type, e_machine. */
function elf(machine: number, bigEndian = false): Buffer {
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 2;
  header[5] = bigEndian ? 2 : 1;
  if (bigEndian) header.writeUInt16BE(machine, 18);
  else header.writeUInt16LE(machine, 18);
  return header;
}

describe("the executor's C helpers", () => {
  const dir = mkdtempSync(join(tmpdir(), 'vah-helper-'));
  const file = (name: string, bytes: Buffer | string): string => {
    const path = join(dir, name);
    writeFileSync(path, bytes, { mode: 0o755 });
    return path;
  };

  it('is used only when it is an executable for this processor (a package built elsewhere may carry another)', () => {
    expect(runsHere(file('x64', elf(0x3e)), 'x64')).toBe(true);
    expect(runsHere(file('x64', elf(0x3e)), 'arm64')).toBe(false);
    expect(runsHere(file('arm64', elf(0xb7)), 'arm64')).toBe(true);
    expect(runsHere(file('s390x', elf(0x16, true)), 's390x')).toBe(true);
    expect(runsHere(file('script', '#!/bin/sh\nexit 0\n'), 'x64')).toBe(false);
    expect(runsHere(file('short', Buffer.from([0x7f, 0x45, 0x4c, 0x46])), 'x64')).toBe(false);
    expect(runsHere(join(dir, 'missing'), 'x64')).toBe(false);
  });

  it.each(['vah-redis', 'vah-mount'] as const)('%s, as the build made it, runs here (when the build had a C compiler)', (name) => {
    const helper = findNativeHelper(name);
    if (helper === undefined) {
      console.warn(`native-helper.test.ts: no ${name} was built (no C compiler); only the header check ran.`);
      return;
    }
    expect(runsHere(helper)).toBe(true);
  });
});
