import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * What a ShellCheck run leaves while it is under way — its scratch
 * directories and its processes — undone when the run is cut short: on
 * `process.exit` and on SIGINT, SIGTERM and SIGHUP (Ctrl-C, a pre-commit
 * timeout, an editor stopping its language server). SIGKILL cannot be
 * caught. The listeners are installed only while something is live, so a
 * process that embeds the linter keeps its own signal handling otherwise.
 */
const dirs = new Set<string>();
const children = new Set<ChildProcess>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function undo(): void {
  for (const child of children) child.kill('SIGTERM');
  children.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  undo();
  watch(false);
  // Nobody else listens: end as the signal would have ended us.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

let watching = false;
function watch(on: boolean): void {
  if (on === watching) return;
  watching = on;
  if (on) {
    process.on('exit', undo);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  } else {
    process.off('exit', undo);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  }
}

function changed(): void {
  watch(dirs.size + children.size > 0);
}

export function holdDirectory(dir: string): void {
  dirs.add(dir);
  changed();
}

export function releaseDirectory(dir: string): void {
  dirs.delete(dir);
  changed();
}

/** Tracks a process until it exits. */
export function holdProcess(child: ChildProcess): void {
  children.add(child);
  changed();
  const done = (): void => {
    if (children.delete(child)) changed();
  };
  // A process that could not be started reports an error and may never report an exit.
  child.once('exit', done);
  child.once('error', done);
}
