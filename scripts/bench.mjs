// The benchmark: `npm run bench` (after the README's set-up). Prints a table
// of medians (with min and max) measured on this machine, as ratios where
// machines differ. `--write-readme` puts the table into README.md;
// `--quick` uses fewer runs and sizes (for trying it out, not for the README).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTree } from './generate-profiles.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'validate-agent-hooks');
const corpus = join(root, '..', 'shared', 'corpus', 'claude-flow-novice');
const quick = process.argv.includes('--quick');
const RUNS = quick ? 3 : 7;
const SIZES = quick ? [200, 2000] : [200, 2000, 10000];
const shellcheckVersion = (() => {
  try {
    return /version:\s*(\S+)/.exec(execFileSync('shellcheck', ['--version'], { encoding: 'utf8' }))[1];
  } catch {
    return undefined;
  }
})();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const spread = (s) => `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;

/**
 * Wall time (measured here, to the microsecond: /usr/bin/time only counts
 * hundredths) and peak RSS (KiB, as wait4 reports it for the process tree).
 */
function timed(command, args, options = {}) {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options });
  const ms = performance.now() - started;
  const rss = Number(result.stderr.trim().split('\n').pop());
  return { ms, rssKiB: rss, status: result.status };
}

function repeat(n, fn) {
  const runs = [];
  for (let i = 0; i < n; i++) runs.push(fn());
  return runs;
}

/** As many processes as src/shellcheck runs for the corpus (one per core, at least 8 scripts a process), the scripts dealt round-robin so they finish together. */
async function shellcheckAlone(files) {
  const count = Math.max(1, Math.min(availableParallelism(), Math.ceil(files.length / 8)));
  const groups = Array.from({ length: count }, () => []);
  files.forEach((f, i) => groups[i % count].push(f));
  const started = performance.now();
  await Promise.all(
    groups.map(
      (group) =>
        new Promise((resolve) => {
          const child = spawn('shellcheck', ['-f', 'json1', '--norc', '-s', 'bash', ...group], { stdio: ['ignore', 'ignore', 'ignore'] });
          child.on('close', resolve);
        }),
    ),
  );
  return performance.now() - started;
}

async function extractScripts(dir) {
  const { profileFromBytes } = await import(join(root, 'dist/src/profile/profile.js'));
  const { extractHooks } = await import(join(root, 'dist/src/hooks/extract.js'));
  const out = mkdtempSync(join(tmpdir(), 'vah-bench-sc-'));
  const files = [];
  for (const rel of readdirSync(dir, { recursive: true })) {
    if (!String(rel).endsWith('.md')) continue;
    const loaded = profileFromBytes(rel, readFileSync(join(dir, rel)));
    if (!loaded.ok) continue;
    for (const hook of extractHooks(loaded.profile)) {
      const path = join(out, `${files.length}.sh`);
      writeFileSync(path, hook.text);
      files.push(path);
    }
  }
  return { out, files };
}

const rows = [];
const row = (what, value, note = '') => {
  rows.push({ what, value, note });
  console.error(`  ${what}: ${value} ${note}`);
};

console.error('validate-agent-hooks benchmark');
const node = stats(repeat(RUNS * 2, () => timed(process.execPath, ['-e', '']).ms));
row("`node -e ''` (baseline)", spread(node));

const single = join(root, 'fixtures', 'demo', '.claude', 'agents', 'blocking-coordinator.md');
const coldNoSc = stats(repeat(RUNS * 2, () => timed(process.execPath, [bin, single, '--no-shellcheck']).ms));
row('single-file lint, no ShellCheck', spread(coldNoSc), `**${(coldNoSc.median / node.median).toFixed(2)}×** node (target ≤ 2.5×)`);
if (shellcheckVersion) {
  const coldSc = stats(repeat(RUNS * 2, () => timed(process.execPath, [bin, single]).ms));
  row('single-file lint, with ShellCheck', spread(coldSc), `**${(coldSc.median / node.median).toFixed(2)}×** node`);

  const { out, files } = await extractScripts(corpus);
  const alone = [];
  for (let i = 0; i < RUNS; i++) alone.push(await shellcheckAlone(files));
  rmSync(out, { recursive: true, force: true });
  const full = stats(
    repeat(RUNS, () => timed(process.execPath, [bin, corpus, '--format', 'json'], { stdio: ['ignore', 'ignore', 'pipe'] }).ms),
  );
  const aloneStats = stats(alone);
  row(
    `corpus (139 profiles, ${files.length} scripts), with ShellCheck`,
    spread(full),
    `**${(full.median / aloneStats.median).toFixed(2)}×** ShellCheck alone (${spread(aloneStats)}; target ≤ 1.15×)`,
  );
}

const trees = mkdtempSync(join(tmpdir(), 'vah-bench-'));
const walls = {};
for (const size of SIZES) {
  const dir = join(trees, String(size));
  generateTree(dir, size, 42);
  for (const sc of shellcheckVersion ? [false, true] : [false]) {
    const runs = size >= 10000 ? Math.min(RUNS, 3) : RUNS;
    const results = repeat(runs, () =>
      timed(process.execPath, [bin, '--all', '--root', dir, '--format', 'json', ...(sc ? [] : ['--no-shellcheck'])], {
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    );
    const wall = stats(results.map((r) => r.ms));
    const rss = Math.max(...results.map((r) => r.rssKiB)) / 1024;
    walls[`${size}:${sc}`] = wall.median;
    const previous = SIZES[SIZES.indexOf(size) - 1];
    const growth = previous ? ` growth ×${(wall.median / walls[`${previous}:${sc}`]).toFixed(2)} vs ${previous}` : '';
    row(
      `${size} generated profiles, ${sc ? 'with' : 'no'} ShellCheck`,
      spread(wall),
      `${Math.round(size / (wall.median / 1000))} profiles/s, peak RSS ${rss.toFixed(0)} MB${growth}`,
    );
  }
}

// Cache: a cold run that writes the cache, then re-runs with nothing changed.
{
  const dir = join(trees, String(SIZES[1]));
  const cacheFile = join(trees, 'cache.json');
  const args = [bin, '--all', '--root', dir, '--format', 'json', '--cache', '--cache-location', cacheFile];
  const cold = stats(
    repeat(RUNS, () => {
      rmSync(cacheFile, { force: true });
      return timed(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] }).ms;
    }),
  );
  timed(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const warm = stats(repeat(RUNS, () => timed(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] }).ms));
  row(
    `--cache re-run, nothing changed (${SIZES[1]} profiles)`,
    spread(warm),
    `**${((warm.median / cold.median) * 100).toFixed(0)}%** of the cold run ${fmt(cold.median)} (target ≤ 10%)`,
  );
}
rmSync(trees, { recursive: true, force: true });

for (const extra of ['bench-lsp.mjs', 'bench-executor.mjs', 'bench-simulate.mjs']) {
  try {
    const { measure } = await import(`./${extra}`);
    for (const r of await measure({ root, runs: RUNS })) row(r.what, r.value, r.note ?? '');
  } catch (error) {
    if (error.code !== 'ERR_MODULE_NOT_FOUND') row(extra, 'failed', String(error.message).split('\n')[0]);
  }
}

const machine = `${availableParallelism()} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, ShellCheck ${shellcheckVersion ?? 'not installed'}`;
const table = [
  `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${machine}. Medians of ${RUNS} runs (min–max).`,
  '',
  '| measurement | median (min–max) | ratio / notes |',
  '| --- | --- | --- |',
  ...rows.map((r) => `| ${r.what} | ${r.value} | ${r.note} |`),
].join('\n');
console.log(table);
if (process.argv.includes('--write-readme') && !quick) {
  const path = join(root, 'README.md');
  const readme = readFileSync(path, 'utf8');
  const begin = '<!-- bench:begin -->';
  const end = '<!-- bench:end -->';
  writeFileSync(path, readme.slice(0, readme.indexOf(begin) + begin.length) + `\n${table}\n` + readme.slice(readme.indexOf(end)));
}
