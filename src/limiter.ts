/** At most `limit` holders at once, first come first served; `acquire` resolves to an idempotent release. */
export class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active++;
    return this.releaser();
  }

  /**
   * Runs `task` once a place is free, and frees it when the task settles. With
   * a place free, the task starts before `run` returns, not on a later turn:
   * a caller that goes on with synchronous work (ShellCheck's slices while the
   * rest of the files are parsed) has it running meanwhile.
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) return this.acquire().then((release) => settle(task, release));
    this.active++;
    return settle(task, this.releaser());
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    };
  }
}

async function settle<T>(task: () => Promise<T>, release: () => void): Promise<T> {
  try {
    return await task();
  } finally {
    release();
  }
}
