import { own } from '../../src/records.js';
import type { Range } from '../../src/diagnostics.js';
import { defineRule, type Report } from '../../src/engine/rule.js';
import {
  COMMON_INPUT,
  eventSpec,
  eventsOfHook,
  matchedToolsWithInput,
  TOOL_INPUT_FIELDS,
} from '../../src/runtimes/claude-code/contract.js';
import { firstStage, pipedFrom, readsStdin, takesHookStdin } from '../../src/runtimes/claude-code/stdin-taint.js';
import { isStdinPath } from '../../src/shell/stdin-script.js';
import { commandBase, inlineProgramWords, nodesOfType, variableUse } from '../../src/shell/analysis.js';
import type { ShellCommand, ShellWord } from '../../src/shell/commands.js';
import { JQ_VALUE_OPTIONS } from '../../src/shell/jq-output.js';
import { jqInputPaths } from '../../src/shell/jq-paths.js';
import type { SyntaxNode } from '../../src/shell/parser.js';
import { commandNode } from '../../src/shell/printed-text.js';
import { codeTest, parseProgramFile } from '../../src/shell/node-program.js';
import { foreignSpans, inSpans } from '../../src/runtimes/claude-code/program-platforms.js';
import { type ProgramField, type ProgramLanguage, programInputFields } from '../../src/shell/program-fields.js';
import { wordText } from '../../src/shell/script-text.js';

const JQS = new Set(['jq', 'gojq', 'jaq']);
/** Interpreters whose inline program (`-c`, `-e`) may parse the hook's stdin JSON, by the language it is in. */
const PROGRAMS: Record<string, ProgramLanguage> = { python: 'python', python3: 'python', node: 'node' };
/** What a missing field gives a program of each language. */
const READS: Record<ProgramLanguage, string> = {
  python: 'Python raises KeyError (or `.get` gives its default)',
  node: 'Node reads undefined',
};
const JQ_READS = 'jq reads null';

/**
 * A hook that reads a field its event's stdin JSON never has gets `null`
 * (an empty string with `-r`): a guard testing `.tool_input.cmd` or
 * `.toolName` never matches, so it never blocks, and nothing says so.
 */
export default defineRule({
  id: 'cc-input-field-unknown',
  meta: {
    description:
      "A Claude Code hook reads a field its event's stdin JSON does not have (`.tool_input.cmd`, `.toolName`), with jq, in an inline Python or Node program, or in a Python file it runs: it gets null, and a test of it never matches.",
    severity: 'warning',
    category: 'runtime',
    runtimes: ['claude-code'],
  },
  messages: {
    field:
      'Unexpected `{{path}}`: the stdin JSON of a `{{event}}` hook has no `{{field}}`{{suggestion}}, so {{reads}} and a test of it never matches.',
    toolField:
      'Unexpected `{{path}}`: `{{tools}}` calls have no `{{field}}` in `tool_input`{{suggestion}}; it has {{fields}}. {{Reads}}, and a test of it never matches.',
  },
  checkScript(context) {
    const meta = context.hook.claudeCode;
    // A script file whose callers all give it something else on stdin (`jq -c .tool_input | ./guard.sh`) reads that, not the hook's input.
    if (meta?.foreignStdin) return;
    const events = eventsOfHook(context.hook);
    // A script file: the tools the matchers of the hooks that run it name.
    const tools = meta?.callerEvents !== undefined ? meta.callerTools : matchedToolsWithInput(meta?.matcher, events[0] ?? '');
    const check = fieldCheck(events, tools, (report) => context.report(report));
    if (!check) return;
    const whole = wholeInputVariables(context.tree.rootNode, context.commands);
    for (const command of context.commands) {
      const base = commandBase(command) ?? '';
      if (!(JQS.has(base) || own(PROGRAMS, base)) || !readsHookInput(command, whole)) continue;
      const language = own(PROGRAMS, base);
      if (language) {
        for (const word of inlineProgramWords(command)) {
          const piece = wordText(word, context.hook.text);
          if (!piece) continue;
          // Each key at its place: a top-level field, or a field of `tool_input` (`d['tool_input']['command']` gives both).
          for (const { path, start, end } of programKeys(language, piece.text))
            check(path, context.range(piece.at[start]!, piece.after[end - 1]!), `.${path.join('.')}`, READS[language]);
        }
        continue;
      }
      const filter = filterWord(command);
      const piece = filter && wordText(filter, context.hook.text);
      if (!piece) continue;
      // A fallback (`.tool_name // .tool`) is the author's guess at another version's input, read only when the first is absent.
      for (const { path, start, end } of jqInputPaths(piece.text).filter((p) => !p.fallback))
        check(path, context.range(piece.at[start]!, piece.after[end - 1]!), `.${path.join('.')}`, JQ_READS);
    }
  },
  // A Python or Node program that hooks run (`uv run .claude/hooks/guard.py`, `node .claude/hooks/guard.js`), read as
  // the inline ones are.
  checkProgram({ program, range, report }) {
    const check = fieldCheck(program.callerEvents, program.callerTools, report);
    if (!check) return;
    const node = program.language === 'node' ? parseProgramFile(program) : undefined;
    // A Node program that does not parse (a syntax error, types in a `.js` file) is not read.
    if (program.language === 'node' && !node) return;
    // The parts that read another agent's input (a program that is the hook of several agents) are not read.
    const foreign = foreignSpans(program, node);
    for (const { path, start, end } of programKeys(program.language, program.text, node && codeTest(node)))
      if (!inSpans(foreign, start)) check(path, range(start, end), `.${path.join('.')}`, READS[program.language]);
  },
});

/**
 * What checks a field read against the input of these events (and, for
 * `tool_input`'s fields, of these tools): undefined when an event is not one
 * the contract knows, whose fields are then not known either.
 */
function fieldCheck(
  events: readonly string[],
  tools: readonly string[] | undefined,
  report: (report: Report) => void,
): ((path: readonly string[], range: Range, written: string, reads: string) => void) | undefined {
  const specs = events.map((name) => eventSpec(name));
  if (specs.length === 0 || specs.some((s) => s === undefined)) return undefined;
  const fields = new Set<string>([...COMMON_INPUT, ...specs.flatMap((s) => s!.input)]);
  const toolFields = tools && new Set(tools.flatMap((t) => own(TOOL_INPUT_FIELDS, t)!));
  return (path, range, written, reads) => {
    if (!fields.has(path[0]!)) {
      const event = specs.map((s) => s!.name).join('`/`');
      report({
        messageId: 'field',
        data: { path: written, event, field: path[0]!, suggestion: suggestion(path[0]!, fields), reads },
        range,
      });
    } else if (path[0] === 'tool_input' && path[1] !== undefined && tools && toolFields && !toolFields.has(path[1])) {
      const data = {
        path: written,
        tools: tools.join('`/`'),
        field: path[1],
        fields: [...toolFields].map((f) => `\`${f}\``).join(', '),
        suggestion: suggestion(path[1], toolFields),
        Reads: reads[0]!.toUpperCase() + reads.slice(1),
      };
      report({ messageId: 'toolField', data, range });
    }
  };
}

/** A program's reads of a top-level field or of a field of `tool_input` (`d['tool_input']['command']` gives both), fallbacks left out. */
function programKeys(language: ProgramLanguage, text: string, codeAt?: (offset: number) => boolean): ProgramField[] {
  return programInputFields(language, text, codeAt).filter(
    (f) => !f.fallback && (f.path.length === 1 || (f.path.length === 2 && f.path[0] === 'tool_input')),
  );
}

/** A jq whose input is the hook's stdin JSON: read directly, or from a variable holding all of it (`INPUT=$(cat)`), echoed or as a here-string. */
function readsHookInput(command: ShellCommand, whole: ReadonlySet<string>): boolean {
  const node = commandNode(command);
  if (!node) return false;
  const stage = node.parent?.type === 'redirected_statement' ? node.parent : node;
  // The grammar puts a here-string on the command itself, or on the statement around it.
  const herestring = nodesOfType(stage, ['herestring_redirect'])[0];
  if (herestring) return holdsWhole(herestring.namedChildren.find((c) => c !== null) ?? null, whole);
  const upstream = pipedFrom(command);
  if (!upstream) return firstStage(stage) && readsStdin(node);
  // `echo "$INPUT" | jq …`, `printf '%s' "$INPUT" | jq …`.
  const name = upstream.type === 'command' ? upstream.childForFieldName('name')?.text : undefined;
  const args = upstream.type === 'command' ? upstream.childrenForFieldName('argument').filter((a) => a !== null) : [];
  if (name === 'echo' && args.length === 1) return holdsWhole(args[0]!, whole);
  return name === 'printf' && args.length === 2 && /^['"]%s(?:\\n)?['"]$/.test(args[0]!.text) && holdsWhole(args[1]!, whole);
}

/** `"$INPUT"` (or `$INPUT`) of a variable holding the whole input. */
function holdsWhole(word: SyntaxNode | null, whole: ReadonlySet<string>): boolean {
  if (!word) return false;
  const inner = word.type === 'string' && word.namedChildCount === 1 ? word.namedChildren[0]! : word;
  const use = variableUse(inner);
  return use !== undefined && !use.length && use.operator === undefined && whole.has(use.name);
}

/** Variables that hold all of the hook's stdin: `X=$(cat)`, `X=$(</dev/stdin)`, `X=$(cat /dev/fd/0)`, `read -r X`. */
function wholeInputVariables(root: SyntaxNode, commands: readonly ShellCommand[]): Set<string> {
  const whole = new Set<string>();
  for (const assignment of nodesOfType(root, ['variable_assignment'])) {
    const value = assignment.childForFieldName('value');
    const name = assignment.childForFieldName('name')?.text;
    const inner = value?.type === 'string' && value.namedChildCount === 1 ? value.namedChildren[0]! : value;
    if (name && inner?.type === 'command_substitution' && readsAll(inner)) whole.add(name);
  }
  for (const command of commands) {
    const node = commandNode(command);
    if (command.name.value !== 'read' || (node !== undefined && !takesHookStdin(node))) continue;
    const names = command.args.filter((a) => a.value !== undefined && /^[A-Za-z_]\w*$/.test(a.value));
    // One name takes the whole line; with more, the line is split.
    if (names.length === 1) whole.add(names[0]!.value!);
  }
  return whole;
}

/** `$(cat)`, `$(cat /dev/fd/0)`, `$(</dev/stdin)`: all of the hook's stdin, unchanged. */
function readsAll(substitution: SyntaxNode): boolean {
  const destination = substitution.childForFieldName('redirect')?.childForFieldName('destination');
  if (destination) return isStdinPath(destination.text);
  const [only, ...rest] = substitution.namedChildren;
  return rest.length === 0 && only?.type === 'command' && only.childForFieldName('name')?.text === 'cat' && readsStdin(only);
}

/** jq's filter: its first word that is neither an option nor an option's value; none with `-f` (the filter is in a file), `-n`, `-R` or `-s`. */
function filterWord(command: ShellCommand): ShellWord | undefined {
  const args = command.args;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === undefined) return undefined;
    if (
      value === '-f' ||
      value === '--from-file' ||
      /^-[a-zA-Z]*[nRs]/.test(value) ||
      ['--null-input', '--raw-input', '--slurp'].includes(value)
    )
      return undefined;
    const skip = own(JQ_VALUE_OPTIONS, value);
    if (skip !== undefined) i += skip;
    else if (!value.startsWith('-')) return args[i];
  }
  return undefined;
}

/** `, not \`tool_name\``… when a field of the input is written near the one read (another case, camelCase, a typo, another name for it). */
function suggestion(field: string, known: ReadonlySet<string>): string {
  const snake = field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const meant = own(MEANT, snake);
  const near =
    (meant !== undefined && known.has(meant) ? meant : undefined) ??
    [...known].find((k) => k === snake || k.toLowerCase() === field.toLowerCase()) ??
    [...known].find((k) => distance(k, field) <= 2);
  return near === undefined ? '' : ` (did you mean \`${near}\`?)`;
}

/** Names written for a field of another name that means the same (other tools' and older versions' names). */
const MEANT: Record<string, string> = {
  tool: 'tool_name',
  tool_output: 'tool_response',
  tool_result: 'tool_response',
  result: 'tool_response',
  output: 'tool_response',
  arguments: 'tool_input',
  args: 'tool_input',
  tool_args: 'tool_input',
  tool_params: 'tool_input',
  user_prompt: 'prompt',
  cmd: 'command',
  file: 'file_path',
  filename: 'file_path',
};

/** Levenshtein distance, for short field names. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}
