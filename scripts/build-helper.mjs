// Compiles the executor's C helpers into dist/libexec, static where the C library allows it, so
// the sandbox needs nothing of the host's but the kernel:
// - src/executor/native/vah-redis.c, the sandbox's one-process redis-cli for the common call
//   (src/executor/native-helper.ts); without it the sandbox calls the real redis-cli (slower, same results);
// - src/executor/native/vah-mount.c, the session's size-limited tmpfs held by one process
//   (src/executor/disk.ts); without it the host's mount and umount do the same (slower).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const compiler = process.env.CC || 'cc';
const helpers = {
  'vah-redis': 'the sandbox will call redis-cli itself',
  'vah-mount': 'sessions will mount their tmpfs with mount and umount',
};
mkdirSync(join(root, 'dist', 'libexec'), { recursive: true });
for (const [name, without] of Object.entries(helpers)) {
  const source = join(root, 'src', 'executor', 'native', `${name}.c`);
  const target = join(root, 'dist', 'libexec', name);
  rmSync(target, { force: true });
  if (!build(source, target)) {
    rmSync(target, { force: true });
    console.error(`build: no C compiler (${compiler}) could build src/executor/native/${name}.c; ${without}.`);
  }
}

function build(source, target) {
  for (const extra of [['-static'], []]) {
    const built = spawnSync(compiler, ['-O2', '-s', '-std=c11', '-Wall', '-Wextra', '-Werror', ...extra, '-o', target, source], {
      stdio: ['ignore', 2, 2],
    });
    if (built.status === 0) return true;
    if (built.error) return false;
  }
  return false;
}
