import type { HookScript, SourceSegment } from '../../hooks/types.js';

/**
 * An exec-form handler (`"command": "rm", "args": ["-rf", "x"]`) as the shell
 * command line that runs the same argv: each word single-quoted, so nothing in
 * it expands or splits. Claude Code spawns it without a shell, but what it
 * runs is as forbidden as in shell form (`rm -rf`, `sudo`, `bash -c '…'`);
 * the command rules read this line. Inside each word the text is the
 * handler's own, mapped to where it stands in the file (a finding in the
 * script of `"args": ["-c", "sudo rm -rf x"]` is placed on `sudo`); a word
 * with a `'`, quoted as `'\''`, is not mapped, and what starts at a quote
 * (a whole command) is placed on the `command` and `args` values, from the
 * first to the last.
 */
export function execFormScript(hook: HookScript): HookScript | undefined {
  const meta = hook.claudeCode;
  const command = meta?.fields.command?.valueRange;
  const args = meta?.fields.args?.valueRange;
  if (!meta || meta.form !== 'exec' || !command || !args) return undefined;
  const words = [hook.text, ...(meta.args ?? [])];
  const wordSegments = [hook.segments, ...(meta.argSegments ?? [])];
  let text = '';
  const segments: SourceSegment[] = [];
  words.forEach((word, i) => {
    if (i > 0) text += ' ';
    if (!word.includes("'")) for (const s of wordSegments[i] ?? []) segments.push({ ...s, scriptOffset: s.scriptOffset + text.length + 1 });
    text += `'${word.replace(/'/g, "'\\''")}'`;
  });
  const [first, last] =
    command.line < args.line || (command.line === args.line && command.column < args.column) ? [command, args] : [args, command];
  const valueRange = { line: first.line, column: first.column, endLine: last.endLine, endColumn: last.endColumn };
  return { ...hook, text, valueRange, segments };
}
