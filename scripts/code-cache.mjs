// Writes V8's code cache for the lint bundle (dist/bundle/cli.cjs.cache; see
// src/cli/lint-bundle.ts) and for the executor's (dist/bundle/exec.cjs.cache), each after
// a representative use (a lint; a run), so that the cache holds the functions
// that use compiles, not only the bundle's top level.
//
// V8 rejects a cache made under other V8 flags, and a lint changes flags as it
// goes (WASM on Liftoff, no TurboFan beside ShellCheck): here those changes are
// kept from happening, so the cache is made under the default flags the next
// start has when it loads the bundle. Runs in a process of its own, with
// Node's default flags; prints nothing to stdout.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
// And a Claude Code project whose hooks run a Python and a Node program, so that reading them starts compiled too.
const programs = join(root, 'fixtures', 'claude-code', 'programs');
for (const args of [
  [demo, '--no-shellcheck'],
  [demo, '--format', 'json'],
  [join(demo, 'blocking-coordinator.md')],
  [programs, '--no-shellcheck'],
]) {
  const code = await loaded.entry.main(args, { ...loaded.entry.processIO(), ...sink });
  if (code !== 0 && code !== 1) throw new Error(`the training lint exited ${code}`);
}
writeFileSync(`${bundlePath}.cache`, loaded.script.createCachedData());

// The executor's bundle (run, simulate) gets a cache of its own, after a run of a hook that uses the
// runtime's commands where a sandbox can be made here, else after argument parsing only.
const execPath = join(root, 'dist/bundle/exec.cjs');
const exec = loadLintBundle(execPath);
const scratch = mkdtempSync(join(tmpdir(), 'vah-code-cache-'));
try {
  const profile = join(scratch, 'trainer.md');
  const hook = ['/sqlite-memory store --key k --level agent --data 1', 'redis-cli SET k v >/dev/null', 'echo done'];
  writeFileSync(
    profile,
    `---\nname: trainer\ndescription: trains the code cache\nhooks:\n  pre: |\n${hook.map((l) => `    ${l}`).join('\n')}\n---\n`,
  );
  const io = { ...exec.entry.processIO(), ...sink, cwd: scratch };
  await exec.entry.main(['run', '--help'], io);
  const { probeBwrap } = await import(join(root, 'dist/src/executor/sandbox.js'));
  if (probeBwrap(process.getuid?.() === 0 ? { hostUid: 65534, hostGid: 65534 } : {}).ok)
    await exec.entry.main(['run', profile, '--hook', 'pre', '--format', 'json'], io);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
writeFileSync(`${execPath}.cache`, exec.script.createCachedData());
