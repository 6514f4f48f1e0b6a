import { accessSync, constants } from 'node:fs';

/**
 * The sandbox's one-process redis-cli (native/vah-redis.c, built into
 * dist/libexec by scripts/build-helper.mjs): a hook's `redis-cli` and slash
 * command calls start it instead of redis-cli, whose start alone costs five
 * /bin/true. Undefined when the build had no C compiler; the sandbox then
 * calls redis-cli itself.
 */
let found: string | null | undefined;

export function findRedisHelper(): string | undefined {
  if (found !== undefined) return found ?? undefined;
  // From dist/src/executor/, dist/bundle/ and src/executor/ (tests run the sources).
  for (const candidate of ['../../libexec/vah-redis', '../libexec/vah-redis', '../../dist/libexec/vah-redis']) {
    const path = new URL(candidate, import.meta.url).pathname;
    try {
      accessSync(path, constants.X_OK);
      return (found = path);
    } catch {
      // try the next location
    }
  }
  found = null;
  return undefined;
}
