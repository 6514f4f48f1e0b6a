import type { PlainCommand } from './commands.js';

/** Paths that name the process's own standard input. */
const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

export function isStdinPath(path: string): boolean {
  return STDIN_PATHS.has(path);
}

/**
 * Wrappers that hand their standard input to the command they run. Not
 * `xargs`, `parallel` or `find -exec`: they give it input as arguments, or none.
 */
const PASSING_WRAPPERS = new Set([
  ...['sudo', 'doas', 'env', 'nice', 'ionice', 'timeout', 'gtimeout', 'stdbuf', 'time', 'command', 'builtin', 'exec'],
  ...['chronic', 'eatmydata', 'nocache', 'taskset', 'chrt', 'strace', 'ltrace', 'fakeroot', 'unshare', 'flock', 'setsid'],
  ...['torsocks', 'proxychains', 'proxychains4', 'torify', 'unbuffer'],
]);

export function stdinReaches(command: PlainCommand): boolean {
  return command.wrappedBy === undefined || PASSING_WRAPPERS.has(command.wrappedBy);
}

/**
 * Whether a shell (by `name`; also `source` and `.`) runs its standard input
 * as its script: `bash`, `sh -s -- args`, `bash -`, `bash /dev/stdin`,
 * `source /dev/stdin`; not `bash -c …` nor `bash FILE`.
 */
export function runsStdinAsScript(command: PlainCommand, name: string): boolean {
  if (!stdinReaches(command)) return false;
  if (name === 'source' || name === '.') return STDIN_PATHS.has(command.args[0]?.value ?? '');
  let readsStdin = false;
  for (let i = 0; i < command.args.length; i++) {
    const value = command.args[i]!.value;
    if (value === undefined) return readsStdin;
    if (value === '-' || value === '--') return readsStdin || value === '-' || isStdinScript(command.args[i + 1]?.value);
    if (!value.startsWith('-') && !value.startsWith('+')) return readsStdin || STDIN_PATHS.has(value);
    if (value === '-o' || value === '+o' || value === '-O' || value === '+O') i++;
    else if (!value.startsWith('--') && value.slice(1).includes('c')) return false;
    else if (!value.startsWith('--') && value.slice(1).includes('s')) readsStdin = true;
  }
  return true;
}

/** After `--`: no script file (stdin is read), or a path to stdin. */
function isStdinScript(value: string | undefined): boolean {
  return value === undefined || STDIN_PATHS.has(value);
}
