import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';
import { meanAgainst, parseDecision, parseScenario, type Scenario } from '../../src/simulate/index.js';
import { profileText, workDir } from './helpers.js';

/** The fidelity table's rows that need no sandbox: the arithmetic, the decision format, the scenario's documented values. */

async function scenarioFrom(file: string, text: string): Promise<Scenario> {
  const loaded = await parseScenario(file, text);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  return loaded.scenario;
}

describe('exact thresholds (no rounding)', () => {
  it('compares the exact mean of the reported decimals with the threshold', () => {
    expect(meanAgainst([0.7496], 0.75).passed).toBe(false);
    expect(meanAgainst([0.8, 0.6992], 0.75)).toEqual({ mean: 0.7496, passed: false });
    expect(meanAgainst([0.75], 0.75).passed).toBe(true);
    // (0.85 + 0.95) / 2 is 0.9 exactly, though doubles make it 0.8999999999999999.
    expect((0.85 + 0.95) / 2).toBeLessThan(0.9);
    expect(meanAgainst([0.85, 0.95], 0.9).passed).toBe(true);
    expect(meanAgainst([0.9, 0.9, 0.8999], 0.9).passed).toBe(false);
    expect(meanAgainst([0, 1], 0.5).passed).toBe(true);
    expect(meanAgainst([], 0.5).passed).toBe(false);
  });

  it('reads the Product Owner decision as the documented JSON, a bare word noted', () => {
    expect(parseDecision('{"decision":"ABORT","reason":"out of scope"}')).toEqual({ decision: 'ABORT', json: true });
    expect(parseDecision('proceed')).toEqual({ decision: 'PROCEED', json: false });
    expect(parseDecision('{"verdict":"PROCEED"}')).toEqual({ json: true });
    expect(parseDecision(null)).toEqual({ json: false });
  });
});

describe('scenario: blocking types are the documented ones', () => {
  const work = workDir();
  afterAll(() => work.remove());
  work.write('p.md', profileText('p', { pre: 'true' }));
  it('rejects a BLOCKING_TYPE the hooks document does not list, at its line', async () => {
    const loaded = await parseScenario(
      join(work.dir, 's.yaml'),
      'task: t\nloop3:\n  - id: a\n    profile: p.md\n    confidence: 1\n    blocking:\n      - { type: gate }\nloop2: [{ id: b, profile: p.md, consensus: 1 }]\n',
    );
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? [] : loaded.diagnostics.map((d) => `${d.line} ${d.message}`)).toContain(
      '7 Invalid `loop3.0.blocking.0.type`: expected one of consensus, validation, dependency.',
    );
  });

  it("the README's scenario example is a valid scenario", async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### The swarm scenario format'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const scenario = await scenarioFrom(join(import.meta.dirname, '..', '..', 'fixtures', 'swarm', 'readme.yaml'), example);
    expect(scenario.loop3[0]!.blocking.map((b) => [b.type, b.afterTimeout])).toEqual([
      ['dependency', 'escalate'],
      ['consensus', 'retry'],
    ]);
    expect(scenario.agentTimeouts).toEqual({ implementer: 3_600_000, validator: 1_800_000, productOwner: 900_000, researcher: 7_200_000 });
  });

  it('the one-agent lifecycle takes only a documented --blocking-type', async () => {
    const io = memoryIO({ cwd: work.dir });
    expect(await main(['simulate', 'p.md', '--scenario', 'signal', '--blocking-type', 'coordination'], io)).toBe(2);
    expect(io.err()).toContain("unknown --blocking-type 'coordination' (the hooks document lists consensus, validation, dependency)");
  });
});
