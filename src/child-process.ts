import { createRequire } from 'node:module';

/**
 * node:child_process, loaded on first use. Loading it (with net, dgram and
 * streams) takes ~4 ms of a start, and a lint without ShellCheck whose hooks
 * need no `bash -n` never starts a process: the lint path's modules ask for
 * it here instead of importing it at the top.
 */
const load = createRequire(import.meta.url);
let loaded: typeof import('node:child_process') | undefined;

export function childProcess(): typeof import('node:child_process') {
  loaded ??= load('node:child_process') as typeof import('node:child_process');
  return loaded;
}
