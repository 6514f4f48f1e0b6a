import { afterAll, describe, expect, it } from 'vitest';
import { simulateLifecycle } from '../../src/simulate/index.js';
import { needsSandbox, profileText, sandboxMissing, workDir } from './helpers.js';

/**
 * A finding from a run lands on the command that did the operation — its
 * name, inside `$(...)` too — and on the command whose action and key match
 * the operation, not the first one with the same program. Positions are in
 * the profile file: the hooks are block scalars indented by 4 under their key.
 */
describe.skipIf(sandboxMissing !== undefined)(needsSandbox('simulate: where findings land'), () => {
  const work = workDir();
  afterAll(() => work.remove());

  const place = (d: { line: number; column: number; endLine: number; endColumn: number; ruleId: string }): string =>
    `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.ruleId}`;

  it('at the command inside `$(...)`, on the line whose key matches, and across a continuation line', async () => {
    const lines = [
      // 6: the data is read from Redis inside the store's `$(...)` (the corpus's adaptive-coordinator writes this)
      '/sqlite-memory store --key "agent:${AGENT_ID}:seed" --level agent --data "$(redis-cli get "perf:${SWARM_ID}:latest")"',
      // 7: the read of the swarm's own key: a `$(...)` in an earlier line is not a wildcard for it
      'redis-cli get "swarm:${SWARM_ID}" >/dev/null',
      // 8: another `redis-cli get` with a key that does not match `swarm:…:state`
      'redis-cli get "other:${SWARM_ID}" >/dev/null; STATE=$(redis-cli get "swarm:${SWARM_ID}:state")',
      // 9-10: a retrieve split over two lines
      'CTX=$(/sqlite-memory retrieve \\',
      '  --key "agent:${AGENT_ID}:ctx" --level agent)',
      'echo "context: ${CTX}"',
    ];
    const profile = work.write('places.md', profileText('places', { on_blocking_start: lines.join('\n') }));
    const trace = await simulateLifecycle(profile, { scenario: 'signal', signalAfterMs: 5, agentId: 'p-1', swarmId: 's' });
    const found = trace.findings[0]!.diagnostics;
    expect(found.map((d) => `${place(d)} ${/`([^`]+)`/.exec(d.message)?.[1] ?? ''}`)).toEqual([
      // `redis-cli get "perf:${SWARM_ID}:latest"` inside the store's --data
      '6:81-6:120 redis-read-unwritten perf:s:latest',
      '7:5-7:38 redis-read-unwritten swarm:s',
      '8:5-8:38 redis-read-unwritten other:s',
      // the second command of line 8, inside `STATE=$(…)`
      '8:59-8:98 redis-read-unwritten swarm:s:state',
      // from `/sqlite-memory` to `--level agent` on the continuation line
      '9:11-10:50 memory-read-unwritten agent:p-1:ctx',
    ]);
  });

  it('the writer named in a finding is the command that wrote the key, not the first of its program', async () => {
    const profile = work.write(
      'writer.md',
      profileText('writer', {
        on_blocking_start: [
          '/sqlite-memory store --key "agent:${AGENT_ID}:log" --level agent --data \'{"n":1}\'',
          'echo "$(date +%s)" >/dev/null; /sqlite-memory store --key "agent:${AGENT_ID}:blocking:context" --level agent --data \'{"s":1}\'',
        ].join('\n'),
        on_signal_received: 'echo "resume: $(/sqlite-memory retrieve --key "agent:${AGENT_ID}:context" --level agent)"',
      }),
    );
    const trace = await simulateLifecycle(profile, { scenario: 'signal', signalAfterMs: 5, agentId: 'w-1' });
    const [unwritten] = trace.findings[0]!.diagnostics;
    // `/sqlite-memory retrieve …` inside `echo "resume: $(…)"`
    expect(unwritten && place(unwritten)).toBe('9:21-9:92 memory-read-unwritten');
    expect(unwritten!.message).toContain('did you mean `agent:w-1:blocking:context`');
    // the second store, after `echo "$(date +%s)" >/dev/null; ` on line 7 (whose `$(…)` once matched any key)
    expect(unwritten!.related?.[0]?.range).toEqual({ line: 7, column: 36, endLine: 7, endColumn: 130 });
  });
});
