// `run` builds no throw-away sandbox once a bwrap binary is known to work: the probe's answer is
// remembered per binary, host user and boot.
import { copyFileSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findExecutable } from '../../src/executor/host.js';
import { probeKey, recalledProbe, rememberProbe } from '../../src/executor/probe-cache.js';
import { probeBwrap } from '../../src/executor/sandbox.js';
import { tempDir } from './helpers.js';

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
