// Files the tool writes by a rename (the --cache file, the tool-probe cache, --fix) must land where a
// plain write would: through symbolic links, never over a device or a FIFO, and a missing directory
// must not hang the run (Node 20's recursive mkdir loops forever under /proc).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ResultCache } from '../src/cache/index.js';
import { rememberProbe } from '../src/cache/tool-probe.js';
import { main } from '../src/cli/main.js';
import { makeDirectories } from '../src/fs-write.js';
import { memoryIO } from '../src/io.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'validate-agent-hooks');
const root = mkdtempSync(join(tmpdir(), 'vah-fs-write-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A Claude Code agent whose hook has a safe fix (cc-stdout-before-json: the progress line goes to stderr).
const FIXABLE = [
  '---',
  'name: shared',
  'description: d',
  'hooks:',
  '  PreToolUse:',
  '    - hooks:',
  '        - type: command',
  '          command: |',
  '            echo "checking"',
  `            echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'`,
  '---',
  '',
].join('\n');

describe('writing by rename', () => {
  it('the --cache file: written through a symbolic link to a cache, never to another file nor over a FIFO (a one-line warning instead)', async () => {
    const dir = join(root, 'cache');
    mkdirSync(join(dir, 'agents'), { recursive: true });
    writeFileSync(join(dir, 'agents', 'a.md'), FIXABLE);
    writeFileSync(join(dir, 'real-cache.json'), '{"format": 1, "entries": {}}');
    symlinkSync(join(dir, 'real-cache.json'), join(dir, 'link'));
    // What an untrusted repository can ship: its cache file as a link to a file a shell runs, or to none yet.
    writeFileSync(join(dir, 'bashrc'), 'echo original\n');
    symlinkSync(join(dir, 'bashrc'), join(dir, 'planted'));
    symlinkSync(join(dir, 'profile-not-there'), join(dir, 'dangling'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const lint = async (location: string) => {
      const io = memoryIO({ cwd: dir });
      const code = await main(['agents', '--no-shellcheck', '--cache', '--cache-location', location], io);
      return { code, err: io.err() };
    };
    expect((await lint('link')).code).toBe(0);
    expect(lstatSync(join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'real-cache.json'), 'utf8'))).toMatchObject({ entries: expect.any(Object) });
    const planted = await lint('planted');
    expect(planted.code).toBe(0);
    expect(planted.err).toMatch(/planted is a symbolic link to .*bashrc, which is not a cache of this tool: not written/);
    const dangling = await lint('dangling');
    expect(dangling.code).toBe(0);
    expect(dangling.err).toMatch(/dangling is not a regular file; findings were not cached/);
    expect(readFileSync(join(dir, 'bashrc'), 'utf8')).toBe('echo original\n');
    expect(existsSync(join(dir, 'profile-not-there'))).toBe(false);
    // In a process of its own with a deadline: reading a FIFO waits for a writer, and would hang this test.
    const fifo = spawnSync(process.execPath, [BIN, 'agents', '--no-shellcheck', '--cache', '--cache-location', 'fifo'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(fifo.status).toBe(0);
    expect(fifo.stderr).toMatch(/fifo is not a regular file/);
    expect(lstatSync(join(dir, 'fifo')).isFIFO()).toBe(true);
  });

  it('--fix: a profile shared through a symbolic link is fixed where it lives, and the link stays', async () => {
    const dir = join(root, 'fix');
    mkdirSync(join(dir, 'shared'), { recursive: true });
    mkdirSync(join(dir, 'agents'), { recursive: true });
    writeFileSync(join(dir, 'shared', 's.md'), FIXABLE);
    symlinkSync('../shared/s.md', join(dir, 'agents', 's.md'));
    const io = memoryIO({ cwd: dir });
    await main(['agents/s.md', '--no-shellcheck', '--fix'], io);
    expect(lstatSync(join(dir, 'agents', 's.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'shared', 's.md'), 'utf8')).toContain('echo "checking" >&2');
  });

  it('makes missing directories one level at a time, fails at once under /proc, and stays below `within`', () => {
    makeDirectories(join(root, 'a', 'b', 'c'));
    expect(lstatSync(join(root, 'a', 'b', 'c')).isDirectory()).toBe(true);
    expect(() => makeDirectories('/proc/vah-no-such/x')).toThrow(/ENOENT/);
    expect(() => makeDirectories(join(root, 'no-home', '.cache', 'x'), join(root, 'no-home'))).toThrow(/ENOENT/);
    expect(existsSync(join(root, 'no-home'))).toBe(false);
    writeFileSync(join(root, 'file'), '');
    expect(() => makeDirectories(join(root, 'file', 'x'))).toThrow(/ENOTDIR/);
  });

  it('the tool-probe cache is not made under a home (or XDG_CACHE_HOME parent) that does not exist', () => {
    const saved = process.env.XDG_CACHE_HOME;
    try {
      process.env.XDG_CACHE_HOME = join(root, 'missing-home', '.cache');
      rememberProbe('key', '1.0');
      expect(existsSync(join(root, 'missing-home'))).toBe(false);
      mkdirSync(join(root, 'missing-home'));
      rememberProbe('key', '1.0');
      expect(JSON.parse(readFileSync(join(root, 'missing-home', '.cache', 'validate-agent-hooks', 'tool-probes.json'), 'utf8'))).toEqual({
        key: '1.0',
      });
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });

  it('a ResultCache refuses a location that is not a regular file', () => {
    const dir = join(root, 'direct');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const cache = ResultCache.open(join(dir, 'sub'));
    cache.set('/f', 'k', []);
    expect(cache.save()?.message).toMatch(/sub is not a regular file/);
  });
});
