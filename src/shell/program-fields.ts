import { closingBracket, type PythonScopes, pythonScopes, topLevelParts } from './python-scopes.js';

/**
 * The fields an inline Python or Node program reads from the JSON it parses
 * from its stdin (`python3 -c "…json.load(sys.stdin)['tool_input']['command']…"`,
 * `node -e "…JSON.parse(fs.readFileSync(0, 'utf8')).tool_input.command…"`),
 * with their offsets in the program: the same question `jqInputPaths` answers
 * for a jq filter.
 *
 * Only accesses certain to be on that JSON are given: a chain of subscripts
 * with a literal key (`d['a']["b"]`, Python's `.get('a', …)`, JavaScript's
 * `.a`, `?.a`, `['a']`) starting at the parse itself or at a name the program
 * assigned it to (`d = json.load(sys.stdin)`, `ti = d.get('tool_input', {})`).
 * A method call ends a JavaScript chain (`d.tool_input.command.includes(…)`
 * reads `tool_input.command`).
 */
export interface ProgramField {
  path: string[];
  start: number;
  end: number;
  /** After `or`, `||` or `??` (`d.get('file_path') or d.get('path')`): read only when what is before it is empty, as jq's `//`. */
  fallback: boolean;
}

export type ProgramLanguage = 'python' | 'node';

const PARSE: Record<ProgramLanguage, RegExp> = {
  python: /json\.loads?\(\s*sys\.stdin(?:\.read\(\s*\))?\s*\)/g,
  // `fs.readFileSync(0)`, `require('fs').readFileSync('/dev/stdin')`, or an imported `readFileSync(process.stdin.fd)`.
  node: /JSON\.parse\(\s*(?:(?:require\(\s*['"](?:node:)?fs['"]\s*\)|fs)\.)?readFileSync\(\s*(?:0|['"]\/dev\/stdin['"]|process\.stdin\.fd)\s*(?:,[^()]*)?\)(?:\.toString\(\s*\))?\s*\)/g,
};

/** The parse at the start of a text: the value a name is assigned. */
const PARSE_HERE: Record<ProgramLanguage, RegExp> = {
  python: new RegExp(`^${PARSE.python.source}`),
  node: new RegExp(`^${PARSE.node.source}`),
};

/** One subscript with a literal key: its key and where the key is. */
const ACCESS: Record<ProgramLanguage, RegExp> = {
  python: /^\s*(?:\[\s*(['"])([\w-]+)\1\s*\]|\.get\(\s*(['"])([\w-]+)\3)/,
  node: /^\s*(?:\??\.\s*([A-Za-z_$][\w$]*)(?![\w$]|\s*\()|(?:\?\.)?\[\s*(['"])([\w-]+)\2\s*\])/,
};

export function programInputFields(language: ProgramLanguage, program: string, codeAt?: (offset: number) => boolean): ProgramField[] {
  // Python: what is code, and which function's name a name is (a hook file's `main()` and its helpers). Node: one
  // scope, its code told apart from its comments and strings by `codeAt` where the program was parsed (a file).
  const scopes = language === 'python' ? pythonScopes(program) : undefined;
  const isCode = (at: number): boolean => scopes?.isCode(at) ?? codeAt?.(at) ?? true;
  const parses = stdinParses(language, program, isCode);
  if (parses.length === 0) return [];
  // The parses and the names, in the order the program is written: a name is a root from its assignment on.
  // Names in a parameter list (`def f(data=None):`) bind nothing there.
  const events: ProgramEvent[] = [
    ...parses.map((m) => ({ at: m.index, end: m.index + m[0].length, name: undefined, assigns: false, calls: false })),
    ...[...program.matchAll(/(?<![\w$.'"])[A-Za-z_$][\w$]*/g)]
      .filter((m) => isCode(m.index) && !scopes?.inParameters(m.index))
      .map((m) => {
        const end = m.index + m[0].length;
        const assigns = /^\s*=(?!=)/.test(program.slice(end, end + 40));
        // A call, not the `def` that names the function.
        const calls = program[end] === '(' && !/\bdef\s+$/.test(program.slice(Math.max(0, m.index - 12), m.index));
        return { at: m.index, end, name: m[0], assigns, calls };
      }),
  ].sort((a, b) => a.at - b.at);
  // The input handed to a function of the file binds its parameter there (`check(data['tool_input'])`): read again
  // with what the calls hand over until that settles (a helper that hands it on to another takes another round).
  let handed = new Map<string, string[] | null>();
  for (let round = 1; ; round++) {
    const read = readFields(language, program, scopes, events, handed);
    if (round === 4 || same(read.handed, handed)) return read.found;
    handed = read.handed;
  }
}

interface ProgramEvent {
  at: number;
  end: number;
  /** A name; undefined for a parse of the input. */
  name: string | undefined;
  /** The name is assigned here (`d = …`), or called (`f(…)`). */
  assigns: boolean;
  calls: boolean;
}

/** One reading of the program, its functions' parameters bound to what calls hand them (null: not the input every time). */
function readFields(
  language: ProgramLanguage,
  program: string,
  scopes: PythonScopes | undefined,
  events: readonly ProgramEvent[],
  given: ReadonlyMap<string, string[] | null>,
): { found: ProgramField[]; handed: Map<string, string[] | null> } {
  const found: ProgramField[] = [];
  const key = (name: string, at: number): string => `${scopes?.bindingScope(name, at) ?? 0}:${name}`;
  /** Names holding the JSON, or a part of it, by scope: the path from the top to what they hold. */
  const roots = new Map<string, string[]>();
  for (const [name, path] of given) if (path) roots.set(name, path);
  /** Fields the program sets itself. */
  const written = new Set<string>();
  const handed = new Map<string, string[] | null>();
  /** Whether the character at an offset of a text starting at `base` in the program is code (not in a string or comment). */
  const codeAt =
    (base: number) =>
    (offset: number): boolean =>
      scopes?.isCode(base + offset) ?? true;
  /** Reads the subscripts from `from` on, each a field of `prefix`; a chain assigned to a name makes it a root. */
  const chain = (at: number, from: number, prefix: string[]): void => {
    const path = [...prefix];
    const before = program.slice(Math.max(0, at - 40), at);
    // After `or`, `||`, `??`, or as the default of a `.get` (`d.get('tool_response', d.get('tool_result'))`).
    const fallback = /(?:\bor|\|\||\?\?)\s*$/.test(before) || /\.get\(\s*(['"])[\w-]+\1\s*,\s*$/.test(before);
    const reads = found.length;
    const next = subscripts(language, program, from, codeAt(0), (field, start) => {
      path.push(field);
      found.push({ path: [...path], start, end: start + field.length, fallback });
    });
    // `d['logged_at'] = …` writes that field (only what leads to it is read), and a later read of it is of what was written.
    if (found.length > reads && /^\s*=(?!=)/.test(program.slice(next))) written.add(found.pop()!.path.join('\0'));
    const name = assigned(program, at);
    if (name !== undefined) roots.set(key(name, at), path);
  };
  /** What an argument holds of the input: a root, a chain of subscripts from one, or the parse itself. */
  const pathOf = (text: string, at: number): string[] | undefined => {
    if (PARSE_HERE[language].exec(text)?.[0].length === text.length) return [];
    const head = /^[A-Za-z_]\w*/.exec(text)?.[0];
    const base = head === undefined ? undefined : roots.get(key(head, at));
    if (!base) return undefined;
    const path = [...base];
    const next = subscripts(language, text, head!.length, codeAt(at), (field) => path.push(field));
    return next === text.length ? path : undefined;
  };
  /** A call of a function of the file: what each argument hands its parameter. */
  const call = (name: string, open: number): void => {
    const fn = scopes?.functionNamed(name);
    const close = fn && closingParen(program, open + 1, codeAt(0));
    if (!fn || close === undefined) return;
    const hand = (parameter: string, path: string[] | undefined): void => {
      const slot = `${fn.id}:${parameter}`;
      const before = handed.get(slot);
      handed.set(slot, path && (before === undefined || before?.join('\0') === path.join('\0')) ? path : null);
    };
    const passed = new Set<string>();
    for (const [i, { text, at }] of topLevelParts(
      program,
      open + 1,
      close,
      codeAt(0),
      (offset) => scopes?.isComment(offset) ?? false,
    ).entries()) {
      // `*args` and `**kw` hand over what cannot be followed, from here on.
      if (text.startsWith('*')) break;
      const keyword = /^([A-Za-z_]\w*)\s*=(?!=)\s*/.exec(text);
      const parameter = keyword ? keyword[1] : fn.parameters[i];
      if (parameter === undefined) continue;
      passed.add(parameter);
      hand(parameter, pathOf(keyword ? text.slice(keyword[0].length) : text, at + (keyword?.[0].length ?? 0)));
    }
    // A parameter this call leaves to its default does not hold the input in it.
    for (const parameter of fn.parameters) if (!passed.has(parameter)) hand(parameter, undefined);
  };
  for (const event of events) {
    if (event.name === undefined) chain(event.at, event.end, []);
    // A name assigned anew holds what it is given: the JSON again only when that is a chain from it (`d = d['tool_input']`).
    else if (event.assigns) {
      const value = program.slice(event.end).replace(/^\s*=\s*/, '');
      const from = /^[A-Za-z_$][\w$]*/.exec(value)?.[0];
      if (!(from !== undefined && roots.has(key(from, event.end))) && !PARSE_HERE[language].test(value))
        roots.delete(key(event.name, event.at));
    } else {
      const prefix = roots.get(key(event.name, event.at));
      if (prefix) chain(event.at, event.end, prefix);
      else if (event.calls) call(event.name, event.end);
    }
  }
  return { found: found.filter((f) => !f.path.some((_, i) => written.has(f.path.slice(0, i + 1).join('\0')))), handed };
}

/** Reads subscripts with a literal key from `from` on, calling `take` with each key and its offset; returns where they end. */
function subscripts(
  language: ProgramLanguage,
  text: string,
  from: number,
  isCode: (offset: number) => boolean,
  take: (field: string, start: number) => void,
): number {
  let next = from;
  for (;;) {
    const match = ACCESS[language].exec(text.slice(next));
    if (!match) return next;
    const field = language === 'python' ? (match[2] ?? match[4])! : (match[1] ?? match[3])!;
    take(field, next + match[0].lastIndexOf(field));
    next += match[0].length;
    // Python's `.get('a', {})`: past its arguments, to what follows the call.
    if (language === 'python' && match[4] !== undefined) {
      const close = closingParen(text, next, isCode);
      if (close === undefined) return next;
      next = close + 1;
    }
  }
}

function same(a: ReadonlyMap<string, string[] | null>, b: ReadonlyMap<string, string[] | null>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.has(k) && JSON.stringify(b.get(k)) === JSON.stringify(v));
}

/** Where a program parses the JSON on its stdin (`json.load(sys.stdin)`, `JSON.parse(fs.readFileSync(0))`, a streamed string). */
export function stdinParses(language: ProgramLanguage, program: string, isCode: (offset: number) => boolean): RegExpExecArray[] {
  return [...program.matchAll(PARSE[language]), ...streamParses(language, program)].filter((m) => isCode(m.index));
}

/** Chunks joined: `Buffer.concat(chunks)` (and its `.toString()`), or `chunks.join('')`; the array's name is group 1 or 2. */
const JOINED = String.raw`(?:Buffer\.concat\(\s*([A-Za-z_$][\w$]*)\s*\)(?:\.toString\(\s*(?:['"]utf-?8['"])?\s*\))?|([A-Za-z_$][\w$]*)\.join\(\s*(?:''|""|\x60\x60)?\s*\))`;

/**
 * Node's streaming idioms: the chunks of `process.stdin` added to a string
 * (`s += c`) or pushed to an array (`chunks.push(c)`, then joined:
 * `Buffer.concat(chunks)`, `chunks.join('')`), parsed when it ends
 * (`JSON.parse(s)`, `JSON.parse(Buffer.concat(chunks).toString())`, or the
 * joined text given a name first).
 */
function streamParses(language: ProgramLanguage, program: string): RegExpExecArray[] {
  if (language !== 'node' || !/process\.stdin/.test(program)) return [];
  const texts = new Set([...program.matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)\s*\+=/g)].map((m) => m[1]!));
  const pushed = new Set([...program.matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)\.push\(/g)].map((m) => m[1]!));
  const joined = (m: RegExpMatchArray): boolean => pushed.has((m[1] ?? m[2])!);
  for (const m of program.matchAll(new RegExp(String.raw`(?<![\w$])([A-Za-z_$][\w$]*)\s*=\s*${JOINED}`, 'g')))
    if (pushed.has((m[2] ?? m[3])!)) texts.add(m[1]!);
  return [
    ...[...program.matchAll(/JSON\.parse\(\s*([A-Za-z_$][\w$]*)(?:\.toString\(\s*(?:['"]utf-?8['"])?\s*\))?\s*\)/g)].filter((m) =>
      texts.has(m[1]!),
    ),
    ...[...program.matchAll(new RegExp(String.raw`JSON\.parse\(\s*${JOINED}\s*\)`, 'g'))].filter(joined),
  ];
}

/** The name an expression starting at `at` is assigned to (`d = …`, `const d = …`, `let d = …`), if it is. */
function assigned(program: string, at: number): string | undefined {
  // The statement before it on its line, looked for in the last 200 characters (a file may be one long line, or have no `;`).
  const before = program.slice(Math.max(0, at - 200), at);
  const statement = before.slice(Math.max(before.lastIndexOf('\n'), before.lastIndexOf(';')) + 1);
  const match = /(?:^|[\s(])(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=\s*$/.exec(statement);
  return match?.[1];
}

/** The `)` closing a call whose arguments start at `from`; undefined when another bracket closes first. */
function closingParen(text: string, from: number, isCode: (offset: number) => boolean): number | undefined {
  const close = closingBracket(text, from, isCode);
  return close !== undefined && text[close] === ')' ? close : undefined;
}
