// Compiles src/executor/native/vah-redis.c, the sandbox's one-process redis-cli for the common call
// (src/executor/redis-helper.ts), into dist/libexec/vah-redis: static where the C library
// allows it, so the sandbox needs nothing of the host's but the kernel. Without a C compiler
// there is no helper and the sandbox calls the real redis-cli, as before (slower, same results).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const source = join(root, 'src', 'executor', 'native', 'vah-redis.c');
const target = join(root, 'dist', 'libexec', 'vah-redis');
rmSync(target, { force: true });
mkdirSync(join(root, 'dist', 'libexec'), { recursive: true });
const compiler = process.env.CC || 'cc';
for (const extra of [['-static'], []]) {
  const built = spawnSync(compiler, ['-O2', '-s', '-std=c11', '-Wall', '-Wextra', '-Werror', ...extra, '-o', target, source], {
    stdio: ['ignore', 2, 2],
  });
  if (built.status === 0) process.exit(0);
  if (built.error) break;
}
rmSync(target, { force: true });
console.error(`build: no C compiler (${compiler}) could build src/executor/native/vah-redis.c; the sandbox will call redis-cli itself.`);
