import { own } from '../records.js';
import { commandBase, echoOptions, variableUse } from './analysis.js';
import type { ShellCommand, ShellWord } from './commands.js';
import { JQ_VALUE_OPTIONS, jqOutput } from './jq-output.js';
import { nodesOfType } from './node-index.js';
import type { SyntaxNode } from './parser.js';

/**
 * What a command writes to stdout, as text placed in the script: for rules
 * that read the JSON a hook prints (Claude Code reads its decisions there).
 * Each character of the text knows the script offset it comes from, so a
 * finding about a key of the printed JSON lands on that key in the file,
 * through quotes and escapes. Where the shell substitutes a value (`$x`,
 * `$(…)`, a printf conversion) the text holds one EXPANSION_MARK at the
 * expansion's start.
 */
export interface PrintedText {
  text: string;
  /** Where in the script each character of `text` comes from: the start of its source (an escape's backslash, an expansion's `$`)… */
  offsets: number[];
  /** …and the end of it. */
  ends: number[];
}

/** Stands for a value the shell substitutes at run time (a private-use character: valid inside a JSON string). */
export const EXPANSION_MARK = '\uE000';
/** Stands, inside a JSON string, for a value of any type known only at run time (a jq expression: `.x`, `$n + 1`). */
export const ANY_VALUE_MARK = '\uE001';

const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion']);

/** The `command` node a parsed command sits in, if any. */
export function commandNode(command: ShellCommand): SyntaxNode | undefined {
  const name = command.name.node;
  return name.parent?.type === 'command' ? name.parent : name.parent?.parent?.type === 'command' ? name.parent.parent : undefined;
}

/** Nodes a command may sit in and still run whatever happens before it. */
const UNCONDITIONAL = new Set(['program', 'redirected_statement', 'command']);

/** A command that runs whatever happens before it: not inside a branch, loop, function or `&&`/`||` list. */
export function runsUnconditionally(command: ShellCommand): boolean {
  for (let node = commandNode(command)?.parent; node; node = node.parent) if (!UNCONDITIONAL.has(node.type)) return false;
  return true;
}

/** Not captured (`$(…)`), not piped on, not redirected away from stdout. */
export function writesStdout(node: SyntaxNode): boolean {
  for (let parent = node.parent, child = node; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'command_substitution' || parent.type === 'process_substitution') return false;
    if (parent.type === 'pipeline' && parent.namedChildren[parent.namedChildren.length - 1]?.id !== child.id) return false;
    if (parent.type === 'redirected_statement' && redirectsStdout(parent)) return false;
  }
  return true;
}

/**
 * Whether a statement's redirections send stdout elsewhere: `> file`, `>&2`,
 * `&>`, `>>`; also those written after a here-document's delimiter
 * (`cat <<EOF > state.json`, `cat <<EOF | curl -d @- …`), which tree-sitter
 * places inside the here-document's redirect.
 */
function redirectsStdout(statement: SyntaxNode): boolean {
  const own = (node: SyntaxNode): boolean => node.parent?.id === statement.id;
  const afterHeredoc = (node: SyntaxNode): boolean => node.parent?.type === 'heredoc_redirect' && node.parent.parent?.id === statement.id;
  if (nodesOfType(statement, ['file_redirect']).some((r) => /^(?:1?>|&>|>>)/.test(r.text) && (own(r) || afterHeredoc(r)))) return true;
  return nodesOfType(statement, ['pipeline']).some(afterHeredoc);
}

/**
 * The text `echo ARG`, `printf FORMAT [ARGS]`, `cat <<EOF` or `jq -n '{…}'` writes to
 * stdout, when it is one piece the script spells out; undefined for any
 * other command, output that goes elsewhere, or text the shell would
 * reshape in ways not followed here (`echo -e` escapes, unquoted globs and
 * braces, `$'…'`, a printf format used more than once).
 */
export function printedText(command: ShellCommand, source: string, captured?: CapturedPrints): PrintedText | undefined {
  const node = commandNode(command);
  return node && writesStdout(node) ? printOf(command, node, source, captured) : undefined;
}

/**
 * What the script's captured prints stand for (`"$(jq -n '{…}')"`, `OUT=$(printf …)`), by the start of
 * their `$(…)`: a substitution that holds one print this module reads, its trailing newlines dropped.
 */
export type CapturedPrints = ReadonlyMap<number, PrintedText>;

export function capturedPrints(commands: readonly ShellCommand[], source: string): CapturedPrints {
  const captured = new Map<number, PrintedText>();
  // Inner substitutions first (they start later), so that `$(echo "$(jq -n …)")` finds what the inner one prints.
  for (const command of [...commands].reverse()) {
    const node = commandNode(command);
    let statement = node;
    if (statement?.parent?.type === 'redirected_statement' && !redirectsStdout(statement.parent)) statement = statement.parent;
    const substitution = statement?.parent;
    if (!node || substitution?.type !== 'command_substitution' || substitution.namedChildCount !== 1) continue;
    const printed = printOf(command, node, source, captured);
    const kept = printed?.text.replace(/\n+$/, '').length;
    if (printed && kept !== undefined)
      captured.set(substitution.startIndex, {
        text: printed.text.slice(0, kept),
        offsets: printed.offsets.slice(0, kept),
        ends: printed.ends.slice(0, kept),
      });
  }
  return captured;
}

function printOf(command: ShellCommand, node: SyntaxNode, source: string, captured: CapturedPrints | undefined): PrintedText | undefined {
  switch (commandBase(command)) {
    case 'echo':
      return echoText(command, source, captured);
    case 'printf':
      return printfText(command, source, captured);
    case 'cat':
      return command.args.every((a) => a.value === '-') ? (heredocText(node, source) ?? herestringText(node, source, captured)) : undefined;
    case 'jq':
      return jqText(command, source);
    default:
      return undefined;
  }
}

function echoText(command: ShellCommand, source: string, captured: CapturedPrints | undefined): PrintedText | undefined {
  const options = echoOptions(command.args);
  const at = options.length;
  const interprets = options.some((option) => option.value!.includes('e'));
  if (command.args.length !== at + 1) return undefined;
  const text = mapWordOrValue(command.args[at]!.node, source, captured);
  return text && !(interprets && text.text.includes('\\')) ? text : undefined;
}

function printfText(command: ShellCommand, source: string, captured: CapturedPrints | undefined): PrintedText | undefined {
  const args = command.args[0]?.value === '--' ? command.args.slice(1) : command.args;
  // `printf -v NAME` assigns instead of printing.
  if (!args[0] || args[0].value?.startsWith('-')) return undefined;
  const format = mapWord(args[0].node, source);
  return format && printfOutput(format, args.slice(1), source, captured);
}

/**
 * The JSON `jq -n FILTER` prints when its filter builds one object or array
 * (src/shell/jq-output.ts): `jq -n --arg r "$R" '{decision: "block", reason: $r}'`.
 */
function jqText(command: ShellCommand, source: string): PrintedText | undefined {
  const strings = new Set<string>();
  let nullInput = false;
  let filter: ShellWord | undefined;
  const args = command.args;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === undefined) {
      if (filter) continue;
      return undefined;
    }
    if (value === '--args' || value === '--jsonargs') break;
    // A filter read from a file, or output that is not the JSON text alone.
    if (['-f', '--from-file', '--seq', '--stream', '-h', '--help'].includes(value)) return undefined;
    const takes = own(JQ_VALUE_OPTIONS, value);
    if (takes !== undefined) {
      if (value === '--arg' && args[i + 1]?.value) strings.add(args[i + 1]!.value!);
      i += takes;
    } else if (value === '--null-input') nullInput = true;
    else if (/^-[A-Za-z]+$/.test(value)) {
      if (value.includes('f')) return undefined;
      if (value.includes('n')) nullInput = true;
    } else if (!value.startsWith('--') && !filter) filter = args[i];
  }
  const text = nullInput && filter ? mapWord(filter.node, source) : undefined;
  if (!text || text.text.includes(EXPANSION_MARK)) return undefined;
  return jqOutput(text, strings, { string: EXPANSION_MARK, any: ANY_VALUE_MARK });
}

/** The here-string of `cat <<< '…'` (its trailing newline left out). */
function herestringText(node: SyntaxNode, source: string, captured: CapturedPrints | undefined): PrintedText | undefined {
  const statement = node.parent?.type === 'redirected_statement' ? node.parent : node;
  const word = nodesOfType(statement, ['herestring_redirect'])[0]?.firstNamedChild;
  return word ? mapWordOrValue(word, source, captured) : undefined;
}

/**
 * A word's value as `mapWord` reads it; a word that is only a variable
 * (`"$OUT"`) the script assigns once, to text it spells out, is read as that
 * text, placed where the assignment writes it; a word that is only a captured
 * print (`"$(jq -n '{…}')"`, or a variable assigned once to one) as what it prints.
 */
function mapWordOrValue(node: SyntaxNode, source: string, captured: CapturedPrints | undefined): PrintedText | undefined {
  const mapped = mapWord(node, source);
  if (mapped?.text !== EXPANSION_MARK) return mapped;
  const inner = node.type === 'string' ? node.firstNamedChild : node;
  if (inner?.type === 'command_substitution') return captured?.get(inner.startIndex) ?? mapped;
  const use = inner ? variableUse(inner) : undefined;
  if (!use || use.operator !== undefined || use.length) return mapped;
  const assignments = nodesOfType(node.tree.rootNode, ['variable_assignment']).filter(
    (a) => a.childForFieldName('name')?.text === use.name,
  );
  const value = assignments.length === 1 ? assignments[0]!.childForFieldName('value') : null;
  if (!value || value.startIndex >= node.startIndex) return mapped;
  const valueInner = value.type === 'string' && value.namedChildCount === 1 ? value.firstNamedChild : value;
  const resolved = valueInner?.type === 'command_substitution' ? captured?.get(valueInner.startIndex) : mapWord(value, source);
  return resolved && !(resolved.text.includes(EXPANSION_MARK) && valueInner?.type !== 'command_substitution') ? resolved : mapped;
}

/** The here-document of `cat <<EOF`. */
function heredocText(node: SyntaxNode, source: string): PrintedText | undefined {
  const redirect =
    node.parent?.type === 'redirected_statement' ? node.parent.namedChildren.find((c) => c?.type === 'heredoc_redirect') : undefined;
  const body = redirect?.namedChildren.find((c) => c?.type === 'heredoc_body');
  const start = redirect?.namedChildren.find((c) => c?.type === 'heredoc_start');
  if (!body || !start) return undefined;
  const out = new Mapped();
  // A quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\EOF`) leaves the body as it is written.
  if (/['"\\]/.test(start.text)) return out.literal(source, body.startIndex, body.endIndex).done();
  return mapExpanding(body, body.startIndex, body.endIndex, source, out, HEREDOC_ESCAPES) ? out.done() : undefined;
}

class Mapped {
  text = '';
  offsets: number[] = [];
  ends: number[] = [];
  add(char: string, offset: number, end = offset + 1): this {
    this.text += char;
    this.offsets.push(offset);
    this.ends.push(end);
    return this;
  }
  literal(source: string, from: number, to: number): this {
    for (let i = from; i < to; i++) this.add(source[i]!, i);
    return this;
  }
  done(): PrintedText {
    return { text: this.text, offsets: this.offsets, ends: this.ends };
  }
}

/** After a backslash, the characters that it escapes: inside double quotes, and in an unquoted here-document. */
const DOUBLE_QUOTE_ESCAPES = '$`"\\\n';
const HEREDOC_ESCAPES = '$`\\\n';

/** A word's value with quotes removed and expansions marked; undefined for a shape not followed. */
function mapWord(node: SyntaxNode, source: string, out = new Mapped()): PrintedText | undefined {
  const ok = (n: SyntaxNode): boolean => {
    switch (n.type) {
      case 'raw_string':
        out.literal(source, n.startIndex + 1, n.endIndex - 1);
        return true;
      case 'string':
        return mapExpanding(n, n.startIndex + 1, n.endIndex - 1, source, out, DOUBLE_QUOTE_ESCAPES);
      case 'word':
      case 'number':
        return mapUnquoted(source, n.startIndex, n.endIndex, out);
      case 'concatenation':
        return n.children.every((child) => child !== null && ok(child));
      default:
        if (!EXPANSIONS.has(n.type)) return false;
        out.add(EXPANSION_MARK, n.startIndex, n.endIndex);
        return true;
    }
  };
  return ok(node) ? out.done() : undefined;
}

/** Unquoted text: a backslash quotes the next character; globs and braces would reshape it, so they end the reading. */
function mapUnquoted(source: string, from: number, to: number, out: Mapped): boolean {
  for (let i = from; i < to; i++) {
    const char = source[i]!;
    if ('*?[]{}$`~'.includes(char)) return false;
    if (char === '\\' && i + 1 < to) out.add(source[i + 1]!, i++, i + 1);
    else out.add(char, i);
  }
  return true;
}

/** Double-quoted text or an unquoted here-document: literal text, escapes, and the expansions tree-sitter found. */
function mapExpanding(node: SyntaxNode, from: number, to: number, source: string, out: Mapped, escapes: string): boolean {
  let at = from;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'string_content' || child.type === 'heredoc_content') continue;
    if (!EXPANSIONS.has(child.type)) return false;
    if (!mapEscaped(source, at, child.startIndex, out, escapes)) return false;
    out.add(EXPANSION_MARK, child.startIndex, child.endIndex);
    at = child.endIndex;
  }
  return mapEscaped(source, at, to, out, escapes);
}

function mapEscaped(source: string, from: number, to: number, out: Mapped, escapes: string): boolean {
  for (let i = from; i < to; i++) {
    const char = source[i]!;
    if (char === '\\' && i + 1 < to && escapes.includes(source[i + 1]!)) {
      if (source[i + 1] !== '\n') out.add(source[i + 1]!, i, i + 2);
      i++;
    } else if (char === '`' || (char === '$' && /[\w{(@*#?!$-]/.test(source[i + 1] ?? ''))) {
      // An expansion tree-sitter left inside the text: its value is not known.
      return false;
    } else out.add(char, i);
  }
  return true;
}

const CONVERSION = /^%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*)?)?[diouxXfeEgGcsbq]/;
const PRINTF_ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', "'": "'", n: '\n', t: '\t', r: '\r' };

/**
 * printf's output for a format and its values: the format's escapes decoded,
 * a plain `%s` (or `%b` without backslashes) replaced by its value as the
 * script spells it (`printf '%s\n' '{"decision":"block"}'`), nothing when
 * the value is missing, and every other conversion marked as an expansion.
 */
function printfOutput(
  format: PrintedText,
  values: readonly ShellWord[],
  source: string,
  captured: CapturedPrints | undefined,
): PrintedText | undefined {
  const out = new Mapped();
  let conversions = 0;
  const { text, offsets, ends } = format;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      const decoded = PRINTF_ESCAPES[text[i + 1] ?? ''];
      if (decoded === undefined) return undefined;
      out.add(decoded, offsets[i]!, ends[i + 1]);
      i++;
    } else if (char === '%') {
      if (text[i + 1] === '%') {
        out.add('%', offsets[i]!, ends[i + 1]);
        i++;
        continue;
      }
      const conversion = CONVERSION.exec(text.slice(i));
      if (!conversion || conversion[0].includes('*')) return undefined;
      const value = values[conversions++];
      if (conversion[0] === '%s' || conversion[0] === '%b') {
        // No value left: printf prints nothing for it.
        if (!value) {
          i += 1;
          continue;
        }
        const spelled = mapWordOrValue(value.node, source, captured);
        if (spelled && !(conversion[0] === '%b' && spelled.text.includes('\\'))) {
          spelled.text.split('').forEach((c, k) => out.add(c, spelled.offsets[k]!, spelled.ends[k]));
          i += 1;
          continue;
        }
      }
      out.add(EXPANSION_MARK, offsets[i]!, ends[i + conversion[0].length - 1]);
      i += conversion[0].length - 1;
    } else out.add(char, offsets[i]!, ends[i]);
  }
  // More values than conversions: printf prints the format again for the rest.
  if (conversions > 0 && values.length > conversions) return undefined;
  return out.done();
}

/**
 * A member's value the shell fills in raw (`{"continue": $GO}`) as a value of
 * any type (a string holding ANY_VALUE_MARK, placed on the expansion): its key
 * is still judged, and the rest of the object. A raw expansion anywhere else
 * (a key, members spliced in: `{"a": 1, $REST}`) is left as it is, and the
 * print is not read.
 */
export function quoteRawValues(printed: PrintedText): PrintedText {
  if (!printed.text.includes(EXPANSION_MARK)) return printed;
  const out: PrintedText = { text: '', offsets: [], ends: [] };
  const push = (char: string, i: number): void => {
    out.text += char;
    out.offsets.push(printed.offsets[i]!);
    out.ends.push(printed.ends[i]!);
  };
  const { text } = printed;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (inString) {
      if (char === '\\' && i + 1 < text.length) push(char, i++);
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === EXPANSION_MARK && out.text.trimEnd().endsWith(':') && /^\s*[,}]/.test(text.slice(i + 1))) {
      for (const quoted of ['"', ANY_VALUE_MARK, '"']) push(quoted, i);
      continue;
    }
    push(text[i]!, i);
  }
  return out;
}
