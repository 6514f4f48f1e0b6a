import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ETC_PIECES, sandboxEtcFiles, writeSandboxEtc } from '../../src/executor/sandbox-etc.js';
import { createExecutorSession } from '../../src/executor/session.js';
import { inMemoryFs, threadPoolFs } from '../../src/executor/session-fs.js';
import { hookScript, needsSandbox, sandboxMissing, tempDir } from './helpers.js';

// The sandbox's /etc is one directory of the session's, bound read-only: the generated files, copies
// of the host's small ones, symlinks that resolve under /usr kept as symlinks, and mount points for
// what is bound on top (directories, a file too large to copy).

/** A stand-in for the host's /etc with one piece of each kind. */
function hostEtc(dir: string): string {
  const etc = join(dir, 'host-etc');
  mkdirSync(etc);
  writeFileSync(join(etc, 'ld.so.cache'), 'loader cache');
  symlinkSync('/usr/bin', join(etc, 'localtime'));
  writeFileSync(join(dir, 'os-release.real'), 'ID=test\n');
  symlinkSync(join(dir, 'os-release.real'), join(etc, 'os-release'));
  mkdirSync(join(etc, 'ssl'));
  writeFileSync(join(etc, 'ssl', 'cert.pem'), 'not copied');
  writeFileSync(join(etc, 'nsswitch.conf'), Buffer.alloc(2 * 1024 * 1024, 0x20));
  symlinkSync(join(dir, 'nowhere'), join(etc, 'timezone'));
  return etc;
}

describe("the sandbox's /etc", () => {
  for (const [name, fs] of [
    ['synchronously (a tmpfs)', inMemoryFs],
    ['in the thread pool', threadPoolFs],
  ] as const)
    it(`copies small files, keeps links into /usr, and leaves directories and large files to binds (${name})`, async () => {
      const scratch = tempDir();
      try {
        const host = hostEtc(scratch.dir);
        const etc = join(scratch.dir, 'sandbox-etc');
        mkdirSync(etc);
        const binds = await writeSandboxEtc(etc, fs, host);
        expect(binds).toEqual(['nsswitch.conf', 'ssl']);
        for (const [file, text] of Object.entries(sandboxEtcFiles())) expect(readFileSync(join(etc, file), 'utf8')).toBe(text);
        expect(readFileSync(join(etc, 'ld.so.cache'), 'utf8')).toBe('loader cache');
        expect(readlinkSync(join(etc, 'localtime'))).toBe('/usr/bin');
        // A link out of /usr would dangle in the sandbox: its file is copied.
        expect(lstatSync(join(etc, 'os-release')).isFile()).toBe(true);
        expect(readFileSync(join(etc, 'os-release'), 'utf8')).toBe('ID=test\n');
        // Mount points only: the binds bring the host's own.
        expect(readdirSync(join(etc, 'ssl'))).toEqual([]);
        expect(lstatSync(join(etc, 'nsswitch.conf')).size).toBe(0);
        // A dangling link and the pieces the host lacks are left out.
        for (const absent of ['timezone', 'ld.so.conf', 'ld.so.conf.d', 'alternatives', 'ca-certificates'])
          expect(existsSync(join(etc, absent))).toBe(false);
        expect(ETC_PIECES).toContain('ca-certificates');
      } finally {
        scratch.remove();
      }
    });

  it('binds a file it cannot copy (unreadable to the executor, or gone meanwhile), as before', async () => {
    const scratch = tempDir();
    try {
      const host = hostEtc(scratch.dir);
      const etc = join(scratch.dir, 'sandbox-etc');
      mkdirSync(etc);
      const refusing = { ...inMemoryFs, copyFile: () => Promise.reject(new Error('EACCES: permission denied')) };
      expect(await writeSandboxEtc(etc, refusing, host)).toEqual(['ld.so.cache', 'nsswitch.conf', 'os-release', 'ssl']);
      expect(lstatSync(join(etc, 'ld.so.cache')).size).toBe(0);
      expect(lstatSync(join(etc, 'os-release')).size).toBe(0);
    } finally {
      scratch.remove();
    }
  });

  it.skipIf(sandboxMissing !== undefined)(
    needsSandbox("gives the hook the host's pieces under a read-only /etc, with the bound directories' contents"),
    async () => {
      const expected = ETC_PIECES.filter((piece) => existsSync(join('/etc', piece))).sort();
      const session = await createExecutorSession({ timeoutMs: 5000 });
      try {
        const result = await session.runHook(
          hookScript('pre', 'ls -A /etc | sort; echo ---; ls /etc/ssl 2>/dev/null | head -1; touch /etc/x 2>/dev/null; echo "touch=$?"'),
        );
        const [listing, rest] = result.stdout.split('---\n');
        expect(listing?.trim().split('\n')).toEqual([...expected, ...Object.keys(sandboxEtcFiles())].sort());
        if (existsSync('/etc/ssl')) expect(rest?.split('\n')[0]).toBe(readdirSync('/etc/ssl').sort()[0]);
        expect(rest).toContain('touch=1');
      } finally {
        await session.close();
      }
    },
  );
});
