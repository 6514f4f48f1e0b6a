import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { findNativeHelper } from '../../src/executor/native-helper.js';
import { createExecutorSession } from '../../src/executor/session.js';
import { hookScript, sandboxMissing } from './helpers.js';

// As root with the build's vah-mount, the session's own files live in a tmpfs of their own, apart
// from the hooks' budget (src/executor/disk.ts).
const unheld =
  sandboxMissing ??
  (process.getuid?.() !== 0 ? 'mounting needs root' : findNativeHelper('vah-mount') ? undefined : 'the build made no vah-mount');
if (unheld) console.warn(`session-files.test.ts: skipped: ${unheld}.`);

it.skipIf(unheld !== undefined)("holds the session's own files in a tmpfs apart from the hooks' budget, gone on close", async () => {
  const held = await createExecutorSession({ timeoutMs: 2000 });
  const mounted = (): string[] =>
    readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .filter((line) => line.split(' ')[1]?.startsWith(held.dir))
      .map((line) => line.split(' ').slice(0, 2).join(' '));
  try {
    expect(mounted()).toEqual([`vah-session ${held.dir}`, `vah-writable ${held.dir}/rw`]);
    const result = await held.runHook(
      hookScript('pre', 'head -c 600000 /dev/zero > /tmp/fill; /sqlite-memory store --key k --level agent --data 1; echo ok'),
    );
    expect(result.stdout).toBe('ok\n');
    expect(existsSync(join(held.dir, 'bin', '.functions.bash'))).toBe(true);
  } finally {
    await held.close();
  }
  expect(mounted()).toEqual([]);
  expect(existsSync(held.dir)).toBe(false);
});

it.skipIf(unheld !== undefined)(
  'a set-up that fails once both are mounted (an unreachable --redis-url) leaves no mount and no directory',
  async () => {
    const ours = (): string[] =>
      readFileSync('/proc/self/mounts', 'utf8')
        .split('\n')
        .filter((line) => /^vah-(?:session|writable) /.test(line));
    const sessions = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('vah-session-'));
    const [mountsBefore, sessionsBefore] = [ours(), sessions()];
    await expect(createExecutorSession({ timeoutMs: 2000, redisUrl: 'redis://127.0.0.1:1/0' })).rejects.toThrow(
      /cannot reach the Redis server/,
    );
    expect(ours()).toEqual(mountsBefore);
    expect(sessions()).toEqual(sessionsBefore);
  },
);
