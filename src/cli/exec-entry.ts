// The CLI's entry for the executor's commands, bundled apart from the lint path (scripts/bundle.mjs):
// `run` and `simulate` start without loading the linter, and from one file instead of ~100 modules.
import { own } from '../records.js';
import { reportFailure } from './failure.js';
import type { CliIO } from '../io.js';
import { runCommand } from './run.js';
import { simulateCommand } from './simulate.js';

export { processIO } from '../io.js';

const COMMANDS: Record<string, (args: string[], io: CliIO) => Promise<number>> = { run: runCommand, simulate: simulateCommand };

/** The commands this entry serves; bin/ sends the others to the lint path's entry. */
export const EXEC_COMMANDS: readonly string[] = Object.keys(COMMANDS);

export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : own(COMMANDS, name);
  if (!command) return (await import('./main.js')).main(argv, io);
  try {
    return await command(rest, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}
