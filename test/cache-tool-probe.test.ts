// Probing external tools once per binary: bwrap (`run` builds no throw-away sandbox once a bwrap binary
// is known to work) and ShellCheck (no blocking `shellcheck --version` on every lint).
import { copyFileSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findExecutable } from '../src/executor/host.js';
import { probeKey, recalledProbe, rememberProbe } from '../src/cache/tool-probe.js';
import { probeBwrap } from '../src/executor/sandbox.js';
import { tempDir } from './executor/helpers.js';

const bwrapPath = findExecutable('bwrap');

describe.skipIf(!bwrapPath)('bwrap probe cache', () => {
  it('answers from the cache for the same binary, and probes again when the binary changes', () => {
    const { dir, remove } = tempDir('vah-probe-');
    try {
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      copyFileSync(bwrapPath!, join(bin, 'bwrap'));
      const file = join(dir, 'cache.json');
      const key = probeKey(join(bin, 'bwrap'), 65534, 65534)!;
      // A remembered answer is used as is: no probe runs (it would report the real version).
      rememberProbe(key, 'remembered-9.9', { file });
      expect(probeBwrap({ hostUid: 65534, hostGid: 65534, searchPath: bin, probeCacheFile: file })).toEqual({
        ok: true,
        path: join(bin, 'bwrap'),
        version: 'remembered-9.9',
      });
      // Another host user, another binary (new mtime): another key, so no answer until probed.
      expect(probeKey(join(bin, 'bwrap'), 1000, 1000)).not.toBe(key);
      utimesSync(join(bin, 'bwrap'), new Date(), new Date(Date.now() - 86_400_000));
      const changed = probeKey(join(bin, 'bwrap'), 65534, 65534)!;
      expect(changed).not.toBe(key);
      expect(recalledProbe(changed, { file })).toBeUndefined();
    } finally {
      remove();
    }
  });

  it('remembers a successful probe, and never a failed one', () => {
    const { dir, remove } = tempDir('vah-probe-');
    try {
      const file = join(dir, 'cache.json');
      const isRoot = process.getuid?.() === 0;
      const ids = isRoot ? { hostUid: 65534, hostGid: 65534 } : {};
      const result = probeBwrap({ ...ids, probeCacheFile: file });
      const key = probeKey(result.path!, ids.hostUid, ids.hostGid)!;
      if (result.ok) expect(recalledProbe(key, { file })).toBe(result.version);
      else expect(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}).toEqual({});
    } finally {
      remove();
    }
  });

  it('treats a damaged cache file as empty', () => {
    const { dir, remove } = tempDir('vah-probe-');
    try {
      const file = join(dir, 'cache.json');
      writeFileSync(file, '{not json');
      expect(recalledProbe('k', { file })).toBeUndefined();
      rememberProbe('k', '1.0', { file });
      expect(recalledProbe('k', { file })).toBe('1.0');
    } finally {
      remove();
    }
  });
});

describe('ShellCheck version probe', () => {
  it('asks a binary for its version once, then answers from the cache until the binary changes', async () => {
    const { findShellCheckLazily } = await import('../src/shellcheck/index.js');
    const { dir, remove } = tempDir('vah-scprobe-');
    try {
      const fake = join(dir, 'shellcheck');
      const calls = join(dir, 'calls');
      const write = (version: string) =>
        writeFileSync(
          fake,
          `#!/bin/sh\necho x >> '${calls}'\necho 'ShellCheck - shell script analysis tool'\necho 'version: ${version}'\n`,
          { mode: 0o755 },
        );
      const count = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0);
      const file = join(dir, 'probes.json');
      write('1.2.3');
      expect((await findShellCheckLazily(fake, { file }))?.version).toBe('1.2.3');
      expect((await findShellCheckLazily(fake, { file }))?.version).toBe('1.2.3');
      expect(count()).toBe(1);
      write('1.2.4');
      utimesSync(fake, new Date(), new Date(Date.now() + 5_000));
      expect((await findShellCheckLazily(fake, { file }))?.version).toBe('1.2.4');
      expect(count()).toBe(2);
      // A binary that cannot be run is not remembered: asked again each time.
      writeFileSync(fake, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
      utimesSync(fake, new Date(), new Date(Date.now() + 10_000));
      expect(await findShellCheckLazily(fake, { file })).toBeUndefined();
      expect(await findShellCheckLazily(join(dir, 'missing'), { file })).toBeUndefined();
    } finally {
      remove();
    }
  });
});
