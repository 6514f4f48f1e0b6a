import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every temporary directory the tests make goes under one per run (TMPDIR is
 * inherited by the test processes and by what they spawn), removed at the end:
 * a run leaves nothing in the machine's /tmp.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'vah-tests-'));
  process.env.TMPDIR = dir;
  // The tool-probe cache (src/cache/tool-probe.ts) goes there too, not into the user's ~/.cache.
  process.env.XDG_CACHE_HOME = join(dir, 'cache');
  return () => rmSync(dir, { recursive: true, force: true });
}
