/**
 * Trees a hook leaves that the executor could not remove. Without root the
 * writable area is a plain directory of the executor's user: a directory the
 * hook made mode 000, or nested 3,000 deep, crashed the executor with an
 * internal error in place of its report, and left the session behind for
 * every later sweep to fail on. Replayed as a user other than root (the
 * sandbox's host user, 65534, when the tests run as root).
 */
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTreeSync } from '../../src/executor/leftovers.js';
import { needsSandbox, sandboxMissing } from './helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'validate-agent-hooks');
const built = existsSync(join(ROOT, 'dist', 'src', 'cli', 'entry.js'));
const perl = existsSync('/usr/bin/perl');
const missing = sandboxMissing ?? (!built ? 'the CLI is not built (npm run build)' : !perl ? 'perl is not installed' : undefined);
if (missing) console.warn(`[attacks-cleanup] skipped: ${missing}`);

const HOOK = [
  'mkdir -p /workspace/locked/inner && touch /workspace/locked/inner/f && chmod 000 /workspace/locked',
  'mkdir -p /tmp/shut && chmod 000 /tmp/shut && chmod 500 "$HOME"',
  `cd /tmp && perl -e 'for (1..3000) { mkdir "d" or die "$_: $!"; chdir "d" or die "$_: $!" } print "deep\\n"'`,
].join('\n');

describe.skipIf(missing !== undefined)(needsSandbox('a hook that leaves an unremovable tree, the executor not being root'), () => {
  const asRoot = process.getuid?.() === 0;
  // The other user must be able to reach its TMPDIR (the tests' own TMPDIR is private).
  if (asRoot) chmodSync(tmpdir(), 0o711);
  const dir = mkdtempSync(join(tmpdir(), 'vah-cleanup-'));
  if (asRoot) chownSync(dir, 65534, 65534);
  // rmSync's recursion cannot remove what a failing run would leave.
  afterAll(() => removeTreeSync(dir));

  it('chmod 000 directories and 3,000 levels of nesting: the report is printed and the session is removed', () => {
    const file = join(dir, 'locker.md');
    const body = HOOK.split('\n')
      .map((line) => `    ${line}`)
      .join('\n');
    writeFileSync(file, `---\nname: locker\ndescription: Leaves trees rm cannot remove.\nhooks:\n  pre: |\n${body}\n---\nBody.\n`, {
      mode: 0o644,
    });
    const result = spawnSync(process.execPath, [CLI, 'run', file, '--hook', 'pre', '--format', 'json', '--timeout-ms', '20000'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, TMPDIR: dir, HOME: dir },
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(result.stderr).not.toMatch(/internal error/);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { exitCode: number; stdout: string };
    expect(report).toMatchObject({ exitCode: 0, stdout: 'deep\n' });
    expect(readdirSync(dir).filter((name) => name.startsWith('vah-session-'))).toEqual([]);
  }, 60_000);
});
