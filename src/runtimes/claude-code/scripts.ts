import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import type { Profile } from '../../profile/profile.js';
import type { HookScript } from '../../hooks/types.js';

/** A script a hook command runs, by a path Claude Code resolves the same way on every machine. */
export interface ScriptReference {
  /** Offsets of the path word in the hook's script text. */
  start: number;
  end: number;
  /** The word as written (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`). */
  written: string;
  /** Absolute path it stands for. */
  path: string;
  /** The interpreter named before it (`bash`, `python3`), if any. */
  interpreter?: string;
  /** Its standard input is not the hook's: it is fed by a pipe or a redirection (`jq -c .tool_input | python3 x.py`). */
  foreignStdin?: true;
}

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
const INTERPRETERS = new Set([...SHELLS, 'python', 'python3', 'node', 'ruby', 'perl', 'bun', 'deno', 'tsx', 'ts-node', 'php']);
/** `uv run` options that take a value. */
const UV_VALUE_OPTIONS = new Set([
  '--with',
  '-w',
  '--python',
  '-p',
  '--project',
  '--directory',
  '--env-file',
  '--group',
  '--extra',
  '--index',
  '--with-requirements',
]);
/** Words that run the command after them (`exec ./x.sh`, `env A=1 ./x.sh`). */
const PREFIXES = new Set(['exec', 'command', 'nohup', 'env', 'time']);
const RUNNERS = new Set(['npx', 'bunx']);
const PROJECT_DIR = /^\$(?:\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR\b)/;
const PLUGIN_ROOT = /^\$(?:\{CLAUDE_PLUGIN_ROOT\}|CLAUDE_PLUGIN_ROOT\b)/;

/**
 * The scripts a hook runs by a path relative to the project, under
 * `$CLAUDE_PROJECT_DIR` or under `${CLAUDE_PLUGIN_ROOT}`: the first word of
 * each simple command, or the script after an interpreter (`bash x.sh`,
 * `python3 "$CLAUDE_PROJECT_DIR/h.py"`). Paths with other expansions, `~`
 * or absolute paths depend on the machine and are left alone, as are paths
 * that leave the directory they are relative to.
 */
export function scriptReferences(hook: HookScript): ScriptReference[] {
  const meta = hook.claudeCode;
  if (!meta) return [];
  const words = meta.form === 'exec' ? execWords(hook) : shellCommands(hook.text);
  const found: ScriptReference[] = [];
  for (const command of words) {
    let i = 0;
    while (i < command.length && (PREFIXES.has(command[i]!.value) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(command[i]!.value))) i++;
    // `npx tsx x.ts`, `bunx --bun tsx x.ts`: the package runner hands the file to the interpreter after it.
    if (RUNNERS.has(command[i]?.value ?? '')) for (i++; i < command.length && command[i]!.value.startsWith('-'); i++);
    const named = command[i]?.value === 'uv' && command[i + 1]?.value === 'run' ? uvScript(command, i + 2) : interpreted(command, i);
    if (!named) continue;
    const path = resolveWord(named.word.value, meta.projectDir, meta.pluginRoot, named.interpreter !== undefined);
    if (path === undefined) continue;
    const reference: ScriptReference = { start: named.word.start, end: named.word.end, written: named.word.raw, path };
    if (named.interpreter) reference.interpreter = named.interpreter;
    if (meta.form === 'shell' && !ownStdin(hook.text, command)) reference.foreignStdin = true;
    found.push(reference);
  }
  return found;
}

/** `uv run [options] script.py` runs the script with uv's Python (`i` is past `run`). */
function uvScript(command: readonly Word[], i: number): { word: Word; interpreter: string } | undefined {
  while (i < command.length && command[i]!.value.startsWith('-')) i += UV_VALUE_OPTIONS.has(command[i]!.value) ? 2 : 1;
  const script = command[i];
  return script && /\.py$/.test(script.value) ? { word: script, interpreter: 'uv' } : undefined;
}

/** The word a command runs as a script (`./x.sh`), or gives its interpreter (`python3 -u x.py`); none for `bash -c '…'` or `python -m module`. */
function interpreted(command: readonly Word[], i: number): { word: Word; interpreter?: string } | undefined {
  const first = command[i];
  if (!first || !INTERPRETERS.has(first.value.replace(/^.*\//, ''))) return first && { word: first };
  const name = first.value.replace(/^.*\//, '');
  // `python3 -c '…'`, `python -m module`, `node -e '…'` (`-p`, `--eval`, `--print`): no script file.
  const inline = name === 'node' || name === 'bun' ? /^-[a-z]*[ep]$|^--(?:eval|print)$/ : /^-[a-z]*[cm]$/;
  for (i++; i < command.length && command[i]!.value.startsWith('-'); i++) if (inline.test(command[i]!.value)) return undefined;
  // `bun run x.ts`, `deno run --allow-read x.ts`: the script follows the subcommand and its options.
  if ((name === 'bun' || name === 'deno') && command[i]?.value === 'run')
    for (i++; i < command.length && command[i]!.value.startsWith('-'); i++) if (inline.test(command[i]!.value)) return undefined;
  const word = command[i];
  return word && { word, interpreter: name };
}

/** Whether a simple command reads the hook's stdin: not after a pipe, no input redirection (`<`, `<<`, `<<<`, `0<`). */
function ownStdin(text: string, command: readonly Word[]): boolean {
  const before = text.slice(0, command[0]!.start).trimEnd();
  if (before.endsWith('|') && !before.endsWith('||')) return false;
  // `<(…)` is an argument (its `(` ends the word here), not the command's input.
  return !command.some((word) => /^0?<(?!\()/.test(word.raw) && !(word.raw === '<' && text[word.end] === '('));
}

function resolveWord(
  value: string,
  projectDir: string | undefined,
  pluginRoot: string | undefined,
  afterInterpreter: boolean,
): string | undefined {
  let base: string | undefined;
  let rest: string;
  if (PROJECT_DIR.test(value)) {
    base = projectDir;
    rest = value.replace(PROJECT_DIR, '');
  } else if (PLUGIN_ROOT.test(value)) {
    base = pluginRoot;
    rest = value.replace(PLUGIN_ROOT, '');
  } else {
    // Hooks run in the project directory; a plugin's relative paths depend on the user's project, unknown here.
    base = pluginRoot === undefined ? projectDir : undefined;
    rest = value;
    // A bare word runs from PATH unless an interpreter is given a file.
    if (!rest.includes('/') && !afterInterpreter) return undefined;
    if (isAbsolute(rest) || rest.startsWith('~')) return undefined;
  }
  if (base === undefined || /[$`*?[\]{}~]/.test(rest) || rest === '' || rest === '/') return undefined;
  const path = resolve(base, rest.replace(/^\/+/, ''));
  const inside = relative(base, path);
  if (inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return path;
}

interface Word {
  /** The word with quotes removed (expansions kept as written). */
  value: string;
  raw: string;
  start: number;
  end: number;
}

/**
 * The simple commands of a shell-form command, as words, split at `;`,
 * `&&`, `||`, `|`, `&`, newlines and brackets, quotes honoured. Enough to
 * find the script a hook runs; the shell rules read the real syntax tree.
 */
export function shellCommands(text: string): Word[][] {
  const commands: Word[][] = [];
  let current: Word[] = [];
  let i = 0;
  const endCommand = (): void => {
    if (current.length) commands.push(current);
    current = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (';&|\n(){}'.includes(c)) {
      endCommand();
      i++;
      continue;
    }
    const start = i;
    let value = '';
    // As in bash, a carriage return or a no-break space is part of a word. The word ends only at what the
    // loop above skips or splits at, so it takes at least one character.
    while (i < text.length && !/[ \t\n;&|(){}]/.test(text[i]!)) {
      const ch = text[i]!;
      if (ch === "'" || ch === '"') {
        const part = quotedPart(text, i);
        value += part.value;
        i = part.next;
      } else if (ch === '\\' && i + 1 < text.length) {
        value += text.charAt(i + 1);
        i += 2;
      } else if (ch === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
        // Keep `$(…)` and `${…}` whole, so `|` or `;` inside them split nothing.
        const open = text[i + 1]!;
        const close = open === '(' ? ')' : '}';
        let depth = 0;
        let j = i + 1;
        for (; j < text.length; j++) {
          if (text[j] === open) depth++;
          else if (text[j] === close && --depth === 0) break;
        }
        value += text.slice(i, j + 1);
        i = j + 1;
      } else {
        value += ch;
        i++;
      }
    }
    current.push({ value, raw: text.slice(start, i), start, end: i });
  }
  endCommand();
  return commands;
}

/** A quoted part of a word (`'…'` or `"…"`, starting at `i`) without its quotes, and the offset after it. */
function quotedPart(text: string, i: number): { value: string; next: number } {
  let end = i + 1;
  if (text[i] === "'") {
    const close = text.indexOf("'", end);
    end = close === -1 ? text.length : close;
    return { value: text.slice(i + 1, end), next: end + 1 };
  }
  // In double quotes a backslash escapes `$`, `` ` ``, `"` and `\`, and joins lines: `\"` does not close the word.
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
  const value = text.slice(i + 1, Math.min(end, text.length)).replace(/\\(?:\n|([$`"\\]))/g, (_, c?: string) => c ?? '');
  return { value, next: end + 1 };
}

/** Exec form: the executable is the command string, its arguments are `args`; only the executable can be a script here. */
function execWords(hook: HookScript): Word[][] {
  const meta = hook.claudeCode!;
  const command: Word = { value: hook.text, raw: hook.text, start: 0, end: hook.text.length };
  const args = (meta.args ?? []).map((value) => ({ value, raw: value, start: 0, end: hook.text.length }));
  return [[command, ...args]];
}

/** Whether the file a reference names is a Python program (by interpreter, extension or shebang; `uv run` takes only `.py`). */
export function isPythonScript(reference: ScriptReference, head: string): boolean {
  if (reference.interpreter !== undefined) return reference.interpreter === 'uv' || reference.interpreter.startsWith('python');
  const extension = extname(reference.path).toLowerCase();
  if (extension === '.py') return true;
  if (extension !== '') return false;
  return /^#!.*\b(?:python[\d.]*|uv run)\b/.test(head);
}

/**
 * Whether the file a reference names is a JavaScript or TypeScript program (by interpreter, extension or
 * shebang): `node x.js`, `bun x.mjs`, `bun run x.ts`, `tsx x.ts`, `deno run x.ts`, `./x.cjs`, `./x.ts`, an
 * extensionless file whose #! line runs node, bun, tsx or deno.
 */
export function isNodeScript(reference: ScriptReference, head: string): boolean {
  const extension = extname(reference.path).toLowerCase();
  const script = /^\.[mc]?[jt]s$/.test(extension);
  if (reference.interpreter !== undefined) return reference.interpreter === 'node' || (JS_RUNTIMES.has(reference.interpreter) && script);
  if (script) return true;
  if (extension !== '') return false;
  return /^#!.*\b(?:node|bun|tsx|ts-node|deno)\b/.test(head);
}

/** What runs a JavaScript or TypeScript file besides node. */
const JS_RUNTIMES = new Set(['bun', 'deno', 'tsx', 'ts-node']);

/** Whether the file a reference names is a shell script the tool should lint (by interpreter, extension or shebang). */
export function isShellScript(reference: ScriptReference, head: string): boolean {
  if (reference.interpreter !== undefined) return SHELLS.has(reference.interpreter);
  const extension = extname(reference.path).toLowerCase();
  if (extension === '.sh' || extension === '.bash') return true;
  if (extension !== '') return false;
  return /^#!.*\b(?:ba|z|da|k)?sh\b/.test(head);
}

export interface ScriptFacts {
  exists(path: string): boolean;
  isFile(path: string): boolean;
  head(path: string): string;
}

export const diskFacts: ScriptFacts = {
  exists: (path) => existsSync(path),
  isFile: (path) => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  },
  head: (path) => {
    try {
      return readFileSync(path).subarray(0, 200).toString('utf8');
    } catch {
      return '';
    }
  },
};

/** A whole script file as one hook script: every position maps to itself. */
export function scriptFileHook(
  profile: Profile,
  calledBy: readonly string[],
  callers: { inBackground?: boolean; callerTools?: readonly string[]; foreignStdin?: boolean } = {},
): HookScript {
  const { inBackground, callerTools, foreignStdin } = callers;
  const text = profile.source.text;
  const end = profile.lines.rangeOf(text.length, text.length);
  const whole = profile.lines.rangeOf(0, text.length);
  return {
    runtime: 'claude-code',
    file: profile.path,
    name: 'script',
    keyPath: [],
    text,
    style: 'file',
    keyRange: { line: 1, column: 1, endLine: 1, endColumn: 1 },
    valueRange: { ...whole, endLine: end.endLine, endColumn: end.endColumn },
    segments: [{ scriptOffset: 0, fileOffset: 0, length: text.length }],
    claudeCode: {
      event: calledBy[0] ?? '',
      effectiveEvent: calledBy[0] ?? '',
      source: 'settings',
      groupIndex: -1,
      handlerIndex: -1,
      handlerType: 'command',
      form: 'shell',
      fields: {},
      callerEvents: [...calledBy],
      ...(callerTools ? { callerTools: [...callerTools] } : {}),
      ...(inBackground ? { async: true } : {}),
      ...(foreignStdin ? { foreignStdin: true } : {}),
    },
  };
}
