import { ANY_VALUE_MARK, type PrintedText } from './printed-text.js';
import { pythonScopes } from './python-scopes.js';

/**
 * The hook outputs a Python program spells out as dict literals
 * (`print(json.dumps({"hookSpecificOutput": {"permissionDecision": "deny", …}}))`),
 * each as the JSON it prints, placed in the program as a shell print is in
 * its script (PrintedText): a key or a value of the JSON knows the literal it
 * comes from. A value the program computes (a name, a call, an f-string) is a
 * string holding ANY_VALUE_MARK, a value of any type known only at run time.
 *
 * A dict is taken for an output when it has a `hookSpecificOutput` key, or a
 * `decision` that is one of Claude Code's words; one with a computed key or
 * `**` spread is not read. Dicts inside an output are part of it.
 */
export function pythonOutputs(program: string): PrintedText[] {
  if (!/hookSpecificOutput|["']decision["']/.test(program)) return [];
  const scopes = pythonScopes(program);
  const isCode = (offset: number): boolean => scopes.isCode(offset);
  const outputs: PrintedText[] = [];
  for (let open = program.indexOf('{'); open !== -1; open = program.indexOf('{', open + 1)) {
    if (!isCode(open)) continue;
    const reader = new LiteralReader(program, isCode);
    if (!reader.value(open)) continue;
    const printed = reader.out;
    if (!isHookOutput(printed.text)) continue;
    open = reader.at - 1;
    if (!printedToStderr(program, printed.offsets[0]!, reader.at, isCode)) outputs.push(printed);
  }
  return outputs;
}

/**
 * Where a program puts each output: the dict literal where it is written
 * (`print(json.dumps({…}))`), and where a name it is assigned to (`out = {…}`,
 * at the start of a line) is dumped after (`json.dumps(out)`, `json.dump(out,
 * sys.stdout)`), as a decision built first and printed in the branch that
 * exits is. Offsets in the program, with the output each place prints.
 */
export function pythonOutputPrints(program: string): Array<{ at: number; printed: PrintedText }> {
  const outputs = pythonOutputs(program);
  if (outputs.length === 0) return [];
  const scopes = pythonScopes(program);
  const prints: Array<{ at: number; printed: PrintedText }> = [];
  for (const printed of outputs) {
    const open = printed.offsets[0] ?? -1;
    prints.push({ at: open, printed });
    const name = /(?:^|\n)[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*$/.exec(program.slice(Math.max(0, open - 200), open))?.[1];
    if (name === undefined) continue;
    for (const dump of program.slice(open).matchAll(new RegExp(`\\bjson\\.dumps?\\(\\s*${name}\\b(?!\\s*[.[(])`, 'g'))) {
      const at = open + dump.index;
      if (scopes.isCode(at)) prints.push({ at, printed });
    }
  }
  return prints;
}

/**
 * Whether the dict literal at `open` (ending at `end`) is dumped to stderr, which Claude Code shows (as a
 * blocking exit's reason) but does not read as the hook's output: `print(json.dumps({…}), file=sys.stderr)`,
 * `sys.stderr.write(json.dumps({…}))`, `json.dump({…}, sys.stderr)`.
 */
function printedToStderr(program: string, open: number, end: number, isCode: (offset: number) => boolean): boolean {
  const before = program.slice(Math.max(0, open - 200), open);
  if (/\bsys\.stderr\.write\(\s*json\.dumps\(\s*$/.test(before)) return true;
  if (/\bjson\.dump\(\s*$/.test(before)) return /^\s*,\s*sys\.stderr\b/.test(program.slice(end, end + 40));
  const print = /\bprint\(\s*json\.dumps\(\s*$/.exec(before);
  if (!print) return false;
  // print's own arguments, up to its closing parenthesis (brackets in strings and comments do not count).
  const from = open - before.length + print.index + print[0].indexOf('(');
  let depth = 0;
  let to = from;
  for (; to < program.length; to++) {
    if (!isCode(to)) continue;
    const char = program[to]!;
    if (char === '(' || char === '[' || char === '{') depth++;
    else if ((char === ')' || char === ']' || char === '}') && --depth === 0) break;
  }
  for (const file of program.slice(from, to).matchAll(/\bfile\s*=\s*sys\.stderr\b/g)) if (isCode(from + file.index)) return true;
  return false;
}

const DECISIONS = new Set(['approve', 'block', 'allow', 'deny', 'ask']);

/** Whether JSON text is a hook output: a `hookSpecificOutput` key, or a `decision` that is one of Claude Code's words. */
export function isHookOutput(json: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return false;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const object = value as Record<string, unknown>;
  return 'hookSpecificOutput' in object || (typeof object.decision === 'string' && DECISIONS.has(object.decision));
}

/** Reads one Python literal into JSON text, each character placed at the source it comes from. */
class LiteralReader {
  readonly out: PrintedText = { text: '', offsets: [], ends: [] };
  /** Where reading stopped: after the last value read. */
  at = 0;

  constructor(
    private readonly program: string,
    private readonly isCode: (offset: number) => boolean,
  ) {}

  private emit(text: string, start: number, end: number): void {
    this.out.text += text;
    for (let i = 0; i < text.length; i++) {
      this.out.offsets.push(start);
      this.out.ends.push(end);
    }
  }

  /** Past spaces, newlines, line continuations and comments. */
  private skip(i: number): number {
    const p = this.program;
    for (;;) {
      while (i < p.length && /[ \t\r\n\\]/.test(p[i]!)) i++;
      if (p[i] !== '#') return i;
      while (i < p.length && p[i] !== '\n') i++;
    }
  }

  /** A value from `i`: JSON for it is emitted; false when it cannot be read as JSON (a computed key, a spread). */
  value(i: number): boolean {
    const p = this.program;
    i = this.skip(i);
    const c = p[i];
    if (c === '{' || c === '[') return this.container(i);
    const literal = this.strings(i) ?? this.constant(i);
    if (literal) {
      this.emit(literal.json, i, literal.end);
      this.at = literal.end;
      return true;
    }
    // Anything else is computed at run time: up to the `,` or bracket that ends it.
    const end = this.expressionEnd(i);
    if (end === i) return false;
    this.emit(JSON.stringify(ANY_VALUE_MARK), i, end);
    this.at = end;
    return true;
  }

  private container(open: number): boolean {
    const p = this.program;
    const dict = p[open] === '{';
    const close = dict ? '}' : ']';
    this.emit(p[open]!, open, open + 1);
    let i = this.skip(open + 1);
    let first = true;
    while (p[i] !== close) {
      if (i >= p.length || p[i] === '*') return false;
      if (!first) this.emit(',', i, i);
      first = false;
      if (dict) {
        const key = this.strings(i);
        if (!key || key.json === JSON.stringify(ANY_VALUE_MARK)) return false;
        this.emit(key.json, i, key.end);
        i = this.skip(key.end);
        if (p[i] !== ':') return false;
        this.emit(':', i, i + 1);
        i++;
      }
      if (!this.value(i)) return false;
      i = this.skip(this.at);
      if (p[i] === ',') i = this.skip(i + 1);
      else if (p[i] !== close) return false;
    }
    this.emit(close, i, i + 1);
    this.at = i + 1;
    return true;
  }

  /** `True`, `False`, `None` or a number, as JSON. */
  private constant(i: number): { json: string; end: number } | undefined {
    const match = /^(?:True|False|None|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w.])/.exec(this.program.slice(i, i + 40));
    if (!match) return undefined;
    const json = match[0] === 'True' ? 'true' : match[0] === 'False' ? 'false' : match[0] === 'None' ? 'null' : match[0];
    return { json, end: i + match[0].length };
  }

  /** Adjacent string literals (`'a' "b"`), joined, as a JSON string; an f-string among them makes it computed. */
  private strings(i: number): { json: string; end: number } | undefined {
    const p = this.program;
    let value = '';
    let computed = false;
    let end: number | undefined;
    for (let at = i; ; ) {
      const prefix = /^[rRbBuUfF]{0,2}(?=['"])/.exec(p.slice(at, at + 3));
      if (!prefix) break;
      const quoteAt = at + prefix[0].length;
      const quote = p.startsWith(p[quoteAt]!.repeat(3), quoteAt) ? p[quoteAt]!.repeat(3) : p[quoteAt]!;
      const close = this.closingQuote(quoteAt + quote.length, quote);
      if (close === undefined) return undefined;
      const raw = p.slice(quoteAt + quote.length, close);
      if (/f/i.test(prefix[0])) computed = true;
      value += /r/i.test(prefix[0]) ? raw : unescape(raw);
      end = close + quote.length;
      at = this.skip(end);
    }
    if (end === undefined) return undefined;
    return { json: JSON.stringify(computed ? ANY_VALUE_MARK : value), end };
  }

  private closingQuote(from: number, quote: string): number | undefined {
    const p = this.program;
    for (let i = from; i < p.length; i++) {
      if (p[i] === '\\') i++;
      else if (p.startsWith(quote, i)) return i;
      else if (quote.length === 1 && p[i] === '\n') return undefined;
    }
    return undefined;
  }

  /** The end of an expression starting at `i`: the `,`, `:` or closing bracket outside its own brackets and strings. */
  private expressionEnd(i: number): number {
    const p = this.program;
    let depth = 0;
    let end = i;
    for (; end < p.length; end++) {
      const c = p[end]!;
      if (!this.isCode(end)) continue;
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) break;
        depth--;
      } else if ((c === ',' || c === ':') && depth === 0) break;
      else if (c === '\n' && depth === 0 && p[end - 1] !== '\\') break;
    }
    while (end > i && /\s/.test(p[end - 1]!)) end--;
    return end;
  }
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '\n': '',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** A Python string literal's escapes, as far as hook output uses them. */
function unescape(raw: string): string {
  return raw.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\s\S])/g, (whole, code: string) => {
    if (code.length > 1) return String.fromCodePoint(Number.parseInt(code.slice(1), 16));
    return ESCAPES[code] ?? whole;
  });
}
