/**
 * A `--workspace` seed is copied once per agent into the session's
 * size-limited file system. A sparse file used to be written out in full
 * (`truncate -s 3G` took 3.6 GB of RAM and 15 s): a seed over the disk budget
 * is refused before anything is made or copied, and holes stay holes.
 */
import { existsSync, mkdirSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/io.js';
import { runCommand } from '../../src/cli/run.js';
import { createExecutorSession } from '../../src/executor/session.js';
import { hookScript, needsSandbox, sandboxMissing, tempDir } from './helpers.js';

const { dir, remove } = tempDir('vah-seed-');
afterAll(remove);

/** A seed directory holding `sparse`, a file of `bytes` that is all hole. */
function sparseSeed(name: string, bytes: number): string {
  const seed = join(dir, name);
  mkdirSync(seed);
  writeFileSync(join(seed, 'sparse'), '');
  truncateSync(join(seed, 'sparse'), bytes);
  return seed;
}

describe('workspace seeds and the disk budget', () => {
  it('refuses a seed whose sparse file is larger than the disk budget, at once, leaving no session behind', async () => {
    const seed = sparseSeed('huge', 3 * 1024 ** 3);
    writeFileSync(join(seed, 'small.txt'), 'x');
    const base = join(dir, 'base-huge');
    mkdirSync(base);
    const started = Date.now();
    await expect(createExecutorSession({ workspaceSeed: seed, baseDir: base })).rejects.toThrow(
      /cannot copy .*huge into the sandbox: it holds more than the disk budget of 512 MiB .*sparse files included.*--limit-disk/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(readdirSync(base)).toEqual([]);
  });

  it('run --workspace with such a seed is a usage error (exit 2) with the reason', async () => {
    sparseSeed('huge-cli', 600 * 1024 ** 2);
    writeFileSync(join(dir, 'p.md'), '---\nname: p\nhooks:\n  pre: du -sh /workspace/sparse\n---\nx\n');
    const io = memoryIO({ cwd: dir });
    const code = await runCommand(['p.md', '--hook', 'pre', '--workspace', 'huge-cli'], io);
    expect(code).toBe(2);
    expect(io.err()).toMatch(/holds more than the disk budget of 512 MiB/);
    expect(io.out()).toBe('');
  });
});

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('sparse files in a workspace seed'), () => {
  it('copies a small sparse file with its holes: the hook sees its size, and it takes no space', async () => {
    const seed = sparseSeed('small', 64 * 1024 ** 2);
    writeFileSync(join(seed, 'note.txt'), 'hello\n');
    const session = await createExecutorSession({ workspaceSeed: seed, timeoutMs: 5000 });
    try {
      const result = await session.runHook(hookScript('pre', 'stat -c %s sparse; du -k sparse | cut -f1; cat note.txt'));
      expect(result.exitCode).toBe(0);
      const [size, kib, note] = result.stdout.trim().split('\n');
      expect(Number(size)).toBe(64 * 1024 ** 2);
      expect(Number(kib)).toBeLessThan(1024);
      expect(note).toBe('hello');
    } finally {
      await session.close();
    }
    expect(existsSync(seed)).toBe(true);
  });
});
