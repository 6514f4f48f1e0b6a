// Paired measurement for the benchmark. This machine is shared and noisy, so a
// figure is never one program's time but the ratio of two measured side by
// side: A and B alternate (ABBA…, so neither always runs second), each pair
// gives a ratio, and the median of those ratios is the figure. Drift (another
// process starting, the CPU clocking down) hits both halves of a pair alike.
import { spawn } from 'node:child_process';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length });
export const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 20 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`);
export const spread = (s) => `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;

/**
 * Runs a command to its end: wall time (measured here, to the microsecond)
 * peak RSS in KiB (GNU time's %M, the largest process of the tree) and CPU
 * time (user + system, in hundredths: too coarse for short runs).
 */
export function timed(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M %U %S', command, ...args], { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      const ms = performance.now() - started;
      const [rss, user, sys] = stderr.trim().split('\n').pop().split(' ').map(Number);
      resolve({ ms, rssKiB: rss, cpuMs: (user + sys) * 1000, status, stderr });
    });
  });
}

/** A command as a measurable step: resolves to {ms, rssKiB, status}. */
export const command = (cmd, args, options) => () => timed(cmd, args, options);

/**
 * A against B, `n` pairs, alternating which goes first. Each side is a
 * function resolving to {ms} (and optionally rssKiB). `warmup` unrecorded
 * pairs first fill the page cache. Returns both sides' statistics and the
 * median of the per-pair ratios B/A.
 */
export async function paired(a, b, { n, warmup = 1, check } = {}) {
  const as = [];
  const bs = [];
  for (let i = 0; i < warmup + n; i++) {
    const order = i % 2 ? [b, a] : [a, b];
    const results = [];
    for (const step of order) results.push(await step());
    const [ra, rb] = i % 2 ? [results[1], results[0]] : results;
    check?.(ra, rb);
    if (i >= warmup) {
      as.push(ra);
      bs.push(rb);
    }
  }
  const ratios = as.map((ra, i) => bs[i].ms / ra.ms);
  return {
    a: stats(as.map((r) => r.ms)),
    b: stats(bs.map((r) => r.ms)),
    ratio: stats(ratios),
    rssKiB: { a: Math.max(...as.map((r) => r.rssKiB ?? 0)), b: Math.max(...bs.map((r) => r.rssKiB ?? 0)) },
  };
}
