/**
 * Enough of a Python program's structure to follow a name through a hook
 * file: which offsets are code (not a comment, not inside a string literal),
 * and which function a place is in, with the names each function binds for
 * itself (its parameters, and what it assigns without `global`), so that
 * `input_data` in `main()` and a parameter `input_data` of another function
 * are told apart. Indentation decides where a function ends, as in Python.
 */
export interface PythonScopes {
  /** Whether the character at `offset` is code. */
  isCode(offset: number): boolean;
  /** Whether the character at `offset` is in a comment (`#` to the line's end). */
  isComment(offset: number): boolean;
  /** Where the string literal whose opening quote is at `offset` ends (past its closing quote). */
  stringEnd(offset: number): number | undefined;
  /** The scope a name used at `offset` resolves to: the innermost that binds it, else the module (0). */
  bindingScope(name: string, offset: number): number;
  /** The function of this name the program defines, when it defines one only. */
  functionNamed(name: string): { id: number; parameters: readonly string[] } | undefined;
  /** Every function the program defines, in order: its name and the range of its parameters and body. */
  functions(): readonly { name: string; from: number; to: number }[];
  /** The innermost function `offset` is in (its parameters or body, [from, to)), if any. */
  functionAt(offset: number): { id: number; name: string; parameters: readonly string[]; from: number; to: number } | undefined;
  /** Whether `offset` is inside a function's parameter list (`def f(a, b=1):`). */
  inParameters(offset: number): boolean;
}

interface FunctionScope {
  id: number;
  name: string;
  parent: number;
  parameters: string[];
  /** Offset of the `)` ending the parameters. */
  close: number;
  /** Offsets [from, to) of the parameters and the body. */
  from: number;
  to: number;
  names: Set<string>;
}

const NAME = /[A-Za-z_]\w*/y;

let last: { program: string; scopes: PythonScopes } | undefined;

/** The scopes of a program; the last one asked for is kept, since the rules that read a hook file ask in turn. */
export function pythonScopes(program: string): PythonScopes {
  if (last?.program !== program) last = { program, scopes: readScopes(program) };
  return last.scopes;
}

function readScopes(program: string): PythonScopes {
  const { mask: code, ends } = codeMask(program);
  const isCode = (offset: number): boolean => code[offset] === 1;
  const isComment = (offset: number): boolean => code[offset] === COMMENT;
  const functions: FunctionScope[] = [];
  for (const header of program.matchAll(/^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(/gm)) {
    if (!code[header.index]) continue;
    const open = header.index + header[0].length;
    const close = closingBracket(program, open, isCode);
    if (close === undefined) continue;
    const colon = program.indexOf(':', close);
    if (colon === -1) continue;
    const names = parameters(program, open, close, isCode, isComment);
    functions.push({
      id: functions.length + 1,
      name: header[2]!,
      parent: 0,
      parameters: names,
      close,
      from: open,
      to: blockEnd(program, colon + 1, header[1]!.length, code),
      names: new Set(names),
    });
  }
  // Functions nest by their ranges: filled in the order they start, an inner one overwrites its outer one's ids,
  // and a function's parent is what held its start before.
  const scopeIds = new Int32Array(program.length + 1);
  for (const f of functions) {
    f.parent = scopeIds[f.from]!;
    scopeIds.fill(f.id, f.from, f.to);
  }
  const innermost = (offset: number): FunctionScope | undefined => functions[scopeIds[offset]! - 1];
  // What each function assigns is its own, unless it says `global` (or `nonlocal`) first.
  const declared = new Map<number, Set<string>>();
  for (const m of program.matchAll(/\b(?:global|nonlocal)[ \t]+([\w \t,]+)/g)) {
    const scope = innermost(m.index)?.id;
    if (scope === undefined || !code[m.index]) continue;
    const names = declared.get(scope) ?? new Set<string>();
    for (const name of m[1]!.split(/[ \t,]+/)) if (name) names.add(name);
    declared.set(scope, names);
  }
  // `x = …`, `x += …`, `x: T = …` at the start of a line, `for x in`, `as x`.
  const binding =
    /(?<![\w.])([A-Za-z_]\w*)(?=[ \t]*(?:=(?!=)|[-+*/%&|^@]=))|^[ \t]*([A-Za-z_]\w*)[ \t]*:[^=\n]*=(?!=)|\b(?:for|as)[ \t]+([A-Za-z_]\w*)/gm;
  for (const m of program.matchAll(binding)) {
    if (!code[m.index]) continue;
    const scope = innermost(m.index);
    const name = (m[1] ?? m[2] ?? m[3])!;
    if (scope && !declared.get(scope.id)?.has(name)) scope.names.add(name);
  }
  const named = new Map<string, FunctionScope | null>();
  for (const f of functions) named.set(f.name, named.has(f.name) ? null : f);
  return {
    isCode,
    isComment,
    stringEnd: (offset) => ends.get(offset),
    functionNamed: (name) => named.get(name) ?? undefined,
    functions: () => functions.map((f) => ({ name: f.name, from: f.from, to: f.to })),
    functionAt(offset) {
      const f = innermost(offset);
      return f && { id: f.id, name: f.name, parameters: f.parameters, from: f.from, to: f.to };
    },
    inParameters(offset) {
      const f = innermost(offset);
      return f !== undefined && offset < f.close;
    },
    bindingScope(name, offset) {
      for (let scope = innermost(offset); scope; scope = functions[scope.parent - 1]) if (scope.names.has(name)) return scope.id;
      return 0;
    },
  };
}

const COMMENT = 2;

/**
 * 1 where the program is code; 0 inside string literals (their quotes included), 2 in comments; and
 * where each string literal that starts at a quote ends.
 */
function codeMask(program: string): { mask: Uint8Array; ends: Map<number, number> } {
  const mask = new Uint8Array(program.length).fill(1);
  const ends = new Map<number, number>();
  let i = 0;
  while (i < program.length) {
    const c = program[i]!;
    if (c === '#') {
      const end = program.indexOf('\n', i);
      const stop = end === -1 ? program.length : end;
      mask.fill(COMMENT, i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      const stop = maskString(program, i, mask);
      ends.set(i, stop);
      i = stop;
    } else i++;
  }
  return { mask, ends };
}

/**
 * Masks the string literal whose quote is at `at` as not code, and returns the offset after it. In an
 * f-string (`f"…"`, `rf'…'`) the replacement fields (`{d['tool_input']['cmd']}`, not `{{`) are code
 * again, the strings inside them not.
 */
function maskString(program: string, at: number, mask: Uint8Array): number {
  const c = program[at]!;
  const triple = program.startsWith(c.repeat(3), at);
  const quote = triple ? c.repeat(3) : c;
  const prefix = /[A-Za-z]{0,2}$/.exec(program.slice(Math.max(0, at - 2), at))![0];
  const formatted = /^(?:[rR]?[fF]|[fF][rR])$/.test(prefix) && !/\w/.test(program[at - prefix.length - 1] ?? '');
  const fields: { from: number; to: number; strings: [number, number][] }[] = [];
  let j = at + quote.length;
  while (j < program.length && !program.startsWith(quote, j)) {
    const ch = program[j];
    if (ch === '\\') j++;
    else if (!triple && ch === '\n') break;
    else if (formatted && ch === '{') {
      if (program[j + 1] === '{') j++;
      else {
        const field = replacementField(program, j + 1, triple);
        fields.push(field);
        j = field.to;
        continue;
      }
    }
    j++;
  }
  const stop = Math.min(program.length, j + quote.length);
  mask.fill(0, at, stop);
  for (const field of fields) {
    mask.fill(1, field.from, Math.min(field.to, stop));
    for (const [from, to] of field.strings) mask.fill(0, from, Math.min(to, stop));
  }
  return stop;
}

/** A replacement field from after its `{` to its closing `}` (or the line's end in a one-line string), with the strings in it. */
function replacementField(program: string, from: number, triple: boolean): { from: number; to: number; strings: [number, number][] } {
  const strings: [number, number][] = [];
  let depth = 1;
  let k = from;
  for (; k < program.length; k++) {
    const ch = program[k]!;
    if (ch === '\n' && !triple) break;
    if (ch === '"' || ch === "'") {
      let end = k + 1;
      while (end < program.length && program[end] !== ch && program[end] !== '\n') end += program[end] === '\\' ? 2 : 1;
      strings.push([k, end + 1]);
      k = end;
      // A quote with no end on its line (a fill character, `{x:'>10}`): the field ends there, not on a later line.
      if (program[end] !== ch) break;
    } else if (ch === '{' || ch === '[' || ch === '(') depth++;
    else if (ch === '}' || ch === ']' || ch === ')') {
      depth--;
      if (depth === 0) break;
    }
  }
  return { from, to: k, strings };
}

/**
 * The offset of the bracket closing the one opened just before `from`, skipping what `isCode` says is
 * not code (a bracket in a string or a comment, `.get('a', ')')`, is not one).
 */
export function closingBracket(program: string, from: number, isCode: (offset: number) => boolean): number | undefined {
  let depth = 1;
  for (let i = from; i < program.length; i++) {
    if (!isCode(i)) continue;
    const c = program[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    if (depth === 0) return i;
  }
  return undefined;
}

/** Where a block starting after a header's `:` ends: the first later line of code indented no deeper than the header. */
function blockEnd(program: string, from: number, headerIndent: number, code: Uint8Array): number {
  for (let lineStart = program.indexOf('\n', from); lineStart !== -1; lineStart = program.indexOf('\n', lineStart + 1)) {
    let first = lineStart + 1;
    while (program[first] === ' ' || program[first] === '\t') first++;
    // A blank line, a comment, or a line inside a string (a docstring's text at column 0) ends nothing.
    if (
      first < program.length &&
      program[first] !== '\n' &&
      program[first] !== '\r' &&
      code[first] &&
      first - lineStart - 1 <= headerIndent
    )
      return lineStart + 1;
  }
  return program.length;
}

/** The names a parameter list between `from` and `to` binds (`a, b: int = 1, *args, **kw`). */
function parameters(
  program: string,
  from: number,
  to: number,
  isCode: (offset: number) => boolean,
  isComment: (offset: number) => boolean,
): string[] {
  const names: string[] = [];
  for (const { text } of topLevelParts(program, from, to, isCode, isComment)) {
    NAME.lastIndex = 0;
    const name = NAME.exec(text.replace(/^\*+\s*/, ''))?.[0];
    if (name) names.push(name);
  }
  return names;
}

/**
 * The comma-separated parts of `text` between `from` and `to` (a call's arguments, a parameter list),
 * trimmed, with their offsets; commas and brackets where `isCode` says there is no code (strings,
 * comments) are not read, and what `isComment` says is a comment is left out of the parts (as spaces).
 */
export function topLevelParts(
  text: string,
  from: number,
  to: number,
  isCode: (offset: number) => boolean,
  isComment: (offset: number) => boolean = () => false,
): { text: string; at: number }[] {
  const parts: { text: string; at: number }[] = [];
  let depth = 0;
  let start = from;
  const take = (end: number): void => {
    let raw = text.slice(start, end);
    if (raw.includes('#'))
      raw = raw
        .split('')
        .map((c, i) => (isComment(start + i) ? ' ' : c))
        .join('');
    const trimmed = raw.trim();
    if (trimmed) parts.push({ text: trimmed, at: start + raw.indexOf(trimmed) });
  };
  for (let i = from; i < to; i++) {
    if (!isCode(i)) continue;
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      take(i);
      start = i + 1;
    }
  }
  take(to);
  return parts;
}
