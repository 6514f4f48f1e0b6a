import { afterEach, describe, expect, it, vi } from 'vitest';
import { raceTimeout } from '../src/timers.js';

describe('raceTimeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the promise's value when it comes first, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    const raced = raceTimeout(Promise.resolve('done'), 1000, 'late');
    expect(await raced).toBe('done');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives `late` once the time has passed, and the promise settling later changes nothing', async () => {
    vi.useFakeTimers();
    let settle!: (value: string) => void;
    const raced = raceTimeout(new Promise<string>((resolve) => (settle = resolve)), 1000, false);
    await vi.advanceTimersByTimeAsync(999);
    let result: string | boolean | undefined;
    void raced.then((value) => (result = value));
    await Promise.resolve();
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await raced).toBe(false);
    settle('too late');
    expect(await raced).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes the promise's rejection on and clears the timer", async () => {
    vi.useFakeTimers();
    await expect(raceTimeout(Promise.reject(new Error('boom')), 1000, 'late')).rejects.toThrow('boom');
    expect(vi.getTimerCount()).toBe(0);
  });
});
