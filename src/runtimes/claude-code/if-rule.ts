import { eventSpec } from './contract.js';

/**
 * A handler's `if` field: exactly one permission rule such as `Bash(git *)`
 * or `Edit(*.ts)`, evaluated only on tool events; on any other event a
 * handler with `if` never runs (../shared/runtimes/claude-code-hooks.md
 * §2.4). Claude Code's own filter is best effort: leading `VAR=value`
 * assignments are stripped, each sub-command is checked, and so are the
 * contents of `$()` and backticks. It fails open (runs the hook) when the
 * command cannot be parsed, and when the pattern names more than the command
 * itself and the command has `$()`, backticks or `$VAR`. This reading does the
 * same. A pattern names only the command when it is one word, alone or
 * followed by ` *` or `:*` (`git`, `git *`, `git:*`): it says nothing about
 * arguments a substitution could hide. `git push *` names an argument too,
 * and so does any pattern with more than one word or a wildcard inside its
 * first word.
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
    const commands = splitSubstitutions(subject);
    if (commands === undefined) return { runs: true, note: `\`if: ${rule}\`: the command could not be parsed; Claude Code fails open` };
    if (!namesOnlyTheCommand(pattern) && /\$\(|`|\$[A-Za-z_{]/.test(subject))
      return {
        runs: true,
        note: `\`if: ${rule}\`: the pattern names more than the command and the command has substitutions; Claude Code fails open`,
      };
    // Leading VAR=value assignments are stripped, and each sub-command is checked, those in $() and backticks too.
    const parts = commands.flatMap((command) =>
      command.split(/&&|\|\||[;|&\n()]/).map((part) => part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '')),
    );
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

/** `git`, `git *`, `git:*`: one word, no wildcard in it, and at most a wildcard for the arguments. */
function namesOnlyTheCommand(pattern: string): boolean {
  return /^[^\s*?]+(?: \*|:\*)?$/.test(pattern.trim());
}

/**
 * The command with each `$(…)` and backtick substitution replaced by a
 * placeholder word, then the contents of each (recursively): every one is a
 * command line of its own to check. Undefined when a substitution is not
 * closed (the command cannot be parsed). Quotes are not tracked: a `$(` in
 * single quotes is read as a substitution too, which only adds a command to
 * check.
 */
function splitSubstitutions(command: string): string[] | undefined {
  const lines: string[] = [];
  let outer = '';
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (char === '$' && command[i + 1] === '(' && command[i + 2] !== '(') {
      let depth = 1;
      let j = i + 2;
      for (; j < command.length && depth > 0; j++) {
        if (command[j] === '(') depth++;
        else if (command[j] === ')') depth--;
      }
      if (depth > 0) return undefined;
      const inner = splitSubstitutions(command.slice(i + 2, j - 1));
      if (inner === undefined) return undefined;
      lines.push(...inner);
      outer += '_';
      i = j - 1;
    } else if (char === '`') {
      const end = command.indexOf('`', i + 1);
      if (end === -1) return undefined;
      const inner = splitSubstitutions(command.slice(i + 1, end));
      if (inner === undefined) return undefined;
      lines.push(...inner);
      outer += '_';
      i = end;
    } else outer += char;
  }
  return [outer, ...lines];
}
