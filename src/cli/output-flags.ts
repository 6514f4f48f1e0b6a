import type { CliIO } from '../io.js';

/**
 * The output flags every command takes, as the linter defines them: scripts
 * and CI pass the same `--ci` / `--no-color` to each subcommand.
 */
export const OUTPUT_FLAG_OPTIONS = {
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  ci: { type: 'boolean' },
} as const;

export const OUTPUT_FLAGS_HELP = `  --color / --no-color     Force colour on or off (default: on for a terminal; NO_COLOR and FORCE_COLOR are honoured)
  --ci                     CI mode: no colour and no terminal effects
`;

/** Whether to colour: --no-color, then --color, then --ci (never), then the environment and the terminal. */
export function colorFor(
  values: { color?: boolean | undefined; 'no-color'?: boolean | undefined; ci?: boolean | undefined },
  io: CliIO,
): boolean {
  if (values['no-color']) return false;
  if (values.color) return true;
  if (values.ci) return false;
  return colorFromEnv(io);
}

/** NO_COLOR and FORCE_COLOR as the conventions define them; otherwise colour on a terminal. */
export function colorFromEnv(io: Pick<CliIO, 'env' | 'isTTY'>): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.isTTY;
}

/**
 * node:util parseArgs' complaint in one line with balanced quotes. Its
 * unknown-option message goes on to advise `'-- "--foo"` (a quote never
 * closed); the option's name is what the user needs.
 */
export function argsErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']*)'/.exec(message);
  if (unknown) return `Unknown option '${unknown[1] ?? ''}'`;
  return message.split('\n')[0]!;
}
