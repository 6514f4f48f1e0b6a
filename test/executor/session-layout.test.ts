import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureHomeFile } from '../../src/executor/session-layout.js';

/**
 * The transcript file the host makes in an agent's home before a Claude Code
 * event: the home lasts the session, so an earlier hook may have planted links
 * in it, and the host (root, handing files to the sandbox user) must follow none.
 */
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function layout(): { home: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'vah-layout-'));
  roots.push(root);
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(outside);
  return { home, outside };
}

const asRoot = process.getuid?.() === 0;
const OWNER = { uid: 65534, gid: 65534 };
const TRANSCRIPT = '.claude/projects/-workspace/session.jsonl';

describe('ensureHomeFile', () => {
  it('makes the file and the directories on its way, owned as the home is', async () => {
    const { home } = layout();
    await ensureHomeFile(home, TRANSCRIPT, asRoot ? OWNER : undefined);
    expect(statSync(join(home, TRANSCRIPT)).size).toBe(0);
    if (asRoot)
      for (const path of ['.claude/projects', '.claude/projects/-workspace', TRANSCRIPT])
        expect(lstatSync(join(home, path)).uid, path).toBe(OWNER.uid);
  });

  it.each([
    ['a directory on the way', '.claude/projects'],
    ['the last directory', '.claude/projects/-workspace'],
    ['the file itself', TRANSCRIPT],
    ['~/.claude', '.claude'],
  ])('follows no link planted at %s, and writes nothing outside the home', async (_what, linked) => {
    const { home, outside } = layout();
    const link = join(home, linked);
    // The parents of the link exist, as a hook would have made them.
    mkdirSync(join(link, '..'), { recursive: true });
    rmSync(link, { recursive: true, force: true });
    symlinkSync(outside, link);
    await ensureHomeFile(home, TRANSCRIPT, asRoot ? OWNER : undefined);
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(outside).uid).toBe(process.getuid?.());
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('leaves a file standing where a directory should be, and an existing transcript, as they are', async () => {
    const { home } = layout();
    writeFileSync(join(home, '.claude/projects'), 'not a directory');
    await ensureHomeFile(home, TRANSCRIPT, undefined);
    expect(statSync(join(home, '.claude/projects')).isFile()).toBe(true);
    const other = layout();
    mkdirSync(join(other.home, '.claude/projects/-workspace'), { recursive: true });
    writeFileSync(join(other.home, TRANSCRIPT), 'kept');
    await ensureHomeFile(other.home, TRANSCRIPT, asRoot ? OWNER : undefined);
    expect(statSync(join(other.home, TRANSCRIPT))).toMatchObject({ size: 4, uid: process.getuid?.() });
  });

  it('makes nothing for a path that leaves the home', async () => {
    const { home, outside } = layout();
    await ensureHomeFile(home, '../outside/x.jsonl', undefined);
    expect(readdirSync(outside)).toEqual([]);
  });
});
