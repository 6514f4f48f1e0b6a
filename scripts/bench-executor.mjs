// Executor figures for the benchmark, each paired: `run` of an empty hook
// against `--version` (both a whole CLI process), and one `redis-cli` and one
// `/sqlite-memory` call against one `/bin/true` call in the same sandbox,
// timed by the hook itself, the three kinds taking turns.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { command, median, paired, spread, stats } from './bench-pair.mjs';

const hook = (name, text) => {
  const range = { line: 1, column: 1, endLine: 1, endColumn: 2 };
  return {
    file: '/bench/profile.md',
    name,
    keyPath: ['hooks', name],
    text,
    style: 'literal',
    keyRange: range,
    valueRange: range,
    segments: [],
  };
};

export async function measure({ root, pairs, scratch }) {
  const { createExecutorSession } = await import(join(root, 'dist/src/executor/session.js'));
  const { probeBwrap } = await import(join(root, 'dist/src/executor/sandbox.js'));
  const isRoot = process.getuid?.() === 0;
  if (!probeBwrap(isRoot ? { hostUid: 65534, hostGid: 65534 } : {}).ok)
    return [{ what: 'executor', value: 'skipped', note: 'bubblewrap is not usable here' }];
  const rows = [];
  const bin = join(root, 'bin', 'validate-agent-hooks');
  const profile = join(scratch, 'empty-hook.md');
  writeFileSync(profile, '---\nname: empty-hook\ndescription: An agent whose hook does nothing\nhooks:\n  pre: |\n    true\n---\n');
  const p = await paired(command(bin, ['--version']), command(bin, ['run', profile, '--hook', 'pre']), {
    n: pairs,
    check: (a, b) => {
      if (a.status !== 0 || b.status !== 0) throw new Error(`run exited ${b.status}: ${b.stderr}`);
    },
  });
  rows.push({
    what: '`run` of an empty hook (sandbox, fakes, trace)',
    value: spread(p.b),
    against: `\`--version\`: ${spread(p.a)}`,
    ratio: `**${p.ratio.median.toFixed(2)}×** (${p.ratio.min.toFixed(2)}–${p.ratio.max.toFixed(2)})`,
    target: '≤ 1.6×',
    met: p.ratio.median <= 1.6,
  });

  const session = await createExecutorSession({ timeoutMs: 60_000 });
  try {
    const calls = {
      true: '/bin/true',
      redis: 'redis-cli SET "swarm:t:$i" "$i"',
      memory: '/sqlite-memory store --key "k:$i" --level agent --data "{\\"i\\":$i}"',
    };
    const kinds = Object.keys(calls);
    const n = Math.max(60, pairs * 3);
    // Each round runs the three kinds in a rotated order and prints "kind microseconds".
    const lines = ['/sqlite-memory store --key warm --level agent --data 1', 'redis-cli PING >/dev/null', `for i in $(seq ${n}); do`];
    lines.push('  case $((i % 3)) in');
    kinds.forEach((_, r) => {
      const order = kinds.map((__, k) => kinds[(k + r) % 3]);
      lines.push(`  ${r}) order="${order.join(' ')}" ;;`);
    });
    lines.push('  esac', '  for kind in $order; do', '    start=$EPOCHREALTIME', '    case $kind in');
    for (const kind of kinds) lines.push(`      ${kind}) ${calls[kind]} >/dev/null ;;`);
    lines.push('    esac', '    end=$EPOCHREALTIME', '    echo "$kind $(( ${end/./} - ${start/./} ))"', '  done', 'done');
    const result = await session.runHook(hook('on_blocking_start', lines.join('\n')));
    const rounds = {};
    for (const kind of kinds) rounds[kind] = [];
    for (const line of result.stdout.trim().split('\n')) {
      const [kind, us] = line.split(' ');
      if (kind in rounds) rounds[kind].push(Number(us) / 1000);
    }
    if (rounds.true.length !== n) throw new Error(`the timing hook did not finish: ${result.stderr || result.stdout.slice(-200)}`);
    for (const [kind, label] of [
      ['redis', '`redis-cli SET`'],
      ['memory', '`/sqlite-memory store`'],
    ]) {
      const ratios = rounds[kind].map((ms, i) => ms / rounds.true[i]);
      const r = stats(ratios);
      rows.push({
        what: `one ${label} call in a hook, in the sandbox`,
        value: spread(stats(rounds[kind])),
        against: `one \`/bin/true\` call: ${spread(stats(rounds.true))}`,
        ratio: `**${r.median.toFixed(2)}×** (${r.min.toFixed(2)}–${r.max.toFixed(2)})`,
        target: '≤ 2.5×',
        met: median(ratios) <= 2.5,
        note: `${n} rounds`,
      });
    }
  } finally {
    await session.close();
  }
  return rows;
}
