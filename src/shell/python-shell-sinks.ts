import { isShellProgram, shellScriptIndex } from './analysis.js';
import { QUOTING, type ShellSink } from './node-shell-sinks.js';
import { stdinParses } from './program-fields.js';
import { pythonScopes, type PythonScopes } from './python-scopes.js';

/**
 * Where a Python hook program hands text from its stdin JSON to a shell: the
 * command of `os.system`, `os.popen`, `subprocess.getoutput`,
 * `getstatusoutput` or `asyncio.create_subprocess_shell`, or of
 * `subprocess.run`, `call`, `check_call`, `check_output` or `Popen` with
 * `shell=True`, holding the parse of its stdin (`json.load(sys.stdin)`) or a
 * name set from it (`cmd = data['tool_input']['command']`, `for path in
 * data['paths']:`), whatever the expression around it (an f-string's field,
 * `+`, `%`, `.format`); also a call of one of the file's own functions that
 * hands such text to a parameter reaching a shell in it (`def sh(cmd):
 * subprocess.run(cmd, shell=True)`, then `sh(f"ls {path}")`), one level
 * deep; and the script of an argv that runs a shell on it
 * (`subprocess.run(['bash', '-c', f"ls {path}"])`). A call of a function
 * named for quoting (`shlex.quote(path)`) gives a
 * value taken as safe; a list command with `shell=True` has only its first
 * item parsed by the shell. Names are followed through assignments, in the
 * function that binds them.
 *
 * Hostile files are read in bounded time: brackets are paired once, a
 * command or a value is searched in its first MAX_SPAN characters, and the
 * calls, names and functions looked at are capped (far above what a hook
 * file holds: a file past them is read in part).
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
/** A call of a function named for quoting (`shlex.quote(`); it starts only where a name does. */
const QUOTING_CALL = new RegExp(String.raw`(?<![\w.])[\w.]*(?:${QUOTING.source})\w*[ \t]*\(`, 'gi');
/** A name, not an attribute (`.name`) nor part of a longer word. */
const IDENTIFIER = /(?<![\w.])[A-Za-z_]\w*/g;
const KEYWORD_ARGUMENT = /^\w+\s*=(?!=)/;
const MAX_SPAN = 2048;
const MAX_SHELL_CALLS = 1000;
const MAX_TARGETS = 5000;
/** Functions looked at as helpers, their parameters, the names they set, and the calls of them read. */
const MAX_HELPERS = 20;
const MAX_HELPER_PARAMETERS = 8;
const MAX_HELPER_TARGETS = 500;
const MAX_HELPER_CALLS = 1000;

interface Place {
  start: number;
  end: number;
}

interface Part {
  text: string;
  at: number;
}

export function pythonShellSinks(program: string): ShellSink[] {
  if (!/\b(?:os|subprocess|asyncio)\b/.test(program)) return [];
  const scopes = pythonScopes(program);
  const parses = stdinParses('python', program, (at) => scopes.isCode(at)).map((m) => ({ start: m.index, end: m.index + m[0].length }));
  if (parses.length === 0) return [];
  const source = new Source(program, scopes);
  const targets = source.targets();
  const tainted = source.taintedNames(targets, parses);
  const sites = source.callSites();
  const calls = source.shellCalls(sites);
  const sinks: ShellSink[] = [];
  for (const { call, command } of calls) {
    const at = source.firstTaint(command.start, command.end, tainted, parses);
    if (at) sinks.push({ ...at, call });
  }
  const helpers = source.shellHelpers(targets, calls);
  let helperCalls = 0;
  for (const site of helpers.size ? sites : []) {
    const reaching = site.member === undefined ? helpers.get(site.name) : undefined;
    if (!reaching || /\bdef[ \t]+$/.test(program.slice(Math.max(0, site.at - 8), site.at))) continue;
    if (++helperCalls > MAX_HELPER_CALLS) break;
    const args = source.arguments(site.open - 1) ?? [];
    for (const { parameter, index } of reaching) {
      const keyword = args.find((arg) => arg.text.startsWith(parameter) && new RegExp(String.raw`^${parameter}\s*=(?!=)`).test(arg.text));
      const positional = args.slice(0, index + 1).every((arg) => !arg.text.startsWith('*') && !KEYWORD_ARGUMENT.test(arg.text));
      const arg = keyword ?? (positional ? args[index] : undefined);
      if (!arg) continue;
      const start = keyword ? arg.at + /^\w+\s*=\s*/.exec(arg.text)![0].length : arg.at;
      const at = source.firstTaint(start, arg.at + arg.text.length, tainted, parses);
      if (at) sinks.push({ ...at, call: site.name });
    }
  }
  return sinks.sort((a, b) => a.start - b.start);
}

interface CallSite {
  name: string;
  /** `name.member(…)`. */
  member?: string;
  at: number;
  /** Past the `(`. */
  open: number;
}

interface ShellCall {
  /** The call as written: `subprocess.run`, `sp.run`, or an imported `run`. */
  call: string;
  at: number;
  /** The command the shell parses. */
  command: Place;
}

/** Where a name is set: `x =`, `x: T =` at the start of a line, or `for x in`; `from` is where its value starts. */
interface Target {
  name: string;
  at: number;
  from: number;
}

/** A program with its brackets paired once, so that no call's arguments are scanned again for each call around them. */
class Source {
  /** For the offset of an opening bracket in code, the offset of the one closing it (-1: none). */
  private readonly closing: Int32Array;

  constructor(
    private readonly program: string,
    private readonly scopes: PythonScopes,
  ) {
    this.closing = new Int32Array(program.length).fill(-1);
    const open: number[] = [];
    for (let i = 0; i < program.length; i++) {
      const c = program[i];
      if ((c === '(' || c === '[' || c === '{' || c === ')' || c === ']' || c === '}') && scopes.isCode(i)) {
        if (c === '(' || c === '[' || c === '{') open.push(i);
        else if (open.length) this.closing[open.pop()!] = i;
      }
    }
  }

  /** The comma-separated parts inside the bracket at `bracket`, trimmed, past leading comments; nested brackets are jumped. */
  arguments(bracket: number): Part[] | undefined {
    const close = this.closing[bracket] ?? -1;
    if (close < 0) return undefined;
    const parts: Part[] = [];
    let start = bracket + 1;
    const take = (end: number): void => {
      while (start < end && (/\s/.test(this.program[start]!) || this.scopes.isComment(start))) start++;
      const text = this.program.slice(start, end).trimEnd();
      if (text) parts.push({ text, at: start });
    };
    for (let i = bracket + 1; i < close; i++) {
      const nested = this.closing[i]!;
      if (nested >= 0) i = nested;
      else if (this.program[i] === ',' && this.scopes.isCode(i)) {
        take(i);
        start = i + 1;
      }
    }
    take(close);
    return parts;
  }

  callSites(): CallSite[] {
    const sites: CallSite[] = [];
    for (const m of this.program.matchAll(/(?<![\w.])([A-Za-z_]\w*)(?:[ \t]*\.[ \t]*([A-Za-z_]\w*))?[ \t]*\(/g)) {
      if (this.scopes.isCode(m.index))
        sites.push({ name: m[1]!, ...(m[2] === undefined ? {} : { member: m[2] }), at: m.index, open: m.index + m[0].length });
    }
    return sites;
  }

  /** The calls that run a shell: those that always do, and the subprocess calls given `shell=True`. */
  shellCalls(sites: readonly CallSite[]): ShellCall[] {
    const { modules, functions } = this.importedNames();
    const calls: ShellCall[] = [];
    for (const { name, member, at, open } of sites) {
      const module = member === undefined ? undefined : modules.get(name);
      const call = member === undefined ? functions.get(name) : module && `${module}.${member}`;
      if (!call || (!ALWAYS_SHELL.has(call) && !SHELL_OPTION.has(call))) continue;
      const args = this.arguments(open - 1);
      if (!args) continue;
      const shell = ALWAYS_SHELL.has(call) || args.some((arg) => /^shell\s*=\s*True\b/.test(arg.text));
      // Without a shell, an argv that starts one on a script (`['bash', '-c', script]`): the script is the command.
      const command = shell ? this.commandPart(args) : this.shellScriptArgument(args);
      if (command) calls.push({ call: member === undefined ? name : `${name}.${member}`, at, command });
      if (calls.length === MAX_SHELL_CALLS) break;
    }
    return calls;
  }

  /** The command a call is given: its first positional argument, or `args=`; of a list, its first item (what the shell parses). */
  private commandPart(args: readonly Part[]): Place | undefined {
    const keyword = args.find((arg) => /^(?:args|cmd|command)\s*=(?!=)/.test(arg.text));
    const first = keyword ?? (args[0] && !args[0].text.startsWith('*') && !KEYWORD_ARGUMENT.test(args[0].text) ? args[0] : undefined);
    if (!first) return undefined;
    const start = keyword ? first.at + /^\w+\s*=\s*/.exec(first.text)![0].length : first.at;
    if (this.program[start] !== '[' && this.program[start] !== '(') return { start, end: first.at + first.text.length };
    const item = this.arguments(start)?.[0];
    return item && { start: item.at, end: item.at + item.text.length };
  }

  /** In an argv list (`['bash', '-c', script, …]`, `['/bin/sh', '-ec', script]`), the script a shell is told to run. */
  private shellScriptArgument(args: readonly Part[]): Place | undefined {
    const keyword = args.find((arg) => /^args\s*=(?!=)/.test(arg.text));
    const first = keyword ?? (args[0] && !args[0].text.startsWith('*') && !KEYWORD_ARGUMENT.test(args[0].text) ? args[0] : undefined);
    if (!first) return undefined;
    const start = keyword ? first.at + /^\w+\s*=\s*/.exec(first.text)![0].length : first.at;
    if (this.program[start] !== '[' && this.program[start] !== '(') return undefined;
    const items = this.arguments(start) ?? [];
    const literal = (item: Part | undefined): string | undefined => /^(['"])([^'"\\]*)\1$/.exec(item?.text ?? '')?.[2];
    if (!isShellProgram(literal(items[0]) ?? '')) return undefined;
    // The shell's options read as a shell command's are; its arguments follow the program.
    const index = shellScriptIndex(items.length - 1, (i) => literal(items[i + 1]));
    const script = index === undefined ? undefined : items[index + 1];
    return script && { start: script.at, end: script.at + script.text.length };
  }

  /** `import os`, `import subprocess as sp`; `from subprocess import run, check_output as co`, `from os import system`. */
  private importedNames(): { modules: Map<string, string>; functions: Map<string, string> } {
    const modules = new Map<string, string>();
    const functions = new Map<string, string>();
    for (const m of this.program.matchAll(/^[ \t]*import[ \t]+([^\n#;]+)/gm)) {
      if (!this.scopes.isCode(m.index + m[0].indexOf('import'))) continue;
      for (const item of m[1]!.split(',')) {
        const [, name, alias] = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(item) ?? [];
        if (name && MODULES.has(name)) modules.set(alias ?? name, name);
      }
    }
    for (const m of this.program.matchAll(/^[ \t]*from[ \t]+(os|subprocess|asyncio)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)/gm)) {
      if (!this.scopes.isCode(m.index + m[0].indexOf('from'))) continue;
      for (const item of m[2]!.replace(/[()]/g, '').split(',')) {
        const [, name, alias] = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(item) ?? [];
        if (name) functions.set(alias ?? name, `${m[1]!}.${name}`);
      }
    }
    return { modules, functions };
  }

  /** Every place a name is set, in the order of the file. */
  targets(): Target[] {
    return [
      ...[...this.program.matchAll(/^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)/gm)].map((m) => ({
        name: m[1]!,
        at: m.index + m[0].indexOf(m[1]!),
        from: m.index + m[0].length,
      })),
      ...[...this.program.matchAll(/\bfor[ \t]+([A-Za-z_]\w*)[ \t]+in\b/g)].map((m) => ({
        name: m[1]!,
        at: m.index + m[0].indexOf(m[1]!, 3),
        from: m.index + m[0].length,
      })),
    ]
      .filter(({ at }) => this.scopes.isCode(at))
      .sort((a, b) => a.at - b.at)
      .slice(0, MAX_TARGETS);
  }

  /**
   * The names (as `scope:name`) that hold text from the input (the parses,
   * or a `seed` name such as a parameter): set from an expression holding it
   * or such a name. Two passes take an assignment written before its source.
   */
  taintedNames(targets: readonly Target[], parses: readonly Place[], seed?: string): Set<string> {
    const tainted = new Set<string>(seed === undefined ? [] : [seed]);
    for (let pass = 0; pass < 2; pass++) {
      for (const { name, at, from } of targets) {
        if (this.firstTaint(from, this.statementEnd(from), tainted, parses)) tainted.add(`${this.scopes.bindingScope(name, at)}:${name}`);
      }
    }
    return tainted;
  }

  /** The file's functions (defined once) and their parameters that reach the command of a shell call in them, through names set there. */
  shellHelpers(targets: readonly Target[], calls: readonly ShellCall[]): Map<string, { parameter: string; index: number }[]> {
    const helpers = new Map<string, { parameter: string; index: number }[]>();
    const looked = new Set<string>();
    const taintOf = new Map<string, Set<string>>();
    for (const { at, command } of calls) {
      const fn = this.scopes.functionAt(at);
      if (!fn || this.scopes.functionNamed(fn.name)?.id !== fn.id) continue;
      if (!looked.has(fn.name) && looked.size === MAX_HELPERS) break;
      looked.add(fn.name);
      const own = targets.slice(firstAtOrAfter(targets, fn.from), firstAtOrAfter(targets, fn.to));
      if (own.length > MAX_HELPER_TARGETS) continue;
      const reaching = helpers.get(fn.name) ?? [];
      fn.parameters.slice(0, MAX_HELPER_PARAMETERS).forEach((parameter, index) => {
        if (reaching.some((r) => r.index === index)) return;
        const seed = `${fn.id}:${parameter}`;
        const tainted = taintOf.get(seed) ?? this.taintedNames(own, [], seed);
        taintOf.set(seed, tainted);
        if (this.firstTaint(command.start, command.end, tainted, [])) reaching.push({ parameter, index });
      });
      if (reaching.length) helpers.set(fn.name, reaching);
    }
    return helpers;
  }

  /** Where the logical line from `from` ends: its line break outside brackets, the `:` of a `for`, or the bracket around it. */
  private statementEnd(from: number): number {
    const limit = Math.min(this.program.length, from + MAX_SPAN);
    for (let i = from; i < limit; i++) {
      const nested = this.closing[i]!;
      if (nested >= 0) i = nested;
      else {
        const c = this.program[i];
        if ((c === '\n' || c === ';' || c === ':' || c === ')' || c === ']' || c === '}') && this.scopes.isCode(i)) return i;
      }
    }
    return limit;
  }

  /** The first place in [start, end) (its first MAX_SPAN characters) that holds the input: a parse, or a tainted name; not inside a quoting call. */
  firstTaint(start: number, end: number, tainted: ReadonlySet<string>, parses: readonly Place[]): Place | undefined {
    const to = Math.min(end, start + MAX_SPAN);
    const quoted: [number, number][] = [];
    const text = this.program.slice(start, to);
    for (const q of text.matchAll(QUOTING_CALL)) {
      const open = start + q.index + q[0].length;
      if (!this.scopes.isCode(start + q.index)) continue;
      const close = this.closing[open - 1]!;
      quoted.push([open, close >= 0 ? close : to]);
    }
    const safe = (at: number): boolean => quoted.some(([a, b]) => at >= a && at < b);
    const parse = parses.find((p) => p.start >= start && p.start < to && !safe(p.start));
    if (parse) return parse;
    for (const id of text.matchAll(IDENTIFIER)) {
      const at = start + id.index;
      const after = this.program.slice(at + id[0].length, at + id[0].length + 3);
      // Not a keyword argument's name (`text=True`), nor a string's prefix (`f"…"`, `rb'…'`).
      if (!this.scopes.isCode(at) || safe(at) || /^\s*=(?!=)|^['"]/.test(after)) continue;
      if (tainted.has(`${this.scopes.bindingScope(id[0], at)}:${id[0]}`)) return { start: at, end: at + id[0].length };
    }
    return undefined;
  }
}

/** The index of the first of the sorted targets at or after `offset`. */
function firstAtOrAfter(targets: readonly Target[], offset: number): number {
  let low = 0;
  let high = targets.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (targets[mid]!.at < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}
