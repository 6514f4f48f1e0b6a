import type { HookScript } from '../../hooks/types.js';

/**
 * An exec-form handler (`"command": "rm", "args": ["-rf", "x"]`) as the shell
 * command line that runs the same argv: each word single-quoted, so nothing in
 * it expands or splits. Claude Code spawns it without a shell, but what it
 * runs is as forbidden as in shell form (`rm -rf`, `sudo`, `bash -c '…'`);
 * the command rules read this line. No stretch of it is verbatim in the file:
 * a finding anywhere in it is placed on the handler's `command` and `args`
 * values, from the first to the last.
 */
export function execFormScript(hook: HookScript): HookScript | undefined {
  const meta = hook.claudeCode;
  const command = meta?.fields.command?.valueRange;
  const args = meta?.fields.args?.valueRange;
  if (!meta || meta.form !== 'exec' || !command || !args) return undefined;
  const text = [hook.text, ...(meta.args ?? [])].map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(' ');
  const [first, last] =
    command.line < args.line || (command.line === args.line && command.column < args.column) ? [command, args] : [args, command];
  const valueRange = { line: first.line, column: first.column, endLine: last.endLine, endColumn: last.endColumn };
  return { ...hook, text, valueRange, segments: [] };
}
