// The benchmark's own machinery: pairs that alternate, and generated profiles
// as varied as the real corpus (so a cache keyed on script text cannot flatter it).
import { describe, expect, it } from 'vitest';
import { extractHooks } from '../../src/hooks/extract.js';
import { profileFromBytes } from '../../src/profile/profile.js';
import { median, paired } from '../../scripts/bench-pair.mjs';
import { generateProfile, prng } from '../../scripts/generate-profiles.mjs';

describe('paired measurement', () => {
  it('alternates which side runs first and takes the median of the per-pair ratios', async () => {
    const order: string[] = [];
    let drift = 0;
    // A drifting machine: every step is slower than the last; B costs twice A at any moment.
    const step = (name: string, cost: number) => () => {
      order.push(name);
      drift += 1;
      return { ms: cost * (100 + drift) };
    };
    const result = await paired(step('a', 1), step('b', 2), { n: 6, warmup: 1 });
    expect(order.slice(0, 6)).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    expect(result.a.n).toBe(6);
    expect(result.ratio.median).toBeGreaterThan(1.95);
    expect(result.ratio.median).toBeLessThan(2.05);
  });

  it('passes each pair to the check, so a failing command stops the figure', async () => {
    const failing = paired(
      () => ({ ms: 1, status: 0 }),
      () => ({ ms: 1, status: 2 }),
      {
        n: 2,
        check: (_a, b) => {
          if (b.status !== 0) throw new Error('exited 2');
        },
      },
    );
    await expect(failing).rejects.toThrow('exited 2');
  });

  it('takes the middle of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
  });
});

describe('generated profiles', () => {
  it('are valid profiles whose scripts are nearly all distinct, as in the corpus (182 of 190)', () => {
    const random = prng(42);
    const scripts: string[] = [];
    for (let i = 0; i < 300; i++) {
      const loaded = profileFromBytes(`agent-${i}.md`, Buffer.from(generateProfile(random, i)));
      expect(loaded.ok).toBe(true);
      if (loaded.ok) for (const hook of extractHooks(loaded.profile)) scripts.push(hook.text);
    }
    expect(scripts.length).toBeGreaterThan(450);
    expect(new Set(scripts).size / scripts.length).toBeGreaterThan(0.9);
  });
});
