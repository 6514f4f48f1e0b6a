import type { Range } from '../diagnostics.js';
import { ScriptSourceMap } from '../hooks/source-map.js';
import type { HookScript } from '../hooks/types.js';
import { optionValue, wordTemplate } from '../shell/analysis.js';
import { basename, collectCommands, type ShellCommand, type ShellWord } from '../shell/commands.js';
import { parseShell, type loadShellParser, type SyntaxTree } from '../shell/parser.js';
import type { LoadedProfile } from './world.js';

type Parser = Awaited<ReturnType<typeof loadShellParser>>;

/**
 * Which command of a hook ran an operation the trace recorded, found in the
 * hook's syntax tree: every simple command, also inside `$(...)`, pipelines
 * and lists, is a candidate when its name is the operation's program; the one
 * whose action word and key match the operation wins. A finding lands on
 * that command's name — the `redis-cli` inside `X=$(redis-cli get k)`, not
 * the statement's first column.
 */

export interface CommandMatcher {
  /** The program, as a path or a name (`/sqlite-memory`, `redis-cli`, `invoke-waiting-mode`); `.sh` is ignored. */
  commands: string[];
  /** The action word (`retrieve`, `get`, `publish`), case-insensitive. */
  words?: string[];
  /** The key or type as run; the command's key word, its variables read as wildcards, must match it. */
  key?: string;
}

export interface CommandSite {
  /** File range: the command's name to the end of its last word. */
  range: Range;
  command: ShellCommand;
  tree: SyntaxTree;
}

/** Options whose value is the operation's key: `/sqlite-memory … --key K`, `/eventbus publish --type T`. */
const KEY_OPTIONS = ['--key', '--type'];

/** Parses each hook once, on first use; `dispose` frees the trees. */
export class HookSyntax {
  private readonly parsed = new Map<HookScript, { tree: SyntaxTree; commands: ShellCommand[] }>();

  constructor(private readonly parser: Parser) {}

  private of(hook: HookScript): { tree: SyntaxTree; commands: ShellCommand[] } {
    let entry = this.parsed.get(hook);
    if (!entry) {
      const tree = parseShell(this.parser, hook.text);
      entry = { tree, commands: collectCommands(tree.rootNode, hook.text) };
      this.parsed.set(hook, entry);
    }
    return entry;
  }

  /**
   * The command that most likely ran the operation: the program's commands,
   * ranked by a matching key, then a matching action word, then how much of
   * the key the word spells out literally; among equals, the first. Undefined
   * when no command of the hook is the program (e.g. it runs inside `eval` or
   * `bash -c '…'`) or the place cannot be mapped to the file.
   */
  site(hook: HookScript, profile: LoadedProfile, matcher: CommandMatcher): CommandSite | undefined {
    if (!profile.lines) return undefined;
    const { tree, commands } = this.of(hook);
    const names = new Set(matcher.commands.map(programName));
    let best: { command: ShellCommand; score: number; literal: number } | undefined;
    for (const command of commands) {
      if (!names.has(programName(command.name.value ?? command.name.text))) continue;
      const action = actionIndex(command, matcher.words);
      const literal = matcher.key === undefined ? -1 : keyMatch(command, action, matcher.key);
      const score = (literal >= 0 ? 2 : 0) + (action >= 0 ? 1 : 0);
      if (!best || score > best.score || (score === best.score && literal > best.literal)) best = { command, score, literal };
    }
    if (!best) return undefined;
    const map = new ScriptSourceMap(hook, profile.lines);
    const mapped = map.mapRange(map.scriptLines.rangeOf(best.command.name.start, best.command.end));
    return { range: mapped.range, command: best.command, tree };
  }

  dispose(): void {
    for (const { tree } of this.parsed.values()) tree.delete();
    this.parsed.clear();
  }
}

/** `/sqlite-memory` → `sqlite-memory`, `./x/invoke-waiting-mode.sh` → `invoke-waiting-mode`. */
function programName(path: string): string {
  return basename(path).replace(/\.sh$/, '');
}

/** Index in the command's arguments of its action word, or -1 (any action when none is asked for). */
function actionIndex(command: ShellCommand, words: readonly string[] | undefined): number {
  if (!words || words.length === 0) return -1;
  const wanted = words.map((word) => word.toLowerCase());
  return command.args.findIndex((arg) => arg.value !== undefined && wanted.includes(arg.value.toLowerCase()));
}

/**
 * How many literal characters the command's key word has when it matches
 * the key (its expansions read as wildcards), or -1. The key word is the
 * value of `--key` / `--type` when the command has one; otherwise (Redis)
 * any word after the action word.
 */
function keyMatch(command: ShellCommand, action: number, key: string): number {
  const option = KEY_OPTIONS.map((name) => optionValue(command, name)).find((found) => found !== undefined);
  const words: { word: ShellWord; prefix: string }[] = option
    ? [{ word: option.word, prefix: option.word === option.option ? `${option.option.text.split('=')[0]!}=` : '' }]
    : command.args.slice(action + 1).map((word) => ({ word, prefix: '' }));
  let best = -1;
  for (const { word, prefix } of words) {
    const template = wordTemplate(word.node, '\u0000').text;
    const text = template.startsWith(prefix) ? template.slice(prefix.length) : template;
    const parts = text.split('\u0000');
    const pattern = new RegExp(`^${parts.map(escapeRegExp).join('.*')}$`, 's');
    if (pattern.test(key)) best = Math.max(best, parts.join('').length);
  }
  return best;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
