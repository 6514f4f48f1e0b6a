import { own } from '../records.js';
import { aliasedCommand } from './aliases.js';
import { awkProgramWord } from './programs.js';
import { OPTION_SCRIPT_READERS } from './option-scripts.js';
import { commandBase, SHELLS, shellName, shellScriptArgument } from './analysis.js';
import { collectCommands, takesNextWord, type PlainCommand, type PlainWord, type ShellCommand, type ShellWord } from './commands.js';
import { nodesOfType } from './node-index.js';
import { staticValue } from './static-value.js';
import { loadedShellParser, type SyntaxNode, type SyntaxTree } from './parser.js';
import { joinPieces, slice, wordText, type Piece } from './script-text.js';
import { pipedText, stdinText, substitutionText } from './stdin-text.js';
import { WRAPPERS } from './wrappers.js';

/**
 * Scripts a hook hands to a shell as text: `bash -c '…'` (and `sh`, `dash`,
 * `zsh`…, the user's `$SHELL`), `eval '…'`, `su -c '…'`, `script -c '…'`,
 * `watch '…'`, `flock FILE -c '…'`, a `trap '…' EXIT` action, awk's
 * `system("…")`, the commands other programs run from their options
 * (`tar --checkpoint-action=exec=…`, `git -c core.pager=…`: option-scripts.ts), a here-document or here-string fed to a shell, text `echo`,
 * `printf` or `cat` pipes into a shell (`echo '…' | sh`) or prints in a
 * process substitution a shell runs (`source <(echo '…')`).
 * Each is parsed as the script it is, so that `rm -rf` in
 * `bash -c 'rm -rf ./build'` is seen as it is outside the quotes, at its own
 * place in the file.
 *
 * A command named by an alias the script defines (`alias zap='rm -rf'`,
 * aliases.ts) is read as the alias's text and its words, and one named by a
 * variable the script sets once to plain words (`RM="rm -rf"; $RM ./x`) is
 * read the same way, as the words it runs, and so is `env -S 'rm -rf x'`'s
 * string of plain words.
 *
 * A text with an expansion (`bash -c "rm -rf $DIR"`) is read as written: the
 * inner shell sees the value instead, but the commands around it are the
 * same. Text the inner shell could not parse is not read (what it would run
 * is a guess), nor a text it builds at run time (`bash -c "$CMD"`).
 */
export interface NestedCommand extends PlainCommand {
  /** How the hook hands the text to a shell: `bash -c`, `eval`, `su -c`, `a here-document fed to bash`… */
  via: string;
  /** The command that hands it over (`bash -c '…'` itself), which may be nested too. */
  runBy: PlainCommand;
}

/** A redirect's target in text handed to a shell (`bash -c 'echo x > /dev/tcp/h/80'`), at its place in the hook's script. */
export interface NestedRedirect {
  /** The target as the inner script writes it. */
  text: string;
  start: number;
  end: number;
  via: string;
}

/** A text the hook hands to a shell, and how. */
interface Source extends Piece {
  via: string;
}

/** Whether a command is one of text handed to a shell. */
export function isNested(command: PlainCommand): command is NestedCommand {
  return 'runBy' in command;
}

/** Where the characters of a text are in the hook's script. */
interface Place {
  start(offset: number): number;
  end(offset: number): number;
}

/** `bash -c "sh -c '…'"` is read this deep and no deeper. */
const MAX_DEPTH = 4;
const found = new WeakMap<SyntaxTree, { commands: NestedCommand[]; redirects: NestedRedirect[] }>();

/** The commands of the scripts inside the hook's script (`tree`, `commands`, `text`), with script offsets. */
export function nestedCommands(tree: SyntaxTree, commands: readonly ShellCommand[], text: string): NestedCommand[] {
  return nested(tree, commands, text).commands;
}

/** The file redirects' targets of the scripts inside the hook's script, with script offsets. */
export function nestedRedirects(tree: SyntaxTree, commands: readonly ShellCommand[], text: string): NestedRedirect[] {
  return nested(tree, commands, text).redirects;
}

function nested(
  tree: SyntaxTree,
  commands: readonly ShellCommand[],
  text: string,
): { commands: NestedCommand[]; redirects: NestedRedirect[] } {
  let result = found.get(tree);
  if (!result) {
    const all: NestedCommand[] = [];
    const redirects: NestedRedirect[] = [];
    collect(
      tree.rootNode,
      commands.map((command) => ({ command, placed: command })),
      text,
      { start: (offset) => offset, end: (offset) => offset + 1 },
      1,
      all,
      redirects,
    );
    // `eval "$(curl …)"`: the substitution's commands are the hook's own, already read. Most hooks hand
    // no text to a shell: then there is nothing to tell apart from the hook's own commands and redirects.
    if (all.length === 0 && redirects.length === 0) {
      result = { commands: [], redirects: [] };
      found.set(tree, result);
      return result;
    }
    const keyOf = (c: PlainCommand): string => `${c.start}:${c.end}:${c.name.value ?? '\u0000'}`;
    const seen = new Set(commands.map(keyOf));
    const seenRedirects = new Set(
      nodesOfType(tree.rootNode, ['file_redirect']).flatMap((r) => {
        const destination = r.childForFieldName('destination');
        return destination ? [`${destination.startIndex}:${destination.endIndex}`] : [];
      }),
    );
    result = {
      commands: all.filter((c) => {
        const key = keyOf(c);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }),
      redirects: redirects.filter((r) => {
        const key = `${r.start}:${r.end}`;
        if (seenRedirects.has(key)) return false;
        seenRedirects.add(key);
        return true;
      }),
    };
    found.set(tree, result);
  }
  return result;
}

/** A command of a script, and the same command at its place in the hook's script. */
interface Found {
  command: ShellCommand;
  placed: PlainCommand;
}

function collect(
  root: SyntaxNode,
  commands: readonly Found[],
  text: string,
  place: Place,
  depth: number,
  out: NestedCommand[],
  redirects: NestedRedirect[],
): void {
  const parser = loadedShellParser();
  if (!parser) return;
  const all = commands.map((c) => c.command);
  for (const { command, placed: runBy } of commands)
    for (const source of scriptsOf(command, text, root, all)) {
      const tree = parser.parse(source.text);
      if (!tree) continue;
      try {
        if (tree.rootNode.hasError) continue;
        const inside: Place = { start: (i) => place.start(source.at[i]!), end: (i) => place.end(source.after[i]! - 1) };
        const inner = collectCommands(tree.rootNode, source.text).map((c) => ({
          command: c,
          placed: placed(c, inside, source.via, runBy),
        }));
        for (const c of inner) out.push(c.placed);
        for (const redirect of nodesOfType(tree.rootNode, ['file_redirect'])) {
          const destination = redirect.childForFieldName('destination');
          if (destination)
            redirects.push({
              text: destination.text,
              start: inside.start(destination.startIndex),
              end: inside.end(destination.endIndex - 1),
              via: source.via,
            });
        }
        if (depth < MAX_DEPTH) collect(tree.rootNode, inner, source.text, inside, depth + 1, out, redirects);
      } finally {
        tree.delete();
      }
    }
}

function placed(command: ShellCommand, place: Place, via: string, runBy: PlainCommand): NestedCommand {
  const word = (w: PlainWord): PlainWord => ({ text: w.text, value: w.value, start: place.start(w.start), end: place.end(w.end - 1) });
  const result: NestedCommand = {
    name: word(command.name),
    args: command.args.map(word),
    start: place.start(command.start),
    end: place.end(command.end - 1),
    heredocs: command.heredocs,
    via,
    runBy,
  };
  if (command.wrappedBy !== undefined) result.wrappedBy = command.wrappedBy;
  return result;
}

/** The texts `command` runs as shell code (`root` and `commands`: the script it is in). */
function scriptsOf(command: ShellCommand, text: string, root: SyntaxNode, commands: readonly ShellCommand[]): Source[] {
  const base = commandBase(command) ?? shellName(command);
  if (base === undefined) return constantName(command, text, root, commands);
  // `source <(echo 'rm -rf x')`, `bash <(printf …)`: what the process substitution prints is the script.
  // (The node is read only for a word that starts as one: for a command an editor's run kept, finding it costs a walk.)
  const firstWord = command.args[0];
  const first =
    (base === 'source' || base === '.' || SHELLS.has(base)) && firstWord && /^[<>]\(/.test(firstWord.text) ? firstWord.node : undefined;
  if (first?.type === 'process_substitution') {
    const written = substitutionText(first, text, commands);
    return written ? sourcesOf(written.pieces, `the output of ${written.writer} run by ${base}`) : [];
  }
  const aliased = aliasedCommand(command, text, commands);
  if (aliased) return [aliased];
  const reader = own(SCRIPT_READERS, base);
  if (reader) return reader(command, text, base);
  if (!SHELLS.has(base) && base !== '$SHELL') return [];
  const script = shellScriptArgument(command);
  if (script) return sourcesOf([wordText(script, text)], `${base} -c`);
  // A shell with no script argument reads its script from stdin.
  if (command.args.some((arg) => arg.value === undefined || !arg.value.startsWith('-'))) return [];
  const piped = pipedText(command, text, commands);
  return [
    ...sourcesOf(stdinText(command, text), `a here-document fed to ${base}`),
    ...(piped ? sourcesOf(piped.pieces, `${piped.writer} piped into ${base}`) : []),
  ];
}

/** Commands other than shells that run a text of theirs as shell code, and how each names it. */
const SCRIPT_READERS: Record<string, (command: ShellCommand, text: string, base: string) => Source[]> = {
  eval(command, text) {
    const pieces = command.args.map((arg) => wordText(arg, text));
    if (pieces.length === 0 || pieces.some((p) => p === undefined)) return [];
    return [{ ...joinPieces(pieces as Piece[]), via: 'eval' }];
  },
  trap(command, text) {
    // `trap 'rm -rf "$D"' EXIT` runs its first word at the signal; `trap - EXIT`, `trap -p` and `trap EXIT` run nothing.
    const args = command.args[0]?.value === '--' ? command.args.slice(1) : command.args;
    const action = args.length > 1 && !args[0]!.value?.startsWith('-') ? args[0] : undefined;
    return sourcesOf(action ? [wordText(action, text)] : [], 'trap');
  },
  env: (command, text) => splitString(command, text),
  watch: (command, text) => watchCommand(command, text),
  flock: (command, text) => flockCommand(command, text),
  su: commandOption,
  runuser: commandOption,
  // util-linux `script -c '…' FILE` runs the command in a shell, in a new terminal.
  script: commandOption,
  awk: awkSystemCalls,
  gawk: awkSystemCalls,
  mawk: awkSystemCalls,
  nawk: awkSystemCalls,
  // tar --checkpoint-action=exec, git -c core.pager, ssh -o ProxyCommand, rsync -e, sed's e, vim -c '!…'…
  ...OPTION_SCRIPT_READERS,
};

/**
 * `awk 'BEGIN { system("rm -rf x") }'`: awk hands each `system()` string to
 * `sh -c`. Read where the program says it literally (a string with no escape);
 * a program from a file (`-f`) is not read.
 */
function awkSystemCalls(command: ShellCommand, text: string, base: string): Source[] {
  const program = awkProgramWord(command.args);
  const piece = program ? wordText(program, text) : undefined;
  if (!piece) return [];
  const calls: Piece[] = [];
  for (const match of piece.text.matchAll(/\bsystem\s*\(\s*"([^"\\]*)"\s*\)/g)) {
    const start = match.index + match[0].indexOf('"') + 1;
    const end = start + match[1]!.length;
    calls.push({ text: piece.text.slice(start, end), at: piece.at.slice(start, end), after: piece.after.slice(start, end) });
  }
  return sourcesOf(calls, `${base}'s system()`);
}

/** `su -c '…'`, `runuser -c`, `script -qc` (or `--command`): the option's value. */
function commandOption(command: ShellCommand, text: string, base: string): Source[] {
  const i = command.args.findIndex((arg) => arg.value === '--command' || (arg.value !== undefined && /^-[A-Za-z]*c$/.test(arg.value)));
  const script = i === -1 ? undefined : command.args[i + 1];
  return sourcesOf(script ? [wordText(script, text)] : [], `${base} -c`);
}

/** Words the shell splits and runs as they are: no quote, expansion, glob or operator to read differently as a script. */
const PLAIN_WORDS = /^[\w./:@%+,=-]+(?:[ \t]+[\w./:@%+,=-]+)*$/;
/** Commands that give a variable a value of their own. */
const WRITERS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'unset']);

/**
 * `RM="rm -rf"; $RM ./x`: a command named by a variable the script sets
 * once, to plain words, before it runs it, is the command those words name.
 */
function constantName(command: ShellCommand, text: string, root: SyntaxNode, commands: readonly ShellCommand[]): Source[] {
  const match = /^(")?\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))(")?$/.exec(command.name.text);
  if (!match || (match[1] === undefined) !== (match[4] === undefined)) return [];
  const name = (match[2] ?? match[3])!;
  const assignments = nodesOfType(root, ['variable_assignment', 'for_statement']).filter(
    (node) => node.childForFieldName(node.type === 'for_statement' ? 'variable' : 'name')?.text === name,
  );
  const only = assignments.length === 1 ? assignments[0]! : undefined;
  if (only?.type !== 'variable_assignment' || only.endIndex > command.start) return [];
  if (commands.some((c) => c.name.value !== undefined && WRITERS.has(c.name.value) && c.args.some((a) => a.value === name))) return [];
  const valueNode = only.childForFieldName('value');
  const value = valueNode ? staticValue(valueNode)?.trim() : undefined;
  // Quoted, the value is one word: `"$RM"` with RM="rm -rf" names a command `rm -rf`, which does not exist.
  if (value === undefined || !PLAIN_WORDS.test(value) || (match[1] !== undefined && /\s/.test(value))) return [];
  const rest = slice(text, command.name.end, command.end);
  return [
    {
      text: value + rest.text,
      at: [...Array.from(value, () => command.name.start), ...rest.at],
      after: [...Array.from(value, () => command.name.end), ...rest.after],
      via: `the value of $${name}`,
    },
  ];
}

/**
 * `env -S 'rm -rf' x` runs the words env splits its string into, then its
 * other arguments. env's splitting has its own quotes, escapes, `${VAR}` and
 * `#`; a string of plain words it splits as the shell does, and only that is read.
 */
function splitString(command: ShellCommand, text: string): Source[] {
  const args = command.args;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    // env stops at its first word that is not an option (an assignment, or the command).
    if (value === undefined || !value.startsWith('-') || value === '-' || value === '--') return [];
    // `-S STRING`, `-iS STRING`, `-SSTRING`, `--split-string STRING` (or a prefix: `--sp STRING`), `--split-string=STRING`.
    const long = /^--([^=]+)(=?)/.exec(value);
    const short = /^-[i0v]*S/.exec(value);
    const skip =
      long && 'split-string'.startsWith(long[1]!) ? (long[2] ? value.indexOf('=') + 1 : value.length) : short ? short[0].length : undefined;
    if (skip === undefined) {
      if (takesNextWord(value, WRAPPERS.env!.optionsWithValue)) i++;
      continue;
    }
    const word = skip === value.length ? args[i + 1] : args[i];
    const piece = word ? wordText(word, text) : undefined;
    if (!word || !piece) return [];
    const from = word === args[i] ? skip : 0;
    const string = { text: piece.text.slice(from), at: piece.at.slice(from), after: piece.after.slice(from) };
    if (!PLAIN_WORDS.test(string.text.trim())) return [];
    // `env -S '-i rm -rf x'`: the string's own options are env's again; read as `env -i rm -rf x`, written where the string starts.
    const lead = string.text.trimStart().startsWith('-') ? 'env ' : '';
    const rest = slice(text, word.end, command.end);
    return [
      {
        text: lead + string.text + rest.text,
        at: [...Array.from(lead, () => word.start), ...string.at, ...rest.at],
        after: [...Array.from(lead, () => word.start + 1), ...string.after, ...rest.after],
        via: 'env -S',
      },
    ];
  }
  return [];
}

/** The index of the first operand: getopt stops at the first word that is not an option, or after `--`. */
function firstOperand(args: readonly ShellWord[], withValue: readonly string[]): number | undefined {
  let i = 0;
  while (i < args.length) {
    const value = args[i]!.value;
    if (value === undefined) return undefined;
    if (value === '--') return i + 1;
    if (!value.startsWith('-') || value === '-') break;
    i += takesNextWord(value, withValue) ? 2 : 1;
  }
  return i;
}

/**
 * `watch 'rm -rf x'`: watch joins its command's words with spaces and runs
 * them with `sh -c`, unless `-x` (`--exec`) runs the words as they are.
 */
function watchCommand(command: ShellCommand, text: string): Source[] {
  const args = command.args;
  const first = firstOperand(args, WRAPPERS.watch!.optionsWithValue);
  if (first === undefined || first >= args.length) return [];
  if (args.slice(0, first).some((a) => /^-[bcegptw]*x|^--ex(?:ec?)?$/.test(a.value!))) return [];
  const pieces = args.slice(first).map((arg) => wordText(arg, text));
  if (pieces.some((p) => p === undefined)) return [];
  return [{ ...joinPieces(pieces as Piece[]), via: 'watch' }];
}

/** `flock [options] FILE -c COMMAND` runs COMMAND with the shell's `-c`; `-c` must follow the file, with one word after it. */
function flockCommand(command: ShellCommand, text: string): Source[] {
  const args = command.args;
  const file = firstOperand(args, WRAPPERS.flock!.optionsWithValue);
  if (file === undefined) return [];
  const flag = args[file + 1]?.value;
  if ((flag !== '-c' && flag !== '--command') || args.length !== file + 3) return [];
  return sourcesOf([wordText(args[file + 2]!, text)], 'flock -c');
}

function sourcesOf(pieces: readonly (Piece | undefined)[], via: string): Source[] {
  return pieces.filter((p): p is Piece => p !== undefined && p.text.trim() !== '').map((p) => ({ ...p, via }));
}
