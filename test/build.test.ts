import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** `npm run build` ran before the tests (`npm test` does it), so dist/ is current here. */
const ROOT = join(import.meta.dirname, '..');

describe('the build', () => {
  it('npm run demo does not rebuild a current build, and runs the demo', () => {
    const bundle = join(ROOT, 'dist', 'bundle', 'cli.cjs');
    const before = statSync(bundle).mtimeMs;
    const demo = spawnSync('npm', ['run', 'demo'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(demo.stderr).toContain('build: dist/ is current');
    expect(statSync(bundle).mtimeMs).toBe(before);
    // The demo's broken profile is broken on purpose: exit 1 with its findings.
    expect(demo.status).toBe(1);
    expect(demo.stdout).toContain('command-rm-rf');
  });
});
