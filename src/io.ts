import { MAX_FILE_BYTES } from './profile/source.js';

/**
 * Everything a command started from the command line touches of its process
 * (the CLI's commands, and `lsp`), behind one small interface so
 * `main(argv, io)` is tested in-process. It lives below both cli/ and lsp/ so
 * that neither imports the other for it.
 */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Record<string, string | undefined>;
  /**
   * Reads standard input (for `--stdin`): its bytes, up to one byte past the size limit
   * (more is not read: the profile is reported as too large), or a text given as such.
   */
  readStdin: () => Promise<Uint8Array | string>;
  /** Whether stdout is a terminal (colour, TTY effects). */
  isTTY: boolean;
}

export function processIO(): CliIO {
  const stdout = guarded(process.stdout);
  const stderr = guarded(process.stderr);
  return {
    stdout: (text) => {
      if (!stdout.closed) process.stdout.write(text);
    },
    stderr: (text) => {
      if (!stderr.closed) process.stderr.write(text);
    },
    cwd: process.cwd(),
    env: process.env,
    // Undefined when stdout is a pipe or a file, whatever @types/node says.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion
    isTTY: Boolean(process.stdout.isTTY),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      let length = 0;
      for await (const chunk of process.stdin) {
        chunks.push(chunk as Buffer);
        length += (chunk as Buffer).length;
        if (length > MAX_FILE_BYTES) break;
      }
      return Buffer.concat(chunks).subarray(0, MAX_FILE_BYTES + 1);
    },
  };
}

const guards = new WeakMap<NodeJS.WriteStream, { closed: boolean }>();

/**
 * A reader that stops reading (`validate-agent-hooks … | head`) closes the
 * pipe: the next write fails with EPIPE, which Node raises as an unhandled
 * 'error' event, a stack trace. What is left to print then has no reader:
 * it is dropped, and the command ends with its own exit code. Any other
 * write error is said once on stderr and makes the exit code 2.
 */
function guarded(stream: NodeJS.WriteStream): { closed: boolean } {
  const known = guards.get(stream);
  if (known) return known;
  const state = { closed: false };
  guards.set(stream, state);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (state.closed) return;
    state.closed = true;
    if (error.code === 'EPIPE') return;
    process.exitCode = 2;
    if (stream !== process.stderr && !guarded(process.stderr).closed)
      process.stderr.write(`validate-agent-hooks: cannot write the output: ${error.code ?? error.message}\n`);
  });
  return state;
}

/** An in-memory CliIO for tests: collects what would be printed. */
export function memoryIO(
  options: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string; isTTY?: boolean } = {},
): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? { NO_COLOR: '1' },
    isTTY: options.isTTY ?? false,
    readStdin: () => Promise.resolve(options.stdin ?? ''),
    out: () => out,
    err: () => err,
  };
}
