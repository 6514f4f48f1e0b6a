import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWritableArea, inodesFor, isOurMount } from '../../src/executor/disk.js';
import { OWNER_FILE, sweepStaleSessions } from '../../src/executor/leftovers.js';
import { findNativeHelper } from '../../src/executor/native-helper.js';

// The session's size-limited tmpfs (src/executor/disk.ts), held by src/executor/native/vah-mount.c
// when the build made it, else by util-linux's mount and umount. Mounting needs root.

const helper = findNativeHelper('vah-mount');
const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'vah-disk-probe-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'vah-probe', probe]).status === 0;
  if (mounted) spawnSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return mounted;
})();
const noMount = canMount ? undefined : 'mounting a tmpfs needs root (and a kernel that lets it)';
const noHelper = noMount ?? (helper ? undefined : 'the build made no dist/libexec/vah-mount (no C compiler)');
if (noMount) console.warn(`disk.test.ts: mount tests skipped: ${noMount}.`);
else if (noHelper) console.warn(`disk.test.ts: vah-mount tests skipped: ${noHelper}.`);

const MB = 1024 * 1024;
const sizeOf = (path: string): number => {
  const stats = statfsSync(path);
  return stats.blocks * stats.bsize;
};

const dirs: string[] = [];
function areaPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vah-disk-'));
  dirs.push(dir);
  return join(dir, 'area');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    const area = join(dir, 'area');
    for (const path of [join(area, 'rw'), area]) while (isOurMount(path)) spawnSync('umount', ['-l', path]);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe.each([
  ['vah-mount', helper, noHelper],
  ['mount and umount', null, noMount],
] as const)('the writable area with %s', (_name, using, skip) => {
  it.skipIf(skip !== undefined)('is a tmpfs of the budget that grows on request and is gone after release', async () => {
    const path = areaPath();
    const area = await createWritableArea(path, 2 * MB, { helper: using });
    expect(area.bounded).toBe(true);
    expect(isOurMount(path)).toBe(true);
    expect(sizeOf(path)).toBe(2 * MB);
    await area.grow(3 * MB);
    expect(sizeOf(path)).toBe(5 * MB);
    // Past the budget the file system itself says no.
    expect(() => writeFileSync(join(path, 'big'), Buffer.alloc(6 * MB))).toThrow(/ENOSPC/);
    await area.release();
    expect(isOurMount(path)).toBe(false);
    await area.release();
  });

  it.skipIf(skip !== undefined)(
    'holds an inode for each 4 KiB of its size: empty files past them get ENOSPC, and it is full (empty files took 1 GB of kernel memory in 8 s)',
    async () => {
      const path = areaPath();
      const area = await createWritableArea(path, 8 * MB, { helper: using });
      const fill = (prefix: string): number => {
        for (let made = 0; made < 5000; made++) {
          try {
            writeFileSync(join(path, `${prefix}${made}`), '');
          } catch (error) {
            expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
            return made;
          }
        }
        return 5000;
      };
      // The root directory takes one of the 2048.
      expect(fill('a')).toBe(inodesFor(8 * MB) - 1);
      expect(await area.full()).toBe(true);
      await area.grow(4 * MB);
      expect(fill('b')).toBe(inodesFor(12 * MB) - inodesFor(8 * MB));
      await area.release();
    },
  );

  it.skipIf(skip !== undefined)('releases synchronously, for a process on its way out', async () => {
    const path = areaPath();
    const area = await createWritableArea(path, MB, { helper: using });
    area.releaseSync();
    expect(isOurMount(path)).toBe(false);
  });
});

it.skipIf(noMount !== undefined)('falls back to mount and umount when the helper cannot be started', async () => {
  const path = areaPath();
  const area = await createWritableArea(path, MB, { helper: join(tmpdir(), 'vah-disk-missing', 'vah-mount') });
  expect(area.bounded).toBe(true);
  expect(isOurMount(path)).toBe(true);
  await area.release();
  expect(isOurMount(path)).toBe(false);
});

describe.skipIf(noHelper !== undefined)("the session's holder (vah-mount)", () => {
  function sessionDir(): { dir: string; area: string } {
    const parent = mkdtempSync(join(tmpdir(), 'vah-disk-'));
    dirs.push(parent);
    const dir = join(parent, 'area');
    mkdirSync(dir);
    return { dir, area: join(dir, 'rw') };
  }

  it("holds the session's directory in a tmpfs of its own, the area in it, and unmounts both", async () => {
    const { dir, area: path } = sessionDir();
    writeFileSync(join(dir, 'on-disk'), 'hidden while mounted');
    const area = await createWritableArea(path, 2 * MB, { helper, holder: dir });
    expect({ bounded: area.bounded, holdsSession: area.holdsSession }).toEqual({ bounded: true, holdsSession: true });
    expect([isOurMount(dir), isOurMount(path)]).toEqual([true, true]);
    expect(readdirSync(dir)).toEqual(['rw']);
    expect(statSync(dir).mode & 0o777).toBe(0o711);
    // The budget is the area's alone: the session's own files take none of it, and a full area leaves room for them.
    writeFileSync(join(dir, 'session-file'), Buffer.alloc(MB));
    expect(sizeOf(path)).toBe(2 * MB);
    expect(() => writeFileSync(join(path, 'big'), Buffer.alloc(3 * MB))).toThrow(/ENOSPC/);
    writeFileSync(join(dir, 'next-run-file'), 'still fits');
    await area.release();
    expect([isOurMount(dir), isOurMount(path)]).toEqual([false, false]);
    expect(readdirSync(dir)).toEqual(['on-disk']);
  });

  it('unmounts both synchronously, for a process on its way out', async () => {
    const { dir, area: path } = sessionDir();
    const area = await createWritableArea(path, MB, { helper, holder: dir });
    area.releaseSync();
    expect([isOurMount(dir), isOurMount(path)]).toEqual([false, false]);
  });

  it('is not asked of util-linux: the area alone is mounted, in a directory of its own', async () => {
    const { dir, area: path } = sessionDir();
    const area = await createWritableArea(path, MB, { helper: null, holder: dir });
    expect({ bounded: area.bounded, holdsSession: area.holdsSession }).toEqual({ bounded: true, holdsSession: false });
    expect([isOurMount(dir), isOurMount(path)]).toEqual([false, true]);
    await area.release();
    expect(isOurMount(path)).toBe(false);
  });

  it('refuses a holder without its size, and leaves nothing mounted when the holder cannot be made', () => {
    expect(spawnSync(helper!, ['vah-writable', '/nowhere/rw', '1048576', 'vah-session', '/nowhere']).status).toBe(2);
    expect(spawnSync(helper!, ['vah-writable', '/nowhere/rw', '1048576', 'vah-session', '/nowhere', 'big']).status).toBe(2);
    const { dir } = sessionDir();
    // The area's path outside the holder: the holder is mounted, the area cannot be made in it, and the holder goes again.
    const outside = join(dir, 'missing', 'rw');
    const failed = spawnSync(helper!, ['vah-writable', outside, '1048576', 'vah-session', dir, '1048576'], { encoding: 'utf8' });
    expect({ status: failed.status, stdout: failed.stdout }).toEqual({ status: 1, stdout: 'error: No such file or directory\n' });
    expect(isOurMount(dir)).toBe(false);
  });

  it('a dead session whose helper died with it is swept: both file systems unmounted, the directory gone', async () => {
    const base = mkdtempSync(join(tmpdir(), 'vah-disk-'));
    dirs.push(base);
    const dir = join(base, 'vah-session-ZZZZZZ');
    mkdirSync(dir);
    const mount = spawn(helper!, ['vah-writable', join(dir, 'rw'), String(MB), 'vah-session', dir, String(MB)], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    await new Promise<void>((resolve) => mount.stdout.once('data', () => resolve()));
    // The owner file of a process that is gone, inside the holder (where the session writes it).
    writeFileSync(join(dir, OWNER_FILE), JSON.stringify({ pid: 999_999_999, start: '1' }));
    mount.kill('SIGKILL');
    await new Promise((resolve) => mount.once('close', resolve));
    expect([isOurMount(dir), isOurMount(join(dir, 'rw'))]).toEqual([true, true]);
    expect(await sweepStaleSessions(base, (session) => join(session, 'rw'))).toEqual([dir]);
    expect([isOurMount(dir), isOurMount(join(dir, 'rw'))]).toEqual([false, false]);
    expect(readdirSync(base)).toEqual([]);
  });
});

describe.skipIf(noHelper !== undefined)('vah-mount', () => {
  it('unmounts when the process that asked for the mount dies, however it dies', async () => {
    const path = areaPath();
    // A child Node process creates the area, says so, and is killed outright.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `import(${JSON.stringify(new URL('../../dist/src/executor/disk.js', import.meta.url).pathname)}).then(async (m) => { await m.createWritableArea(${JSON.stringify(path)}, 1048576); process.stdout.write('ready\\n'); setInterval(() => {}, 1000); });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    expect(isOurMount(path)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    for (let i = 0; i < 100 && isOurMount(path); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isOurMount(path)).toBe(false);
  }, 30_000);

  it('keeps the mount through the signals a terminal sends to the whole process group', async () => {
    const path = areaPath();
    mkdirSync(path);
    const mount = spawn(helper!, ['vah-writable', path, String(MB)], { stdio: ['pipe', 'pipe', 'ignore'] });
    await new Promise<void>((resolve) => mount.stdout.once('data', () => resolve()));
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) mount.kill(signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isOurMount(path)).toBe(true);
    let answers = '';
    mount.stdout.on('data', (chunk: Buffer) => (answers += chunk.toString()));
    mount.stdin.write('grow twelve\n');
    mount.stdin.end();
    const status = await new Promise((resolve) => mount.once('close', resolve));
    expect(answers).toBe('error: Invalid argument\nunmounted\n');
    expect(status).toBe(0);
    expect(isOurMount(path)).toBe(false);
  });

  it('refuses arguments it does not understand, and says why a mount failed', () => {
    expect(spawnSync(helper!, ['vah-writable', '/nowhere']).status).toBe(2);
    expect(spawnSync(helper!, ['vah-writable', '/nowhere', '12k']).status).toBe(2);
    const missing = spawnSync(helper!, ['vah-writable', join(tmpdir(), 'vah-disk-missing', 'area'), '1048576'], { encoding: 'utf8' });
    expect({ status: missing.status, stdout: missing.stdout }).toEqual({ status: 1, stdout: 'error: No such file or directory\n' });
  });
});
