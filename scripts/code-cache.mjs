// Writes V8's code cache for the lint bundle (dist/bundle/cli.cjs.cache; see
// src/cli/lint-bundle.ts), after a representative lint so that the cache holds
// the functions a lint compiles, not only the bundle's top level.
//
// V8 rejects a cache made under other V8 flags, and a lint changes flags as it
// goes (WASM on Liftoff, no TurboFan beside ShellCheck): here those changes are
// kept from happening, so the cache is made under the default flags the next
// start has when it loads the bundle. Runs in a process of its own, with
// Node's default flags; prints nothing to stdout.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';

const root = new URL('..', import.meta.url).pathname;

if (process.argv[2] !== '--in-child') {
  const child = spawnSync(process.execPath, [new URL(import.meta.url).pathname, '--in-child'], { stdio: ['ignore', 'ignore', 'inherit'] });
  process.exit(child.status ?? 1);
}

v8.setFlagsFromString = () => undefined;
const { loadLintBundle } = await import(join(root, 'dist/src/cli/lint-bundle.js'));
const bundlePath = join(root, 'dist/bundle/cli.cjs');
const loaded = loadLintBundle(bundlePath);
const sink = {
  cwd: root,
  env: { NO_COLOR: '1' },
  isTTY: false,
  stdout: () => undefined,
  stderr: () => undefined,
  readStdin: async () => '',
};
const demo = join(root, 'fixtures', 'demo', '.claude', 'agents');
for (const args of [[demo, '--no-shellcheck'], [demo, '--format', 'json'], [join(demo, 'blocking-coordinator.md')]]) {
  const code = await loaded.entry.main(args, { ...loaded.entry.processIO(), ...sink });
  if (code !== 0 && code !== 1) throw new Error(`the training lint exited ${code}`);
}
writeFileSync(`${bundlePath}.cache`, loaded.script.createCachedData());
