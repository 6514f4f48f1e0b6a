import { longTimeout, type LongTimer } from '../timers.js';

/**
 * The simulator's small concurrency tools: a one-shot signal, a wait with a
 * threshold, and a delay (the limiter for sandboxes starting at once is src/limiter.ts).
 */

/** A signal an agent may be waiting for: resolved once, with its data. */
export class Signal<T = unknown> {
  readonly promise: Promise<{ data: T; at: number }>;
  private resolveFn!: (value: { data: T; at: number }) => void;
  fired = false;

  constructor(private readonly now: () => number) {
    this.promise = new Promise((resolve) => {
      this.resolveFn = resolve;
    });
  }

  fire(data: T): void {
    if (this.fired) return;
    this.fired = true;
    this.resolveFn({ data, at: this.now() });
  }
}

/** Waits for the signal or the threshold, whichever comes first; the timer never outlives the wait. */
export async function waitWithThreshold(
  signal: Promise<{ data: unknown }> | undefined,
  thresholdMs: number,
): Promise<{ kind: 'signal'; data: unknown } | { kind: 'timeout' }> {
  let timer: LongTimer | undefined;
  const timeout = new Promise<{ kind: 'timeout' }>((resolve) => {
    timer = longTimeout(() => resolve({ kind: 'timeout' }), thresholdMs);
  });
  try {
    const signalled = signal ? signal.then(({ data }) => ({ kind: 'signal' as const, data })) : new Promise<never>(() => undefined);
    return await Promise.race([signalled, timeout]);
  } finally {
    timer?.cancel();
  }
}

/**
 * Any delay: past setTimeout's 24.8 days one would end at once (src/timers.ts).
 * `unref`: the delay does not keep the process alive, for a signal that may
 * come after the run is over (signalAfterMs past the wait's threshold: the
 * report was printed, then the process waited out the signal, 27 hours for
 * `signalAfterMs: 100000000`).
 */
export function delay(ms: number, options: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const timer = longTimeout(resolve, ms);
    if (options.unref) timer.unref();
  });
}
