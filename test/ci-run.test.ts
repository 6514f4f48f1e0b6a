import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/**
 * .ci/run in a copy with stand-ins for dpkg and npm: the stand-in npm writes a
 * vitest JSON report and exits as the tests would, so the closing summary line
 * is seen after a failing run as well as after a passing one.
 */
function ciRun(report: object | undefined, status: number): { out: string; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'ci-run-'));
  mkdirSync(join(dir, 'repo', '.ci'), { recursive: true });
  mkdirSync(join(dir, 'repo', 'scripts'));
  cpSync(join(ROOT, '.ci', 'run'), join(dir, 'repo', '.ci', 'run'));
  cpSync(join(ROOT, 'scripts', 'test-summary.mjs'), join(dir, 'repo', 'scripts', 'test-summary.mjs'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'dpkg'), '#!/bin/sh\nexit 0\n');
  const body = report === undefined ? '' : `printf '%s' '${JSON.stringify(report)}' > "\${out#--outputFile=}"`;
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh\n[ "$1" = ci ] && exit 0\nfor a in "$@"; do case "$a" in --outputFile=*) out="$a";; esac; done\n${body}\nexit ${status}\n`,
  );
  for (const f of ['dpkg', 'npm']) chmodSync(join(bin, f), 0o755);
  const node = execFileSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' }).trim();
  const run = spawnSync('bash', [join(dir, 'repo', '.ci', 'run')], {
    encoding: 'utf8',
    env: { PATH: `${bin}:${join(node, '..')}:/usr/bin:/bin`, HOME: dir },
  });
  return { out: run.stdout, status: run.status };
}

describe('.ci/run', () => {
  it('prints the summary line after failing tests, and keeps their exit status', () => {
    const { out, status } = ciRun({ numPassedTests: 7, numFailedTests: 2, numPendingTests: 1, numTodoTests: 0, testResults: [] }, 1);
    expect(out.trim().split('\n').at(-1)).toBe('7 passed, 2 failed, 1 skipped');
    expect(status).toBe(1);
  });

  it('prints it after passing tests too', () => {
    const { out, status } = ciRun({ numPassedTests: 9, numFailedTests: 0, numPendingTests: 0, numTodoTests: 2, testResults: [] }, 0);
    expect(out.trim().split('\n').at(-1)).toBe('9 passed, 0 failed, 2 skipped');
    expect(status).toBe(0);
  });

  it('says so when the tests never ran (a build failure)', () => {
    const { out, status } = ciRun(undefined, 2);
    expect(out).toMatch(/^0 passed, 0 failed, 0 skipped \(no test report/m);
    expect(status).toBe(2);
  });

  it('installs pre-commit and neovim for the tests that drive them, and a C compiler for the sandbox Redis client', () => {
    const script = execFileSync('cat', [join(ROOT, '.ci', 'run')], { encoding: 'utf8' });
    expect(script).toMatch(/for pkg in [^;]*\bpre-commit\b[^;]*\bneovim\b/);
    expect(script).toMatch(/for pkg in [^;]*\bgcc\b[^;]*\blibc6-dev\b/);
  });
});
