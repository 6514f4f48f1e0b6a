// The build: tsc, then the assets, then the bundles, the executor's C helpers and the bundles' V8 code caches. Everything it prints goes
// to stderr, because `npm pack` (prepack) is read by tools that take its
// standard output as the tarball's name (the pre-commit framework does).
// `--if-stale` skips the build when dist/ was built from the same inputs
// (a hash of their contents, so a checkout that only touches mtimes costs nothing).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const STAMP = join(root, 'dist', '.build-inputs');
const INPUT_DIRS = ['src', 'rules'];
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts/build.mjs',
  'scripts/copy-assets.mjs',
  'scripts/bundle.mjs',
  'scripts/code-cache.mjs',
  'scripts/build-helper.mjs',
];

function inputsHash() {
  const hash = createHash('sha256');
  const files = [...INPUT_FILES];
  for (const dir of INPUT_DIRS)
    for (const rel of readdirSync(join(root, dir), { recursive: true, withFileTypes: true }))
      if (rel.isFile()) files.push(relative(root, join(rel.parentPath ?? rel.path, rel.name)));
  for (const file of files.sort()) {
    const path = join(root, file);
    hash.update(`${file}\0`);
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const hash = inputsHash();
if (process.argv.includes('--if-stale') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) {
  console.error('build: dist/ is current (same sources as its last build); not rebuilding.');
  process.exit(0);
}

const steps = [
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')],
  [join(root, 'scripts', 'copy-assets.mjs')],
  [join(root, 'scripts', 'bundle.mjs')],
  [join(root, 'scripts', 'build-helper.mjs')],
  [join(root, 'scripts', 'code-cache.mjs')],
];
for (const [script, ...args] of steps) {
  // stdout of each step onto our stderr: tsc prints its errors on stdout.
  const run = spawnSync(process.execPath, [script, ...args], { cwd: root, stdio: ['ignore', 2, 2] });
  if (run.status !== 0) {
    console.error(`build: ${relative(root, script)} failed (exit ${run.status ?? run.signal}).`);
    process.exit(run.status || 1);
  }
}
writeFileSync(STAMP, hash);
