import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';

/**
 * Regular expressions from files the tool is given (a test table's `reasonMatches`, a settings file's
 * matcher), run on text a hook wrote or a table names: a pattern that backtracks exponentially
 * (`^(a+)+$` on 40 `a`s and a `!`: 80 s) must not hold the host. V8's linear-time engine takes over a
 * match that backtracks too much; it cannot run backreferences or lookarounds, so such a pattern runs
 * in a worker with a deadline instead.
 */
let linearFallback = false;

/** Compiles a pattern to be run by `boundedTest`. */
export function boundedRegExp(source: string, flags?: string): RegExp {
  if (!linearFallback) {
    setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    linearFallback = true;
  }
  return new RegExp(source, flags);
}

/** What V8's linear-time engine cannot run: backreferences and lookarounds. */
const NOT_LINEAR = /\\[1-9]|\\k<|\(\?<?[=!]/;

/** How long a pattern the linear engine cannot run may take on one text. */
export const REGEX_DEADLINE_MS = 1000;

/** `regex.test(text)`, or undefined when a pattern the linear engine cannot run took past the deadline. */
export function boundedTest(regex: RegExp, text: string, deadlineMs = REGEX_DEADLINE_MS): boolean | undefined {
  if (!NOT_LINEAR.test(regex.source)) {
    regex.lastIndex = 0;
    return regex.test(text);
  }
  const shared = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { workerData: d } = require('node:worker_threads');
     const r = new RegExp(d.source, d.flags).test(d.text);
     Atomics.store(d.shared, 0, r ? 1 : 2); Atomics.notify(d.shared, 0);`,
    { eval: true, workerData: { source: regex.source, flags: regex.flags, text, shared } },
  );
  // Nothing to wait for from it once it has answered (or been given up on): it may not keep the process alive.
  worker.unref();
  Atomics.wait(shared, 0, 0, deadlineMs);
  const answer = Atomics.load(shared, 0);
  void worker.terminate();
  return answer === 0 ? undefined : answer === 1;
}
