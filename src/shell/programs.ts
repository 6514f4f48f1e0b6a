import type { PlainWord } from './commands.js';

/**
 * The words of a command that are programs in another language, written
 * inline: awk's program, sed's script. (The interpreters' `-c`/`-e` programs
 * are `inlineProgramWords` in analysis.ts.)
 */

/** awk's program: its first operand, after `-F SEP`, `-v VAR=VALUE`; none when `-f FILE` names a program file. */
export function awkProgramWord<W extends PlainWord>(args: readonly W[]): W | undefined {
  for (let i = 0; i < args.length; i++) {
    // A word with an expansion is the program unless it is written as an option.
    const value = args[i]!.value ?? args[i]!.text;
    if (value === '-f' || value.startsWith('--file') || value === '--') return undefined;
    if (value === '-F' || value === '-v') i++;
    else if (!value.startsWith('-') || value === '-') return args[i];
  }
  return undefined;
}

/**
 * sed's script words: each `-e SCRIPT` (`--expression`; the word after it,
 * or the option's own word when the script is attached: `-eSCRIPT`,
 * `--expression=SCRIPT`, with `attached` the length of the option before
 * it), else the first operand; none with `-f` (the script is in a file).
 */
export function sedScriptWords<W extends PlainWord>(args: readonly W[]): Array<{ word: W; attached: number }> {
  const scripts: Array<{ word: W; attached: number }> = [];
  let file = false;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value ?? args[i]!.text;
    if (text === '--') break;
    if (text === '--expression' || /^-[nrEsuz]*e$/.test(text)) {
      const next = args[++i];
      if (next) scripts.push({ word: next, attached: 0 });
    } else if (text.startsWith('--expression=')) scripts.push({ word: args[i]!, attached: '--expression='.length });
    else if (/^-[nrEsuz]*e./.test(text)) scripts.push({ word: args[i]!, attached: text.indexOf('e') + 1 });
    else if (/^-[A-Za-z]*f|^--file/.test(text)) file = true;
  }
  if (scripts.length > 0 || file) return scripts;
  const first = args.find((a) => !(a.value ?? a.text).startsWith('-'));
  return first ? [{ word: first, attached: 0 }] : [];
}
