// Executor costs for the benchmark: an empty hook (sandbox, fakes and trace),
// and one `redis-cli` / `/sqlite-memory` call timed inside the sandbox.
import { join } from 'node:path';

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
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} ms)`;

export async function measure({ root, runs }) {
  const { createExecutorSession } = await import(join(root, 'dist/src/executor/session.js'));
  const { probeBwrap } = await import(join(root, 'dist/src/executor/sandbox.js'));
  const isRoot = process.getuid?.() === 0;
  if (!probeBwrap(isRoot ? { hostUid: 65534, hostGid: 65534 } : {}).ok)
    return [{ what: 'executor', value: 'skipped', note: 'bubblewrap is not usable here' }];
  const rows = [];
  const cold = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const session = await createExecutorSession();
    await session.runHook(hook('pre', 'true'));
    await session.close();
    cold.push(performance.now() - started);
  }
  rows.push({ what: 'executor: empty hook, new session (sandbox, fakes, trace)', value: spread(cold), note: 'target ≤ 150 ms' });
  const session = await createExecutorSession({ timeoutMs: 30_000 });
  try {
    const warm = [];
    for (let i = 0; i < runs * 3; i++) {
      const started = performance.now();
      await session.runHook(hook('pre', ''), { agentId: `bench-${i % 3}` });
      warm.push(performance.now() - started);
    }
    rows.push({ what: 'executor: empty hook in a running session', value: spread(warm), note: '' });
    const timeEach = (command, count) =>
      [
        `for i in $(seq ${count}); do`,
        '  start=$EPOCHREALTIME',
        `  ${command} >/dev/null`,
        '  end=$EPOCHREALTIME',
        '  echo $(( ${end/./} - ${start/./} ))',
        'done',
      ].join('\n');
    const result = await session.runHook(
      hook(
        'on_blocking_start',
        [
          '/sqlite-memory store --key warm --level agent --data 1',
          'echo redis',
          timeEach('redis-cli SET "swarm:t:$i" "$i"', 40),
          'echo memory',
          timeEach('/sqlite-memory store --key "k:$i" --level agent --data "{\\"i\\":$i}"', 40),
        ].join('\n'),
      ),
    );
    const sections = {};
    let current = '';
    for (const line of result.stdout.trim().split('\n')) {
      if (/^\d+$/.test(line)) sections[current].push(Number(line) / 1000);
      else sections[(current = line)] = [];
    }
    rows.push({
      what: 'executor: one `redis-cli` call inside the sandbox',
      value: spread(sections.redis),
      note: '40 calls; target ≤ 15 ms median',
    });
    rows.push({
      what: 'executor: one `/sqlite-memory store` call inside the sandbox',
      value: spread(sections.memory),
      note: '40 calls; target ≤ 15 ms median',
    });
  } finally {
    await session.close();
  }
  return rows;
}
