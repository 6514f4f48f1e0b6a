import { parseArgs, type ParseArgsConfig } from 'node:util';
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

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;
type ParsedCommandArgs<O extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof HELP_OPTION & O & typeof OUTPUT_FLAG_OPTIONS }>
>;

/**
 * A subcommand's arguments: its own options, `-h/--help` and the output
 * flags every command takes, positionals allowed, unknown options refused.
 * A mistake comes back as `error` (one line, see argsErrorMessage) for the
 * command to report its own way.
 */
export function parseCommandArgs<O extends OptionsConfig>(args: readonly string[], options: O): ParsedCommandArgs<O> | { error: string } {
  const all = { ...HELP_OPTION, ...options, ...OUTPUT_FLAG_OPTIONS };
  try {
    return parseArgs({
      args: withNegativeValues(args, all),
      allowPositionals: true,
      strict: true,
      options: all,
    });
  } catch (error) {
    return { error: argsErrorMessage(error) };
  }
}

/**
 * The arguments with `--flag -1` written `--flag=-1` where `--flag` takes a
 * value: node:util parseArgs refuses a value that starts with a dash as
 * "ambiguous", though ESLint (`--max-warnings -1`) and most tools take a
 * negative number there. Only a number is joined: `--flag -x` still fails,
 * as it should, and a string option takes its next argument anyway, so no
 * other command line changes meaning. Short options (`-n -1`) alike.
 */
export function withNegativeValues(args: readonly string[], options: OptionsConfig): string[] {
  const takesValue = new Set<string>();
  for (const [name, option] of Object.entries(options)) {
    if (option.type !== 'string') continue;
    takesValue.add(`--${name}`);
    if (option.short) takesValue.add(`-${option.short}`);
  }
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    if (takesValue.has(arg) && next !== undefined && /^-(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(next)) {
      out.push(arg.startsWith('--') ? `${arg}=${next}` : `${arg}${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
