/**
 * The simulator's small concurrency tools: a one-shot signal, a wait with a
 * threshold, a limiter for sandboxes starting at once, and a delay.
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
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ kind: 'timeout' }>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), thresholdMs);
  });
  try {
    const signalled = signal ? signal.then(({ data }) => ({ kind: 'signal' as const, data })) : new Promise<never>(() => undefined);
    return await Promise.race([signalled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
