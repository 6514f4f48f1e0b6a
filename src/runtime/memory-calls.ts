import { COMMON_ENV, MEMORY_COMMAND, RUNTIME_EXTRA_ENV } from './contract.js';

/** Variables with the same value in every hook of one blocking episode; others (script locals) are unknown parts. */
const STABLE_VARIABLES = new Set<string>([...COMMON_ENV, ...RUNTIME_EXTRA_ENV]);
import { rememberedForWord, type ShellCommand, type ShellWord } from '../shell/commands.js';
import { optionValue, positionalArgs, variableUse, wordTemplate, type OptionValue } from '../shell/analysis.js';

/** One `/sqlite-memory <subcommand> --key K --level L [--data D]` call, as written. */
export interface MemoryCall {
  command: ShellCommand;
  subcommand: ShellWord | undefined;
  key: OptionValue | undefined;
  level: OptionValue | undefined;
  data: OptionValue | undefined;
}

const callsByCommands = new WeakMap<readonly ShellCommand[], readonly MemoryCall[]>();

/** The memory calls among a hook's commands; three rules ask, so the answer is kept with the (kept) command list. */
export function memoryCalls(commands: readonly ShellCommand[]): readonly MemoryCall[] {
  let calls = callsByCommands.get(commands);
  if (!calls) callsByCommands.set(commands, (calls = findMemoryCalls(commands)));
  return calls;
}

function findMemoryCalls(commands: readonly ShellCommand[]): MemoryCall[] {
  return commands
    .filter((c) => c.name.value === MEMORY_COMMAND)
    .map((command) => {
      // Options may come before the subcommand; the subcommand is the first word that is neither an option nor an option's value.
      const valued = new Set<ShellWord>();
      for (const name of ['--key', '--level', '--data', '--namespace', '--ttl']) {
        const option = optionValue(command, name);
        if (option && option.word !== option.option) valued.add(option.word);
      }
      const subcommand = positionalArgs(command).find((w) => !valued.has(w));
      return {
        command,
        subcommand,
        key: optionValue(command, '--key'),
        level: optionValue(command, '--level'),
        data: optionValue(command, '--data'),
      };
    });
}

/**
 * A key in a form two hooks' keys can be compared in: quotes removed, every
 * runtime variable written `${NAME}` (so `$AGENT_ID` and `"${AGENT_ID}"` agree),
 * and every other computed part (`$(date +%s)`, `${X:-y}`, a script's own
 * variable, whose value differs between hooks) an unknown `*`.
 */
export function normalisedKey(option: OptionValue): string | undefined {
  // The key is the word's own (an editor's next run reuses it for a word the edit left alone); `--key=…` is read apart.
  const kind = option.word === option.option ? 'memory-key-joined' : 'memory-key';
  if (!keys.has(option))
    keys.set(
      option,
      rememberedForWord(option.word, kind, () => keyOf(option)),
    );
  return keys.get(option);
}

/** By option: the cross-hook rules compare every hook's keys at each run, and unchanged hooks keep their calls. */
const keys = new WeakMap<OptionValue, string | undefined>();

function keyOf(option: OptionValue): string | undefined {
  if (option.word === option.option) {
    // `--key=value`: the key is the text after `=`.
    if (option.value !== undefined) return option.value;
    const template = wordTemplate(option.word.node, '\u0000');
    const text = template.text.slice(template.text.indexOf('=') + 1);
    return substitute(text, template.expansions);
  }
  const template = wordTemplate(option.word.node, '\u0000');
  return substitute(template.text, template.expansions);
}

function substitute(text: string, expansions: readonly import('../shell/parser.js').SyntaxNode[]): string {
  let index = 0;
  return text.replaceAll('\u0000', () => {
    const node = expansions[index++];
    const use = node ? variableUse(node) : undefined;
    return use && use.operator === undefined && !use.length && STABLE_VARIABLES.has(use.name) ? `\${${use.name}}` : '*';
  });
}

/** Do two normalised keys name the same entry? `*` (a computed part) matches anything. */
export function keysMatch(a: string, b: string): boolean {
  if (a === b) return true;
  if (!a.includes('*') && !b.includes('*')) return false;
  const pattern = (key: string): RegExp =>
    new RegExp(
      `^${key
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
  return pattern(a).test(b) || pattern(b).test(a);
}
