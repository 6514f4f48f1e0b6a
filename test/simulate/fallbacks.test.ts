import { afterAll, describe, expect, it } from 'vitest';
import { simulateLifecycle } from '../../src/simulate/index.js';
import { needsSandbox, profileText, sandboxMissing, workDir } from './helpers.js';

/**
 * A read of a key nothing wrote is no mistake when the hook handles the miss
 * itself, as the runtime documents (`DATA=$(/sqlite-memory retrieve … 2>/dev/null
 * || echo '{}')`; `if [ -z "$CONFIDENCE" ] …`); it still is when the key is
 * written only later or is a near typo of a key that was, and a Redis read
 * whose only fallback is `||` is told that redis-cli never fails on a miss.
 */
describe.skipIf(sandboxMissing !== undefined)(needsSandbox('simulate: reads with a fallback for the miss'), () => {
  const work = workDir();
  afterAll(() => work.remove());

  it('reports only the reads that take the value as it comes, or whose fallback hides a real mistake', async () => {
    const profile = work.write(
      'fallbacks.md',
      profileText('fallbacks', {
        on_blocking_start: [
          // 6-7
          '/sqlite-memory store --key "agent:${AGENT_ID}:blocking:context" --level agent --data \'{"s":1}\'',
          'TOKEN=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:resume-token" --level agent || echo none)',
        ].join('\n'),
        on_signal_received: [
          // 9-11: handled by the exit status
          'A=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:prefs" --level agent || echo "{}")',
          '/sqlite-memory retrieve --key "agent:${AGENT_ID}:cache" --level agent >/dev/null || true',
          'B=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:notes" --level agent 2>/dev/null || echo \'{}\')',
          // 12: handled by `if !`
          'if ! C=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:checkpoint" --level agent 2>/dev/null); then C=\'{}\'; fi',
          // 13-14: handled by a test of the value
          'D=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:queue" --level agent 2>/dev/null)',
          '[ -z "$D" ] && D=\'[]\'',
          // 15-18: Redis reads whose empty reply is tested
          'E=$(redis-cli get "swarm:${SWARM_ID}:confidence")',
          'if [ -z "$E" ] || [ "$E" = "(nil)" ]; then E=0.0; fi',
          '[ -n "$(redis-cli get "swarm:${SWARM_ID}:cancel")" ] && exit 0',
          'M=$(redis-cli get "swarm:${SWARM_ID}:mode"); echo "mode ${M:-standard}"',
          // 19: reported: redis-cli exits 0 on a missing key, so `||` never runs
          'F=$(redis-cli get "swarm:${SWARM_ID}:result" || echo \'{}\')',
          // 20: reported: a near typo of the stored `agent:…:blocking:context`, which the fallback hides
          'G=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:context" --level agent || echo \'{}\')',
          // 21: reported: no fallback
          'H=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:plan" --level agent 2>/dev/null)',
          // 22: stores the key on_blocking_start read before it existed (line 7: reported)
          '/sqlite-memory store --key "agent:${AGENT_ID}:resume-token" --level agent --data \'"t"\'',
          'echo "$TOKEN $A $B $C $D $E $F $G $H"',
        ].join('\n'),
      }),
    );
    const trace = await simulateLifecycle(profile, { scenario: 'signal', signalAfterMs: 5, agentId: 'f-1', swarmId: 's' });
    expect(trace.hookRuns.map((r) => `${r.hook}:${String(r.exitCode)}`)).toEqual(['on_blocking_start:0', 'on_signal_received:0']);
    const found = trace.findings[0]!.diagnostics;
    expect(found.map((d) => `${d.line}:${d.column} ${d.ruleId} ${/`([^`]+)`/.exec(d.message)?.[1] ?? ''}`)).toEqual([
      '7:13 memory-read-unwritten agent:f-1:resume-token',
      '19:9 redis-read-unwritten swarm:s:result',
      '20:9 memory-read-unwritten agent:f-1:context',
      '21:9 memory-read-unwritten agent:f-1:plan',
    ]);
    const [later, redis, typo, plain] = found;
    expect(later!.message).toContain("(f-1 stores it only later). The hook's fallback for a missing key hides it.");
    expect(later!.related?.[0]?.range).toMatchObject({ line: 22, column: 5 });
    expect(redis!.message).toContain('`redis-cli` exits 0 with an empty reply for a missing key');
    expect(typo!.message).toContain("did you mean `agent:f-1:blocking:context`, which was stored? The hook's fallback");
    expect(plain!.message).not.toContain('fallback');
  });
});
