/**
 * Timers for any delay. Node's setTimeout holds at most 2^31 − 1 ms (24.8
 * days): a longer delay fires after 1 ms, with a TimeoutOverflowWarning on
 * stderr. So `BLPOP k 3000000` (35 days) answered nil at once where Redis
 * blocks, and a scenario's `signalAfterMs: 3000000000` delivered its signal
 * after 2 ms, before a threshold of 1000 ms that should have ended the wait.
 */

/** The longest delay setTimeout keeps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LongTimer {
  cancel(): void;
  /** As setTimeout's unref: the timer does not keep the process alive. */
  unref(): LongTimer;
}

/** Calls `callback` after `ms`, however long: delays past MAX_TIMER_MS are waited in pieces. */
export function longTimeout(callback: () => void, ms: number): LongTimer {
  let unref = false;
  let timer: NodeJS.Timeout;
  const arm = (left: number): void => {
    timer = left > MAX_TIMER_MS ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS) : setTimeout(callback, left);
    if (unref) timer.unref();
  };
  arm(ms);
  const handle: LongTimer = {
    cancel: () => clearTimeout(timer),
    unref: () => {
      unref = true;
      timer.unref();
      return handle;
    },
  };
  return handle;
}

/** The promise's value, or `late` once `ms` have passed; the timer goes as soon as either settles, so it never holds the process open. */
export function raceTimeout<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<L>((resolve) => (timer = setTimeout(() => resolve(late), ms)));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
