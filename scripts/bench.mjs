// The benchmark: `npm run bench` (after the README's set-up). Every figure is
// a paired ratio (scripts/bench-pair.mjs): the tool and a baseline measured
// side by side, alternating, the median of the per-pair ratios, compared with
// its target. `--write-readme` puts the table into README.md; `--quick` uses
// fewer runs and smaller trees (for trying it out, not for the README).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { command, paired, spread } from './bench-pair.mjs';
import { generateTree } from './generate-profiles.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'validate-agent-hooks');
const corpus = join(root, '..', 'shared', 'corpus', 'claude-flow-novice');
const quick = process.argv.includes('--quick');
const PAIRS = quick ? 5 : 21;
const [SMALL, LARGE] = quick ? [200, 1000] : [2000, 10000];
const node = process.execPath;
/** The tool as a user runs it: the bin as a program (its launcher, then Node). */
const tool = (args, options) => command(bin, args, options);
/** Node parses this variable's certificates before any script runs; the bin's launcher drops it (bin/validate-agent-hooks). */
const extraCerts = process.env.NODE_EXTRA_CA_CERTS;
const withoutCerts = extraCerts
  ? { env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS')) }
  : undefined;
const shellcheckVersion = (() => {
  try {
    return /version:\s*(\S+)/.exec(execFileSync('shellcheck', ['--version'], { encoding: 'utf8' }))[1];
  } catch {
    return undefined;
  }
})();

/** The rows of the table: a figure, its two sides, the paired ratio and its target. */
const rows = [];
function row(r) {
  rows.push(r);
  console.error(`  ${r.what}: ${r.value}${r.ratio ? ` → ${r.ratio}` : ''}${r.met === undefined ? '' : r.met ? ' (met)' : ' (missed)'}`);
}
const ratioText = (p) => `**${p.ratio.median.toFixed(2)}×** (${p.ratio.min.toFixed(2)}–${p.ratio.max.toFixed(2)})`;
function pairedRow(what, p, against, target, extra = '') {
  row({
    what,
    value: spread(p.b),
    against: `${against}: ${spread(p.a)}`,
    ratio: ratioText(p),
    target: target === undefined ? '' : `≤ ${target}×`,
    met: target === undefined ? undefined : p.ratio.median <= target,
    note: extra,
  });
}
const mustExit = (allowed) => (ra, rb) => {
  for (const r of [ra, rb])
    if (r.status !== undefined && !allowed.includes(r.status)) throw new Error(`a measured command exited ${r.status}: ${r.stderr ?? ''}`);
};

/** ShellCheck alone at its best: one process per core (at least 8 scripts a process; more processes were slower), the scripts dealt round-robin so they finish together. */
function shellcheckAlone(files) {
  const count = Math.max(1, Math.min(availableParallelism(), Math.ceil(files.length / 8)));
  const groups = Array.from({ length: count }, () => []);
  files.forEach((f, i) => groups[i % count].push(f));
  return async () => {
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
    return { ms: performance.now() - started };
  };
}

/** Every hook script of a tree, written out one per file for ShellCheck alone; and how many are distinct. */
async function extractScripts(dir, out) {
  const { profileFromBytes } = await import(join(root, 'dist/src/profile/profile.js'));
  const { extractHooks } = await import(join(root, 'dist/src/hooks/extract.js'));
  mkdirSync(out, { recursive: true });
  const files = [];
  const distinct = new Set();
  for (const rel of readdirSync(dir, { recursive: true })) {
    if (!String(rel).endsWith('.md')) continue;
    const loaded = profileFromBytes(rel, readFileSync(join(dir, rel)));
    if (!loaded.ok) continue;
    for (const hook of extractHooks(loaded.profile)) {
      const path = join(out, `${files.length}.sh`);
      writeFileSync(path, hook.text);
      files.push(path);
      distinct.add(hook.text);
    }
  }
  return { files, distinct: distinct.size };
}

console.error(`validate-agent-hooks benchmark (${PAIRS} pairs a figure${quick ? ', quick' : ''})`);
const scratch = mkdtempSync(join(tmpdir(), 'vah-bench-'));
try {
  const nodeAlone = command(node, ['-e', '']);

  // One clean profile of the usual shape (checked clean: exit 0).
  const single = join(root, 'fixtures', 'demo', '.claude', 'agents', 'blocking-coordinator.md');
  pairedRow(
    'single clean profile, no ShellCheck',
    await paired(nodeAlone, tool([single, '--no-shellcheck']), { n: PAIRS, check: mustExit([0]) }),
    "`node -e ''`",
    2.2,
  );
  // Where NODE_EXTRA_CA_CERTS pads `node -e ''` and not the bin, the same figure with it unset on both sides.
  if (withoutCerts)
    pairedRow(
      'single clean profile, no ShellCheck, NODE_EXTRA_CA_CERTS unset on both sides',
      await paired(command(node, ['-e', ''], withoutCerts), tool([single, '--no-shellcheck'], withoutCerts), {
        n: PAIRS,
        check: mustExit([0]),
      }),
      "`node -e ''`",
    );
  if (shellcheckVersion)
    pairedRow(
      'single clean profile, with ShellCheck',
      await paired(nodeAlone, tool([single]), { n: PAIRS, check: mustExit([0]) }),
      "`node -e ''`",
    );

  const { files, distinct } = await extractScripts(corpus, join(scratch, 'corpus-scripts'));
  const corpusWhat = `corpus (${readdirSync(corpus, { recursive: true }).filter((f) => String(f).endsWith('.md')).length} profiles, ${files.length} scripts, ${distinct} distinct)`;
  if (shellcheckVersion)
    pairedRow(
      `${corpusWhat}, with ShellCheck`,
      await paired(shellcheckAlone(files), tool([corpus, '--format', 'json']), { n: PAIRS, check: mustExit([0, 1]) }),
      `ShellCheck alone (${Math.min(availableParallelism(), Math.ceil(files.length / 8))} processes)`,
      1.8,
    );
  pairedRow(
    `${corpusWhat}, no ShellCheck`,
    await paired(nodeAlone, tool([corpus, '--format', 'json', '--no-shellcheck']), { n: PAIRS, check: mustExit([0, 1]) }),
    "`node -e ''`",
    4.5,
  );
  if (withoutCerts)
    pairedRow(
      `${corpusWhat}, no ShellCheck, NODE_EXTRA_CA_CERTS unset on both sides`,
      await paired(command(node, ['-e', ''], withoutCerts), tool([corpus, '--format', 'json', '--no-shellcheck'], withoutCerts), {
        n: PAIRS,
        check: mustExit([0, 1]),
      }),
      "`node -e ''`",
    );

  // Growth: the large tree against the small one, each run alternating with the other.
  const trees = {};
  for (const size of [SMALL, LARGE]) {
    trees[size] = join(scratch, String(size));
    generateTree(trees[size], size, 42);
  }
  const { files: largeScripts, distinct: largeDistinct } = await extractScripts(
    join(trees[LARGE], '.claude'),
    join(scratch, 'large-scripts'),
  );
  rmSync(join(scratch, 'large-scripts'), { recursive: true, force: true });
  for (const sc of shellcheckVersion ? [true, false] : [false]) {
    const lint = (size) => tool(['--all', '--root', trees[size], '--format', 'json', ...(sc ? [] : ['--no-shellcheck'])]);
    const p = await paired(lint(SMALL), lint(LARGE), { n: quick ? 3 : 5, warmup: 0, check: mustExit([0, 1]) });
    const rssMB = p.rssKiB.b / 1024;
    const what = `${LARGE} vs ${SMALL} generated profiles (${largeDistinct} distinct scripts in ${largeScripts.length}), ${sc ? 'with' : 'no'} ShellCheck`;
    if (sc)
      row({
        what,
        value: spread(p.b),
        against: `${SMALL}: ${spread(p.a)}`,
        ratio: ratioText(p),
        target: '≤ 5.0×, peak RSS < 300 MB',
        met: p.ratio.median <= 5.0 && rssMB < 300,
        note: `peak RSS ${rssMB.toFixed(0)} MB (${SMALL}: ${(p.rssKiB.a / 1024).toFixed(0)} MB); ${Math.round(LARGE / (p.b.median / 1000))} profiles/s`,
      });
    else
      pairedRow(
        what,
        p,
        String(SMALL),
        undefined,
        `peak RSS ${rssMB.toFixed(0)} MB; ${Math.round(LARGE / (p.b.median / 1000))} profiles/s`,
      );
  }

  // Cache: a re-run with nothing changed against the cold run that wrote the cache.
  {
    const cacheFile = join(scratch, 'cache.json');
    const args = ['--all', '--root', trees[SMALL], '--format', 'json', '--cache', '--cache-location', cacheFile];
    const cold = async () => {
      rmSync(cacheFile, { force: true });
      return tool(args)();
    };
    const p = await paired(cold, tool(args), { n: quick ? 3 : 7, check: mustExit([0, 1]) });
    row({
      what: `--cache re-run, nothing changed (${SMALL} profiles)`,
      value: spread(p.b),
      against: `cold run: ${spread(p.a)}`,
      ratio: `**${(p.ratio.median * 100).toFixed(0)}%**`,
      target: '≤ 10%',
      met: p.ratio.median <= 0.1,
      note: '',
    });
  }

  for (const extra of ['bench-lsp.mjs', 'bench-executor.mjs', 'bench-simulate.mjs']) {
    try {
      const { measure } = await import(`./${extra}`);
      for (const r of await measure({ root, pairs: PAIRS, scratch, quick })) row({ against: '', ratio: '', target: '', note: '', ...r });
    } catch (error) {
      // A figure that fails is shown as failed; the others still stand.
      if (error.code !== 'ERR_MODULE_NOT_FOUND') row({ what: extra, value: 'failed', note: String(error.message).split('\n')[0] });
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const met = rows.filter((r) => r.met === true).length;
const judged = rows.filter((r) => r.met !== undefined).length;
const machine = `${availableParallelism()} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, ShellCheck ${shellcheckVersion ?? 'not installed'}, NODE_EXTRA_CA_CERTS ${extraCerts ? 'set (Node parses it at every start; the bin drops it)' : 'unset'}`;
const table = [
  `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${machine}. Each ratio is the median over ${PAIRS} pairs (fewer for the large trees) of the two sides run alternately (min–max of the pairs); ${met} of ${judged} targets met.`,
  '',
  '| figure | measured, median (min–max) | against | ratio | target | met |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.what} | ${r.value}${r.note ? `; ${r.note}` : ''} | ${r.against ?? ''} | ${r.ratio ?? ''} | ${r.target ?? ''} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`,
  ),
].join('\n');
console.log(table);
if (process.argv.includes('--write-readme')) {
  if (quick) {
    console.error('--write-readme ignored with --quick: the README gets full runs only.');
  } else {
    const path = join(root, 'README.md');
    const readme = readFileSync(path, 'utf8');
    const begin = '<!-- bench:begin -->';
    const end = '<!-- bench:end -->';
    writeFileSync(path, `${readme.slice(0, readme.indexOf(begin) + begin.length)}\n${table}\n${readme.slice(readme.indexOf(end))}`);
  }
}
