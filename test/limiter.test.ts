import { describe, expect, it } from 'vitest';
import { Limiter } from '../src/limiter.js';

describe('Limiter', () => {
  it('starts a task at once while a place is free, and queues the rest first come first served', async () => {
    const limiter = new Limiter(2);
    const events: string[] = [];
    const gates: (() => void)[] = [];
    const task = (name: string) => () => {
      events.push(`start ${name}`);
      return new Promise<string>((resolve) => gates.push(() => resolve(name)));
    };
    const a = limiter.run(task('a'));
    const b = limiter.run(task('b'));
    const c = limiter.run(task('c'));
    const d = limiter.run(task('d'));
    // a and b started synchronously, inside run; c and d wait for a place.
    expect(events).toEqual(['start a', 'start b']);
    gates[1]!();
    expect(await b).toBe('b');
    await Promise.resolve();
    expect(events).toEqual(['start a', 'start b', 'start c']);
    gates[0]!();
    gates[2]!();
    expect(await Promise.all([a, c])).toEqual(['a', 'c']);
    expect(events).toEqual(['start a', 'start b', 'start c', 'start d']);
    gates[3]!();
    expect(await d).toBe('d');
  });

  it('frees the place of a task that throws, synchronously or not, and passes its error on', async () => {
    const limiter = new Limiter(1);
    await expect(
      limiter.run(() => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    await expect(limiter.run(() => Promise.reject(new Error('later')))).rejects.toThrow('later');
    expect(await limiter.run(() => Promise.resolve(1))).toBe(1);
  });

  it('acquire hands out places and an idempotent release', async () => {
    const limiter = new Limiter(1);
    const release = await limiter.acquire();
    let second = false;
    const next = limiter.acquire().then((r) => {
      second = true;
      return r;
    });
    await Promise.resolve();
    expect(second).toBe(false);
    release();
    release();
    (await next)();
    expect(second).toBe(true);
    // One place again: releasing the first twice did not free a second.
    const one = await limiter.acquire();
    let third = false;
    void limiter.acquire().then(() => (third = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(third).toBe(false);
    one();
  });
});
