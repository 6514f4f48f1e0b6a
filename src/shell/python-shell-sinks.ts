import type { ShellSink } from './node-shell-sinks.js';
import { stdinParses } from './program-fields.js';
import { closingBracket, pythonScopes, topLevelParts, type PythonScopes } from './python-scopes.js';

/**
 * Where a Python hook program hands text from its stdin JSON to a shell: the
 * command of `os.system`, `os.popen`, `subprocess.getoutput`,
 * `getstatusoutput` or `asyncio.create_subprocess_shell`, or of `subprocess.run`, `call`, `check_call`,
 * `check_output` or `Popen` with `shell=True`, holding the parse of its stdin
 * (`json.load(sys.stdin)`) or a name set from it (`cmd =
 * data['tool_input']['command']`, `for path in data['paths']:`), whatever the
 * expression around it (an f-string's field, `+`, `%`, `.format`). A call of
 * a function named for quoting (`shlex.quote(path)`) gives a value taken as
 * safe; a list command with `shell=True` has only its first item parsed by
 * the shell. Names are followed through assignments, in the function that
 * binds them, not into the parameters of functions they are handed to.
 */
const ALWAYS_SHELL = new Set([
  'os.system',
  'os.popen',
  'subprocess.getoutput',
  'subprocess.getstatusoutput',
  'asyncio.create_subprocess_shell',
]);
const SHELL_OPTION = new Set(['subprocess.run', 'subprocess.call', 'subprocess.check_call', 'subprocess.check_output', 'subprocess.Popen']);
const MODULES = new Set(['os', 'subprocess', 'asyncio']);
const QUOTING = /quote|escape|sanitize/i;
interface Place {
  start: number;
  end: number;
}

/** A name, not an attribute (`.name`) nor part of a longer word. */
const IDENTIFIER = /(?<![\w.])[A-Za-z_]\w*/g;

export function pythonShellSinks(program: string): ShellSink[] {
  if (!/\b(?:os|subprocess|asyncio)\b/.test(program)) return [];
  const scopes = pythonScopes(program);
  const parses = stdinParses('python', program, isCodeIn(scopes)).map((m) => ({ start: m.index, end: m.index + m[0].length }));
  if (parses.length === 0) return [];
  const { modules, functions } = importedNames(program, scopes);
  const tainted = taintedNames(program, scopes, parses);
  const sinks: ShellSink[] = [];
  for (const m of program.matchAll(/(?<![\w.])([A-Za-z_]\w*)(?:[ \t]*\.[ \t]*([A-Za-z_]\w*))?[ \t]*\(/g)) {
    if (!scopes.isCode(m.index)) continue;
    const module = m[2] === undefined ? undefined : modules.get(m[1]!);
    const call = m[2] === undefined ? functions.get(m[1]!) : module && `${module}.${m[2]}`;
    if (!call || (!ALWAYS_SHELL.has(call) && !SHELL_OPTION.has(call))) continue;
    const open = m.index + m[0].length;
    const close = closingBracket(program, open, isCodeIn(scopes));
    if (close === undefined) continue;
    const args = topLevelParts(program, open, close, isCodeIn(scopes), isCommentIn(scopes));
    if (!ALWAYS_SHELL.has(call) && !args.some((arg) => /^shell\s*=\s*True\b/.test(arg.text))) continue;
    const command = commandPart(program, args, scopes);
    if (!command) continue;
    const at = firstTaint(program, command.from, command.to, scopes, tainted, parses);
    // The call as written: `subprocess.run`, `sp.run`, or an imported `run`.
    if (at) sinks.push({ ...at, call: m[2] === undefined ? m[1]! : `${m[1]!}.${m[2]}` });
  }
  return sinks;
}

/** The command a call is given: its first positional argument, or `args=`; of a list, its first item (what the shell parses). */
function commandPart(
  program: string,
  args: readonly { text: string; at: number }[],
  scopes: PythonScopes,
): { from: number; to: number } | undefined {
  const keyword = args.find((arg) => /^(?:args|cmd|command)\s*=(?!=)/.test(arg.text));
  const first = keyword ?? (args[0] && !/^\*|^\w+\s*=(?!=)/.test(args[0].text) ? args[0] : undefined);
  if (!first) return undefined;
  const from = keyword ? first.at + /^\w+\s*=\s*/.exec(first.text)![0].length : first.at;
  const to = first.at + first.text.length;
  if (program[from] !== '[' && program[from] !== '(') return { from, to };
  const close = closingBracket(program, from + 1, isCodeIn(scopes));
  const items = close === undefined ? [] : topLevelParts(program, from + 1, close, isCodeIn(scopes), isCommentIn(scopes));
  return items[0] && { from: items[0].at, to: items[0].at + items[0].text.length };
}

/** `import os`, `import subprocess as sp`; `from subprocess import run, check_output as co`, `from os import system`. */
function importedNames(program: string, scopes: PythonScopes): { modules: Map<string, string>; functions: Map<string, string> } {
  const modules = new Map<string, string>();
  const functions = new Map<string, string>();
  for (const m of program.matchAll(/^[ \t]*import[ \t]+([^\n#;]+)/gm)) {
    if (!scopes.isCode(m.index + m[0].indexOf('import'))) continue;
    for (const item of m[1]!.split(',')) {
      const [, name, alias] = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(item) ?? [];
      if (name && MODULES.has(name)) modules.set(alias ?? name, name);
    }
  }
  for (const m of program.matchAll(/^[ \t]*from[ \t]+(os|subprocess|asyncio)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)/gm)) {
    if (!scopes.isCode(m.index + m[0].indexOf('from'))) continue;
    for (const item of m[2]!.replace(/[()]/g, '').split(',')) {
      const [, name, alias] = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(item) ?? [];
      if (name) functions.set(alias ?? name, `${m[1]!}.${name}`);
    }
  }
  return { modules, functions };
}

/**
 * The names (as `scope:name`) that hold text from the input: assigned (`x =`,
 * `x: T =`) or looped over (`for x in`) from an expression holding the parse
 * or such a name. Two passes take an assignment written before its source.
 */
function taintedNames(program: string, scopes: PythonScopes, parses: readonly Place[]): Set<string> {
  const tainted = new Set<string>();
  const targets = [
    ...[...program.matchAll(/^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)/gm)].map((m) => ({
      m,
      name: m[1]!,
      at: m.index + m[0].indexOf(m[1]!),
    })),
    ...[...program.matchAll(/\bfor[ \t]+([A-Za-z_]\w*)[ \t]+in\b/g)].map((m) => ({ m, name: m[1]!, at: m.index + m[0].indexOf(m[1]!, 3) })),
  ].filter(({ at }) => scopes.isCode(at));
  for (let pass = 0; pass < 2; pass++) {
    for (const { m, name, at } of targets) {
      const from = m.index + m[0].length;
      if (firstTaint(program, from, statementEnd(program, from, scopes), scopes, tainted, parses))
        tainted.add(`${scopes.bindingScope(name, at)}:${name}`);
    }
  }
  return tainted;
}

/** Where the logical line from `from` ends: its line break outside brackets (or the `:` of a `for`). */
function statementEnd(program: string, from: number, scopes: PythonScopes): number {
  let depth = 0;
  for (let i = from; i < program.length; i++) {
    if (!scopes.isCode(i)) continue;
    const c = program[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth <= 0 && (c === '\n' || c === ';' || c === ':')) return i;
  }
  return program.length;
}

/** The first place in [from, to) that holds the input: the parse itself, or a tainted name; not inside a quoting call. */
function firstTaint(
  program: string,
  from: number,
  to: number,
  scopes: PythonScopes,
  tainted: ReadonlySet<string>,
  parses: readonly Place[],
): Place | undefined {
  const quoted: [number, number][] = [];
  const text = program.slice(from, to);
  for (const q of text.matchAll(/(?<![\w.])[\w.]*(?:quote|escape|sanitize)\w*[ \t]*\(/gi)) {
    const open = from + q.index + q[0].length;
    if (!scopes.isCode(from + q.index) || !QUOTING.test(q[0])) continue;
    quoted.push([open, closingBracket(program, open, isCodeIn(scopes)) ?? to]);
  }
  const safe = (at: number): boolean => quoted.some(([a, b]) => at >= a && at < b);
  const parse = parses.find(({ start }) => start >= from && start < to && !safe(start));
  if (parse) return parse;
  for (const id of text.matchAll(IDENTIFIER)) {
    const at = from + id.index;
    const after = program.slice(at + id[0].length, at + id[0].length + 3);
    // Not a keyword argument's name (`text=True`), nor a string's prefix (`f"…"`, `rb'…'`).
    if (!scopes.isCode(at) || safe(at) || /^\s*=(?!=)|^['"]/.test(after)) continue;
    if (tainted.has(`${scopes.bindingScope(id[0], at)}:${id[0]}`)) return { start: at, end: at + id[0].length };
  }
  return undefined;
}

/** The scopes' tests as functions to hand on (they are methods). */
const isCodeIn =
  (scopes: PythonScopes) =>
  (offset: number): boolean =>
    scopes.isCode(offset);
const isCommentIn =
  (scopes: PythonScopes) =>
  (offset: number): boolean =>
    scopes.isComment(offset);
