import { defineRule } from '../../src/engine/rule.js';
import { firstStage, pipedFrom, readsStdin, StdinTaint, takesHookStdin } from '../../src/runtimes/claude-code/stdin-taint.js';
import { commandBase } from '../../src/shell/analysis.js';
import type { ShellCommand, ShellWord } from '../../src/shell/commands.js';
import { commandNode } from '../../src/shell/printed-text.js';
import { isStdinPath } from '../../src/shell/stdin-script.js';

/**
 * `"key"` and its colon in a pattern (spacing written any way: ` *`, `\s*`, `[[:space:]]*`), then the
 * opening quote of the value, and what the value is read with.
 */
const KEY_THEN_VALUE =
  /\\?"([A-Za-z_]\w*)\\?"(?:\s|\\s|\[\[:space:\]\]|[*+?]|\\[{(][^"]*?\\?[})])*:(?:\s|\\s|\[\[:space:\]\]|[*+?])*\\?"([^]*)/;
/** A bracket expression that stops at a quote but lets a backslash through: `[^"]`, `[^",}]` (not `[^"\\]`). */
const STOPS_AT_QUOTE = /^(?:\\[(]|\(|\\K)*\[\^(?:[^\]\\]*)"(?:[^\]\\]*)\]/;
/** grep's options that take a value as the next word. */
const GREP_VALUE_OPTIONS = new Set([
  '-m',
  '-A',
  '-B',
  '-C',
  '-d',
  '-D',
  '--label',
  '--max-count',
  '--context',
  '--after-context',
  '--before-context',
]);

/**
 * A hook's stdin is JSON, and JSON writes a quote inside a string as `\"`. A
 * guard that pulls a field out of it as text, up to the first quote
 * (`grep -o '"command":"[^"]*"'`, the same class in a sed
 * substitution, `grep '"command"' | cut -d'"' -f4`), reads a command that holds a quote
 * only up to it: `echo \"x\"; rm -rf /` is read as `echo \`, and the guard
 * waves the rest through. The model writes that command.
 */
export default defineRule({
  id: 'cc-stdin-regex-parsed',
  meta: {
    description:
      'A Claude Code hook pulls a field out of its stdin JSON with grep, sed, cut or awk, up to the first quote: a value holding an escaped quote is cut short there.',
    severity: 'warning',
    category: 'injection',
    runtimes: ['claude-code'],
  },
  messages: {
    cutShort:
      'Unexpected `{{tool}}` reading `{{key}}` out of the hook\'s stdin JSON up to the first `"`: JSON writes a quote inside the value as `\\"`, so a value holding one is cut short there (the command `echo \\"x\\"; rm -rf /` is read as `echo \\`) and a test of it lets the rest through. Read the field with a JSON parser (`jq -r \'.tool_input.{{key}}\'`, or `.{{key}}` for a top-level field).',
    splitOnQuotes:
      'Unexpected `{{tool}}` splitting the hook\'s stdin JSON on `"` to read `{{key}}`: JSON writes a quote inside the value as `\\"`, so a value holding one is cut short there (the command `echo \\"x\\"; rm -rf /` is read as `echo \\`) and a test of it lets the rest through. Read the field with a JSON parser (`jq -r \'.tool_input.{{key}}\'`, or `.{{key}}` for a top-level field).',
  },
  checkScript(context) {
    const meta = context.hook.claudeCode;
    if (!meta || meta.foreignStdin) return;
    if (!/"/.test(context.hook.text)) return;
    let taint: StdinTaint | undefined;
    const readsHookJson = (command: ShellCommand): boolean => {
      taint ??= new StdinTaint(context.tree.rootNode, context.commands);
      return readsHookStdin(command, taint);
    };
    // The parsed command of each pipeline stage, by where its node starts (a wrapper's inner command is not one).
    const commandAt = new Map<number, ShellCommand>();
    for (const command of context.commands) {
      const node = commandNode(command);
      if (node && !command.wrappedBy && !commandAt.has(node.startIndex)) commandAt.set(node.startIndex, command);
    }
    for (const command of context.commands) {
      const base = commandBase(command);
      if (base === 'grep' || base === 'egrep' || base === 'sed') {
        const parts = patternParts(command, base === 'sed' ? 'sed' : 'grep');
        if (!parts || parts.files.some((f) => f.value === undefined || !isStdinPath(f.value))) continue;
        for (const pattern of parts.patterns) {
          const key = truncatingKey(pattern.value ?? pattern.text);
          if (key && readsHookJson(command)) {
            context.report({ messageId: 'cutShort', data: { tool: base, key }, range: context.range(pattern.start, pattern.end) });
            break;
          }
        }
      } else if (base === 'cut' || base === 'awk') {
        const delimiter = quoteDelimiter(command, base);
        const key = delimiter && keyFilteredUpstream(command, commandAt, readsHookJson);
        if (delimiter && key)
          context.report({ messageId: 'splitOnQuotes', data: { tool: base, key }, range: context.range(delimiter.start, delimiter.end) });
      }
    }
  },
});

/** The key a pattern reads a value of up to the first quote (`"command":"[^"]*"`), if it does. */
function truncatingKey(pattern: string): string | undefined {
  const match = KEY_THEN_VALUE.exec(pattern);
  return match && STOPS_AT_QUOTE.test(match[2]!) ? match[1] : undefined;
}

/** The key a pattern names (`"command"`), for a stage that only picks the line or the pair. */
function namedKey(pattern: string): string | undefined {
  return /\\?"([A-Za-z_]\w*)\\?"/.exec(pattern)?.[1];
}

interface Parts {
  patterns: ShellWord[];
  files: ShellWord[];
}

/** What sets each tool's pattern apart from its files: the options that give a pattern, read one from a file, or take a value. */
const TOOLS = {
  grep: { pattern: ['-e', '--regexp'], refused: /^(?:-f|--file)/, takesValue: GREP_VALUE_OPTIONS },
  // `sed -i` edits files in place: not a reader of stdin.
  sed: { pattern: ['-e', '--expression'], refused: /^(?:-f|--file|-[A-Za-z]*i|--in-place)/, takesValue: new Set(['-l', '--line-length']) },
} as const;

/** A grep's or sed's patterns (`-e`, or its first word) and the files it reads; undefined when it reads its pattern from a file. */
function patternParts(command: ShellCommand, tool: keyof typeof TOOLS): Parts | undefined {
  const { pattern, refused, takesValue } = TOOLS[tool];
  const patterns: ShellWord[] = [];
  const rest: ShellWord[] = [];
  const args = command.args;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === '--') {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (value !== undefined && (pattern as readonly string[]).includes(value)) {
      if (args[i + 1]) patterns.push(args[++i]!);
    } else if (value !== undefined && refused.test(value)) return undefined;
    else if (value !== undefined && (takesValue as ReadonlySet<string>).has(value)) i++;
    else if (value === undefined || !value.startsWith('-') || value === '-') rest.push(args[i]!);
  }
  if (patterns.length === 0 && rest.length > 0) patterns.push(rest.shift()!);
  return { patterns, files: rest };
}

/** `cut -d'"'`, `cut -d '"'`, `awk -F'"'`, `awk -F '"'`, `awk -F\"`: the word that makes `"` the delimiter. */
function quoteDelimiter(command: ShellCommand, base: 'cut' | 'awk'): ShellWord | undefined {
  const flag = base === 'cut' ? '-d' : '-F';
  const args = command.args;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === `${flag}"`) return args[i];
    if (value === flag && args[i + 1]?.value === '"') return args[i + 1];
    if (base === 'cut' && value === '--delimiter="') return args[i];
  }
  return undefined;
}

/**
 * For a `cut`/`awk` stage splitting on quotes: the key the grep or sed stage right before it picks from
 * the hook's stdin JSON (`grep '"command"' | cut -d'"' -f4`), if it does.
 */
function keyFilteredUpstream(
  command: ShellCommand,
  commandAt: ReadonlyMap<number, ShellCommand>,
  readsHookJson: (command: ShellCommand) => boolean,
): string | undefined {
  const upstream = pipedFrom(command);
  const stage = upstream?.type === 'redirected_statement' ? upstream.childForFieldName('body') : upstream;
  if (stage?.type !== 'command') return undefined;
  const name = stage.childForFieldName('name')?.text.replace(/^.*\//, '');
  if (name !== 'grep' && name !== 'egrep' && name !== 'sed') return undefined;
  const before = commandAt.get(stage.startIndex);
  if (!before || !readsHookJson(before)) return undefined;
  const parts = patternParts(before, name === 'sed' ? 'sed' : 'grep');
  if (!parts || parts.files.length > 0) return undefined;
  const patterns = parts.patterns.map((pattern) => pattern.value ?? pattern.text);
  // A stage that already reads up to the first quote is reported itself.
  if (patterns.some((pattern) => truncatingKey(pattern))) return undefined;
  return patterns.map(namedKey).find((key) => key !== undefined);
}

/**
 * Whether a command reads the hook's stdin JSON: it is given text from it (a pipe, a here-string, a
 * `< <(…)`), or reads the script's own stdin (first stage, no input of its own).
 */
function readsHookStdin(command: ShellCommand, taint: StdinTaint): boolean {
  const node = commandNode(command);
  if (!node) return false;
  // Text from it through a pipe, a here-string or a `< <(…)` (the taint's own reading of the input).
  if (taint.readsTainted(command)) return true;
  const upstream = pipedFrom(command);
  if (!upstream) return firstStage(node) && takesHookStdin(node);
  // `cat | grep …`, `cat /dev/stdin | sed …`: a stage before that passes the hook's stdin on.
  const stage = upstream.type === 'redirected_statement' ? upstream.childForFieldName('body') : upstream;
  return stage?.type === 'command' && stage.childForFieldName('name')?.text === 'cat' && firstStage(stage) && readsStdin(stage);
}
