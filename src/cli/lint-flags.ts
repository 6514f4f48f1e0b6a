import { parseArgs } from 'node:util';
import { isReporterName, REPORTER_NAMES } from '../reporters/index.js';
import { UsageError } from './discover.js';
import { argsErrorMessage, withNegativeValues } from './output-flags.js';

/** The lint command's flags, parsed and checked: a bad one is a UsageError (exit 2). */
export interface LintFlags {
  all: boolean;
  root?: string;
  format: string;
  quiet: boolean;
  maxWarnings?: number;
  verbose: boolean;
  ci: boolean;
  color?: boolean;
  stdin: boolean;
  stdinFilename?: string;
  config?: string;
  inlineConfig: boolean;
  shellcheck: boolean;
  fix: boolean;
  fixDryRun: boolean;
  cache: boolean;
  cacheLocation?: string;
  files: string[];
}

const LINT_OPTIONS = {
  all: { type: 'boolean', default: false },
  root: { type: 'string' },
  format: { type: 'string', short: 'f', default: 'stylish' },
  quiet: { type: 'boolean', default: false },
  'max-warnings': { type: 'string' },
  verbose: { type: 'boolean', default: false },
  ci: { type: 'boolean', default: false },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  stdin: { type: 'boolean', default: false },
  'stdin-filename': { type: 'string' },
  cache: { type: 'boolean', default: false },
  'cache-location': { type: 'string' },
  config: { type: 'string', short: 'c' },
  'no-inline-config': { type: 'boolean', default: false },
  'no-shellcheck': { type: 'boolean', default: false },
  fix: { type: 'boolean', default: false },
  'fix-dry-run': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

export function parseLintFlags(argv: readonly string[]): LintFlags | 'help' | 'version' {
  let parsed;
  try {
    parsed = parseArgs({
      args: withNegativeValues(argv, LINT_OPTIONS),
      allowPositionals: true,
      strict: true,
      options: LINT_OPTIONS,
    });
  } catch (error) {
    throw new UsageError(`${argsErrorMessage(error)} (see --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  const flags: LintFlags = {
    all: values.all,
    format: values.format,
    quiet: values.quiet,
    verbose: values.verbose,
    ci: values.ci,
    stdin: values.stdin,
    files: positionals,
    inlineConfig: !values['no-inline-config'],
    shellcheck: !values['no-shellcheck'],
    fix: values.fix,
    fixDryRun: values['fix-dry-run'],
    cache: values.cache,
  };
  if (values.config !== undefined) flags.config = values.config;
  if (values['cache-location'] !== undefined) flags.cacheLocation = values['cache-location'];
  if (values.root !== undefined) flags.root = values.root;
  if (values['stdin-filename'] !== undefined) flags.stdinFilename = values['stdin-filename'];
  if (values['no-color']) flags.color = false;
  else if (values.color) flags.color = true;
  if (values['max-warnings'] !== undefined) {
    const n = Number(values['max-warnings']);
    if (!Number.isInteger(n) || n < -1) throw new UsageError(`--max-warnings expects a whole number, got "${values['max-warnings']}"`);
    flags.maxWarnings = n;
  }
  if (!isReporterName(flags.format)) throw new UsageError(`Unknown --format "${flags.format}": expected ${REPORTER_NAMES.join(', ')}`);
  if (flags.fix && flags.fixDryRun) throw new UsageError('--fix and --fix-dry-run exclude each other.');
  if (flags.fix && flags.stdin) throw new UsageError('--fix writes files; with --stdin use --fix-dry-run to see the diff.');
  if (!flags.stdin && !flags.all && flags.files.length === 0)
    throw new UsageError('No files to lint: name files, directories or globs, or use --all (see --help).');
  if (flags.stdin && (flags.all || flags.files.length > 0))
    throw new UsageError('--stdin lints standard input only; do not combine it with files or --all.');
  return flags;
}
