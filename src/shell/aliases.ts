import type { ShellCommand } from './commands.js';
import { slice, wordText, type Piece } from './script-text.js';

/** A name `alias` gives a text, and where the definition ends in the script. */
interface Alias {
  value: string;
  end: number;
}

const byCommands = new WeakMap<readonly ShellCommand[], Map<string, Alias[]>>();

/** The script's `alias NAME='TEXT'` definitions, by name, in the order they are made. */
function aliasesOf(commands: readonly ShellCommand[], text: string): Map<string, Alias[]> {
  let aliases = byCommands.get(commands);
  if (!aliases) {
    aliases = new Map();
    // Most scripts define none: one look at the text, not one per command.
    for (const command of text.includes('alias') ? commands : []) {
      if (command.name.value !== 'alias') continue;
      for (const arg of command.args) {
        const piece = wordText(arg, text);
        const definition = piece && /^([^\s=/$`'"\\]+)=/.exec(piece.text);
        if (!definition) continue;
        const list = aliases.get(definition[1]!) ?? [];
        list.push({ value: piece.text.slice(definition[0].length), end: command.end });
        aliases.set(definition[1]!, list);
      }
    }
    byCommands.set(commands, aliases);
  }
  return aliases;
}

/**
 * `alias zap='rm -rf'; zap ./x`: a command whose name an alias defined before
 * it stands for, read as the alias's text followed by the command's words
 * (sh, dash and zsh expand aliases in scripts; bash after `shopt -s
 * expand_aliases`, without which the name is not found and the author's
 * intent is still what is read). The text stands where the name does. Only a
 * name given one definition is read.
 */
export function aliasedCommand(
  command: ShellCommand,
  text: string,
  commands: readonly ShellCommand[],
): (Piece & { via: string }) | undefined {
  const name = command.name.value;
  if (name === undefined || name === 'alias') return undefined;
  const list = aliasesOf(commands, text).get(name);
  const only = list?.length === 1 ? list[0]! : undefined;
  if (!only || only.end > command.start || only.value.trim() === '') return undefined;
  const rest = slice(text, command.name.end, command.end);
  return {
    text: only.value + rest.text,
    at: [...Array.from(only.value, () => command.name.start), ...rest.at],
    after: [...Array.from(only.value, () => command.name.end), ...rest.after],
    via: `the alias ${name}`,
  };
}
