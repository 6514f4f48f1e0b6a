import { eventSpec } from './contract.js';

/**
 * A handler's `if` field: exactly one permission rule such as `Bash(git *)`
 * or `Edit(*.ts)`, evaluated only on tool events; on any other event a
 * handler with `if` never runs (../shared/runtimes/claude-code-hooks.md
 * §2.4). Claude Code's own filter is best effort and fails open (runs the
 * hook) when it cannot tell; this reading does the same: a rule it cannot
 * parse, or a command with substitutions, runs the handler.
 */

export type IfResult = { runs: true; note?: string } | { runs: false; why: string };

export function evaluateIf(rule: string | undefined, event: string, input: Record<string, unknown>): IfResult {
  if (rule === undefined) return { runs: true };
  if (!eventSpec(event)?.toolEvent)
    return { runs: false, why: `\`if\` is evaluated only on tool events; on ${event} a handler with \`if\` never runs` };
  const match = /^\s*([A-Za-z0-9_]+)\s*(?:\(([\s\S]*)\))?\s*$/.exec(rule);
  if (!match) return { runs: true, note: `\`if: ${rule}\` could not be read; Claude Code fails open and runs the handler` };
  const [, tool, pattern] = match;
  if (tool !== input.tool_name) return { runs: false, why: `\`if: ${rule}\` does not match tool ${String(input.tool_name)}` };
  if (pattern === undefined || pattern === '' || pattern === '*') return { runs: true };
  const toolInput = (input.tool_input ?? {}) as Record<string, unknown>;
  const subject =
    typeof toolInput.command === 'string' ? toolInput.command : typeof toolInput.file_path === 'string' ? toolInput.file_path : undefined;
  if (subject === undefined) return { runs: true, note: `\`if: ${rule}\`: nothing in the tool input to test; runs` };
  if (typeof toolInput.command === 'string') {
    if (/\$\(|`|\$[A-Za-z_{]/.test(subject))
      return { runs: true, note: `\`if: ${rule}\`: the command has substitutions; Claude Code fails open` };
    // Leading VAR=value assignments are stripped, and each sub-command is checked.
    const parts = subject.split(/&&|\|\||[;|\n]/).map((part) => part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, ''));
    const glob = globToRegExp(pattern, false);
    return parts.some((part) => glob.test(part)) ? { runs: true } : { runs: false, why: `\`if: ${rule}\` does not match the command` };
  }
  const glob = globToRegExp(pattern, true);
  const cwd = typeof input.cwd === 'string' ? input.cwd : '';
  const relative = cwd && subject.startsWith(`${cwd}/`) ? subject.slice(cwd.length + 1) : subject;
  return glob.test(relative) || glob.test(subject) ? { runs: true } : { runs: false, why: `\`if: ${rule}\` does not match ${subject}` };
}

/** `*` any run of characters (not `/` in paths), `**` any depth, `?` one character. */
function globToRegExp(pattern: string, path: boolean): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
      if (pattern[i + 1] === '/') i++;
    } else if (char === '*') source += path ? '[^/]*' : '.*';
    else if (char === '?') source += path ? '[^/]' : '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // `Bash(git *)` also matches a bare `git`.
  return new RegExp(`^${source.replace(/ \.\*$/, '(?: .*)?')}$`);
}
