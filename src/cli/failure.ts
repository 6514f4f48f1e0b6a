import { isUsageError } from './discover.js';
import type { CliIO } from '../io.js';

export const EXIT_USAGE = 2;

/** What every command does with an error that escaped it: a usage error or an internal error, one line, exit 2 (a stack only on request). */
export function reportFailure(error: unknown, io: CliIO): number {
  if (isUsageError(error)) {
    io.stderr(`validate-agent-hooks: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`validate-agent-hooks: internal error: ${message}\n`);
  if (io.env.VALIDATE_AGENT_HOOKS_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return EXIT_USAGE;
}
