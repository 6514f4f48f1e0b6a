import type { PrintedText } from './printed-text.js';

/** Stand-ins for values known only at run time: `string` for a text (`$name` from `--arg`, `"\(…)"`), `any` for a value of any type. */
export interface JqMarks {
  string: string;
  any: string;
}

/**
 * jq's options that take the words after them, and how many (`--arg NAME VALUE`,
 * `--indent 2`, `-f FILE`): neither a filter nor an input file.
 */
export const JQ_VALUE_OPTIONS: Readonly<Record<string, number>> = {
  '--arg': 2,
  '--argjson': 2,
  '--slurpfile': 2,
  '--rawfile': 2,
  '--indent': 1,
  '-f': 1,
  '--from-file': 1,
  '-L': 1,
};

/** Objects and arrays nested deeper than this are not read. */
const MAX_DEPTH = 64;

class NotRead extends Error {}

/**
 * The JSON `jq -n FILTER` prints, when the filter is one object or array
 * built from literals (`{decision: "block", reason: $r}`), as JSON text whose
 * every character knows where in the filter it comes from: a bare key is
 * quoted (its quotes placed on the key's first and last characters), a jq
 * string is copied (an interpolation `\(…)` becomes `marks.string`), a
 * variable given by `--arg` or read from the environment becomes a string
 * holding `marks.string`, and any other expression (`.x`, `$n + 1`,
 * `$v | tostring`) a string holding `marks.any`. Undefined for a filter that
 * is not one such value (`{…} | tojson`, a computed key).
 */
export function jqOutput(filter: PrintedText, strings: ReadonlySet<string>, marks: JqMarks): PrintedText | undefined {
  const out: PrintedText = { text: '', offsets: [], ends: [] };
  const reader = new Reader(filter, strings, marks, out);
  try {
    reader.space();
    if (!'{['.includes(filter.text[reader.at] ?? '')) return undefined;
    reader.value(0, true);
    reader.space();
    return reader.at === filter.text.length ? out : undefined;
  } catch (error) {
    if (error instanceof NotRead) return undefined;
    throw error;
  }
}

class Reader {
  at = 0;
  private readonly text: string;

  constructor(
    private readonly filter: PrintedText,
    private readonly strings: ReadonlySet<string>,
    private readonly marks: JqMarks,
    private readonly out: PrintedText,
  ) {
    this.text = filter.text;
  }

  /** Writes `chars` placed on the filter's characters [from, to). */
  private emit(chars: string, from: number, to = from + 1): void {
    for (const char of chars) {
      this.out.text += char;
      this.out.offsets.push(this.filter.offsets[from]!);
      this.out.ends.push(this.filter.ends[to - 1]!);
    }
  }

  space(): void {
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (char === '#') while (this.at < this.text.length && this.text[this.at] !== '\n') this.at++;
      else if (/\s/.test(char)) this.at++;
      else return;
    }
  }

  /** One value; `whole` when nothing may follow it but the end of its object or array (else it is an expression). */
  value(depth: number, top = false): void {
    if (depth > MAX_DEPTH) throw new NotRead();
    const start = this.at;
    const mark = this.out.text.length;
    this.term(depth);
    this.space();
    if (top || this.ends()) return;
    // `"a" + $x`, `$v | tostring`, `.a // "x"`: an expression whose value is not known.
    this.out.text = this.out.text.slice(0, mark);
    this.out.offsets.length = mark;
    this.out.ends.length = mark;
    this.at = start;
    this.unknown();
  }

  private ends(): boolean {
    return this.at >= this.text.length || ',}]'.includes(this.text[this.at]!);
  }

  private term(depth: number): void {
    const char = this.text[this.at];
    if (char === '{' || char === '[' || char === '"') {
      if (char === '{') this.object(depth);
      else if (char === '[') this.array(depth);
      else this.string();
      return;
    }
    const rest = this.text.slice(this.at);
    const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?![\w$])/.exec(rest);
    if (literal) {
      for (let k = 0; k < literal[0].length; k++) this.emit(literal[0][k]!, this.at + k);
      this.at += literal[0].length;
      return;
    }
    const variable = /^\$(\w+)(?:\.(\w+))?/.exec(rest) ?? /^(env)\.(\w+)/.exec(rest);
    if (variable) {
      const text = variable[1] === 'ENV' || variable[1] === 'env' ? variable[2] !== undefined : this.strings.has(variable[1]!);
      this.placeholder(text ? this.marks.string : this.marks.any, this.at, this.at + variable[0].length);
      this.at += variable[0].length;
      return;
    }
    this.unknown();
  }

  /** A value known only at run time, from here to the end of the expression. */
  private unknown(): void {
    const start = this.at;
    let depth = 0;
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (char === '"') {
        this.skipString();
        continue;
      }
      if ('([{'.includes(char)) depth++;
      else if (')]}'.includes(char)) {
        if (depth === 0) break;
        depth--;
      } else if (char === ',' && depth === 0) break;
      this.at++;
    }
    let end = this.at;
    while (end > start && /\s/.test(this.text[end - 1]!)) end--;
    if (end === start) throw new NotRead();
    this.placeholder(this.marks.any, start, end);
  }

  private placeholder(mark: string, from: number, to: number): void {
    this.emit('"', from);
    this.emit(mark, from, to);
    this.emit('"', to - 1);
  }

  private object(depth: number): void {
    this.collection('{', '}', () => this.entry(depth));
  }

  /** `{…}` or `[…]`: its items, separated by commas, each read by `item`. */
  private collection(open: string, close: string, item: () => void): void {
    this.emit(open, this.at++);
    this.space();
    if (this.text[this.at] === close) {
      this.emit(close, this.at++);
      return;
    }
    for (;;) {
      this.space();
      item();
      this.space();
      const char = this.text[this.at];
      if (char === close) {
        this.emit(close, this.at++);
        return;
      }
      if (char !== ',') throw new NotRead();
      this.emit(',', this.at++);
    }
  }

  /** `key: value`, `"key": value`, `$name` (for `"name": $name`) or `key` (for `"key": .key`). */
  private entry(depth: number): void {
    const rest = this.text.slice(this.at);
    const start = this.at;
    const variable = /^\$(\w+)/.exec(rest);
    const bare = variable ? null : /^[A-Za-z_]\w*/.exec(rest);
    if (variable || bare) {
      const name = variable ? variable[1]! : bare![0];
      const end = start + (variable ?? bare)![0].length;
      this.emit('"', start);
      for (let k = 0; k < name.length; k++) this.emit(name[k]!, end - name.length + k);
      this.emit('"', end - 1);
      this.at = end;
    } else if (rest.startsWith('"')) {
      const mark = this.out.text.length;
      this.string();
      if (this.out.text.slice(mark).includes(this.marks.string)) throw new NotRead();
    } else throw new NotRead();
    this.space();
    if (this.text[this.at] === ':') {
      this.emit(':', this.at++);
      this.space();
      this.value(depth + 1);
      return;
    }
    // The shorthands: `{$name}` is its value, `{key}` is `.key`.
    this.emit(':', this.at - 1);
    const known = variable && this.strings.has(variable[1]!);
    this.placeholder(known ? this.marks.string : this.marks.any, start, this.at);
  }

  private array(depth: number): void {
    this.collection('[', ']', () => this.value(depth + 1));
  }

  /** A jq string, whose escapes are JSON's; an interpolation `\(…)` is a text known at run time. */
  private string(): void {
    this.emit('"', this.at++);
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (char === '"') {
        this.emit('"', this.at++);
        return;
      }
      if (char === '\\' && this.text[this.at + 1] === '(') {
        const start = this.at;
        this.at += 2;
        this.skipNested();
        this.emit(this.marks.string, start, this.at);
        continue;
      }
      if (char === '\\') {
        // jq's escapes are JSON's; any other is a jq syntax error, and the hook prints nothing.
        const escape = /^\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4})/.exec(this.text.slice(this.at, this.at + 6))?.[0];
        if (!escape) throw new NotRead();
        for (const c of escape) this.emit(c, this.at++);
        continue;
      }
      // A line break or other control character is allowed in a jq string, and printed escaped.
      const code = char.charCodeAt(0);
      if (code < 0x20) for (const c of `\\u${code.toString(16).padStart(4, '0')}`) this.emit(c, this.at);
      else this.emit(char, this.at);
      this.at++;
    }
    throw new NotRead();
  }

  /** Past a string, from its opening quote (interpolations included). */
  private skipString(): void {
    this.at++;
    while (this.at < this.text.length && this.text[this.at] !== '"') {
      if (this.text[this.at] === '\\' && this.text[this.at + 1] === '(') {
        this.at += 2;
        this.skipNested();
      } else this.at += this.text[this.at] === '\\' ? 2 : 1;
    }
    this.at++;
  }

  /** Past the `)` that closes an interpolation (strings inside it included). */
  private skipNested(): void {
    let depth = 1;
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (char === '"') {
        this.skipString();
        continue;
      }
      this.at++;
      if (char === '(') depth++;
      else if (char === ')' && --depth === 0) return;
    }
    throw new NotRead();
  }
}
