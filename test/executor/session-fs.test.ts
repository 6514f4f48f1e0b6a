import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inMemoryFs, threadPoolFs, type SessionFs } from '../../src/executor/session-fs.js';

// The session's file operations, in the thread pool (a disk) or synchronously (its own tmpfs):
// the same results, and a failure is a rejected promise either way, never a throw, so that the
// session's clean-up on a failed step runs the same whichever is used.

const base = mkdtempSync(join(tmpdir(), 'vah-session-fs-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe.each([
  ['thread pool', threadPoolFs],
  ['synchronous', inMemoryFs],
] as [string, SessionFs][])('session files (%s)', (name, fs) => {
  const dir = join(base, name.replace(/\W/g, '-'));

  it('makes, writes, renames, links, copies, lists and removes as fs/promises does', async () => {
    await fs.mkdir(dir, 0o755);
    await fs.mkdir(join(dir, 'a', 'b'), 0o700, { recursive: true });
    expect(statSync(join(dir, 'a', 'b')).mode & 0o777).toBe(0o700);
    await fs.writeFile(join(dir, 'f.next'), 'text', 0o640);
    await fs.rename(join(dir, 'f.next'), join(dir, 'f'));
    expect(statSync(join(dir, 'f')).mode & 0o777).toBe(0o640);
    await fs.chmod(join(dir, 'f'), 0o600);
    expect(statSync(join(dir, 'f')).mode & 0o777).toBe(0o600);
    await fs.link(join(dir, 'f'), join(dir, 'hard'));
    await fs.copyFile(join(dir, 'f'), join(dir, 'copy'));
    expect(readFileSync(join(dir, 'copy'), 'utf8')).toBe('text');
    symlinkSync('f', join(dir, 'link'));
    expect((await fs.lstat(join(dir, 'link'))).isSymbolicLink()).toBe(true);
    const owner = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
    await fs.chown(join(dir, 'f'), owner.uid, owner.gid);
    await fs.lchown(join(dir, 'link'), owner.uid, owner.gid);
    expect((await fs.readdir(dir)).sort()).toEqual(['a', 'copy', 'f', 'hard', 'link']);
    await fs.remove(join(dir, 'a'));
    await fs.remove(join(dir, 'missing'));
    expect(existsSync(join(dir, 'a'))).toBe(false);
  });

  it('fails by rejecting, never by throwing', async () => {
    const missing = join(dir, 'no', 'such');
    const calls: [string, () => Promise<unknown>][] = [
      ['mkdir', () => fs.mkdir(dir, 0o755)],
      ['writeFile', () => fs.writeFile(missing, 'x', 0o644)],
      ['chmod', () => fs.chmod(missing, 0o644)],
      ['rename', () => fs.rename(missing, join(dir, 'x'))],
      ['link', () => fs.link(missing, join(dir, 'x'))],
      ['copyFile', () => fs.copyFile(missing, join(dir, 'x'))],
      ['readdir', () => fs.readdir(missing)],
      ['lstat', () => fs.lstat(missing)],
    ];
    for (const [call, run] of calls) {
      let promise: Promise<unknown> | undefined;
      expect(() => (promise = run()), call).not.toThrow();
      await expect(promise, call).rejects.toMatchObject({ code: call === 'mkdir' ? 'EEXIST' : 'ENOENT' });
    }
  });
});
