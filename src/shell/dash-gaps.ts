import { echoOptions } from './analysis.js';
import type { ShellCommand } from './commands.js';
import type { SyntaxNode } from './parser.js';

/**
 * What bash has and dash, the `sh` of Debian and Ubuntu, does not: each
 * construct of a script that dash reads differently, with what dash does
 * instead. Measured with dash 0.5.12 (Debian 12), `dash -c '…'`:
 * - `syntax`: dash cannot parse the script, so none of it runs (exit 2);
 * - `fatal`: dash stops the script there (exit 2);
 * - `fails`: the construct is a command not found (exit 127) and the script goes on;
 * - `differs`: it runs, and does something else.
 */
export type DashEffect = 'syntax' | 'fatal' | 'fails' | 'differs';

export interface DashGap {
  start: number;
  end: number;
  /** The construct, as a message names it: "`[[ … ]]`". */
  construct: string;
  effect: DashEffect;
  /** What dash does with it, completing "in dash, …". */
  dash: string;
  /** What to write instead. */
  instead: string;
}

const BASH = 'or run bash: `bash -c …`, or a script with a bash shebang';

/** Parameter expansion operators POSIX sh lacks: each is "Bad substitution" in dash. */
const BASH_EXPANSION_OPERATORS = new Set(['/', '//', '/#', '/%', '^', '^^', ',', ',,', ':', '@']);

/** Builtins of bash that dash does not have (a command not found there). */
const BASH_BUILTINS: Readonly<Record<string, string>> = {
  source: 'Use `.` to read a file.',
  declare: `Assign plainly (\`name=value\`), ${BASH}.`,
  typeset: `Assign plainly (\`name=value\`), ${BASH}.`,
  let: 'Use `$((…))`: `x=$((x + 1))`.',
  shopt: `Drop it, ${BASH}.`,
  mapfile: 'Read lines with `while IFS= read -r line`.',
  readarray: 'Read lines with `while IFS= read -r line`.',
};

/** read's options that take a value (`-p prompt`): the word after them is no option. */
const READ_VALUE_OPTIONS = 'pdtnNui';

/**
 * The option words a command starts with, as written (`-a`) or clustered (`-ra`): up to the first word
 * that is none, or `--`; a word after an option that takes a value (one of `valueLetters`, last in its
 * cluster) is skipped. printf's later words are data, so only its first can be an option.
 */
function leadingOptions(command: ShellCommand, valueLetters: string): ShellCommand['args'] {
  const options: ShellCommand['args'] = [];
  for (let i = 0; i < command.args.length; i++) {
    const value = command.args[i]!.value;
    if (value === undefined || !/^-[A-Za-z]+$/.test(value)) break;
    options.push(command.args[i]!);
    if (valueLetters === '') break;
    if (valueLetters.includes(value[value.length - 1]!)) i++;
  }
  return options;
}

/** Node types that hold a construct dash lacks (asked of tree-sitter directly: only Claude Code's inline commands ask). */
const TYPES = [
  'test_command',
  'compound_statement',
  'c_style_for_statement',
  'variable_assignment',
  'herestring_redirect',
  'process_substitution',
  'pipeline',
  'function_definition',
  'file_redirect',
  'expansion',
  'ansi_c_string',
  'brace_expression',
  'concatenation',
];

const BRACES = {
  effect: 'differs' as const,
  dash: 'there is no brace expansion: the braces stay in the word, so one word with them is used instead of several',
  instead: 'Write the words out (`a b`), or loop: `for x in a b; do …; done`.',
};

/** Options of bash builtins that dash's have not: the builtin fails (exit 2) and does nothing. */
const BASH_OPTIONS: Readonly<Record<string, { option: string; instead: string }>> = {
  read: { option: '-a', instead: 'Read into positional parameters: `set -- $line`.' },
  printf: { option: '-v', instead: 'Assign the output: `x=$(printf …)`.' },
};

/** A construct's text for a message, in backquotes; a long one shortened, ending with `close` (the `}` of an expansion). */
function quoted(text: string, close = ''): string {
  return `\`${text.length > 24 ? `${text.slice(0, 20)}…${close}` : text}\``;
}

/** The constructs of a script that dash reads otherwise than bash, in document order. */
export function dashGaps(root: SyntaxNode, commands: readonly ShellCommand[]): DashGap[] {
  const found: DashGap[] = [];
  const add = (node: { startIndex: number; endIndex: number }, gap: Omit<DashGap, 'start' | 'end'>, end = node.endIndex) =>
    found.push({ start: node.startIndex, end, ...gap });
  const addWord = (word: { start: number; end: number }, gap: Omit<DashGap, 'start' | 'end'>) =>
    found.push({ start: word.start, end: word.end, ...gap });
  for (const node of root.descendantsOfType(TYPES)) {
    if (!node) continue;
    const first = node.firstChild;
    switch (node.type) {
      case 'test_command':
        if (first?.type === '[[')
          add(node, {
            construct: '`[[ … ]]`',
            effect: 'fails',
            dash: '`[[` is not a command: it fails with exit 127 whatever it tests (what `&&` guards never runs, what `||` guards always does)',
            instead: `Use \`[ … ]\` (with \`=\`, not \`==\`), ${BASH}.`,
          });
        else if (first?.type === '[')
          for (const operator of node.descendantsOfType('==')) {
            if (operator)
              add(operator, {
                construct: '`==` in `[ … ]`',
                effect: 'differs',
                dash: '`[` rejects `==` ("unexpected operator") and the test is false',
                instead: 'Use `=`.',
              });
          }
        break;
      case 'compound_statement':
        if (first?.type === '((')
          add(node, {
            construct: '`(( … ))`',
            effect: 'fails',
            dash: 'it is read as subshells running a command named after the expression, which fails with exit 127',
            instead: 'Use `[ "$((…))" -ne 0 ]`.',
          });
        break;
      case 'c_style_for_statement': {
        const close = node.children.find((child) => child?.type === '))');
        add(
          node,
          {
            construct: '`for (( … ))`',
            effect: 'syntax',
            dash: 'it is a syntax error',
            instead: 'Use a `while` loop with `$((…))`.',
          },
          close?.endIndex ?? node.endIndex,
        );
        break;
      }
      case 'variable_assignment': {
        const array = node.children.find((child) => child?.type === 'array');
        if (array)
          add(array, {
            construct: 'array `( … )`',
            effect: 'syntax',
            dash: 'it is a syntax error',
            instead: `Use \`set -- …\` or a space-separated string, ${BASH}.`,
          });
        else if (node.children.some((child) => child?.type === '+='))
          add(node, {
            construct: '`+=`',
            effect: 'fails',
            dash: 'the assignment is run as a command, which fails with exit 127, and the variable is unchanged',
            instead: 'Write `x="${x}more"` or `x=$((x + 1))`.',
          });
        break;
      }
      case 'herestring_redirect':
        add(first ?? node, {
          construct: 'here-string `<<<`',
          effect: 'syntax',
          dash: 'it is a syntax error',
          instead: 'Pipe instead (`printf \'%s\\n\' "$x" | …`) or use a here-document.',
        });
        break;
      case 'process_substitution':
        add(node, {
          construct: 'process substitution `<( … )`',
          effect: 'syntax',
          dash: 'it is a syntax error',
          instead: 'Use a pipe or a temporary file.',
        });
        break;
      case 'pipeline':
        for (const operator of node.children)
          if (operator?.type === '|&')
            add(operator, {
              construct: '`|&`',
              effect: 'syntax',
              dash: 'it is a syntax error',
              instead: 'Write `2>&1 |`.',
            });
        break;
      case 'function_definition':
        if (first?.type === 'function')
          add(first, {
            construct: '`function` keyword',
            effect: 'syntax',
            dash: 'it is a syntax error',
            instead: 'Write `name() { … }`.',
          });
        break;
      case 'file_redirect':
        if (first?.type === '&>' || first?.type === '&>>')
          add(first, {
            construct: `\`${first.type}\``,
            effect: 'differs',
            dash: 'it is `&` then `>`: the command runs in the background with its output still on stdout, and the file is emptied',
            instead: 'Write `>file 2>&1`.',
          });
        break;
      case 'expansion': {
        // An array element (`${PIPESTATUS[0]}`, `${#a[@]}`) is a bad substitution in dash too.
        const operator = node.children.find(
          (child, i) =>
            child && (BASH_EXPANSION_OPERATORS.has(child.type) || (child.type === '!' && i === 1) || child.type === 'subscript'),
        );
        if (operator)
          add(node, {
            construct: quoted(node.text, '}'),
            effect: 'fatal',
            dash: 'it is a "Bad substitution", which stops the script with exit 2',
            instead: `Use POSIX expansions (\`\${x#…}\`, \`\${x%…}\`, \`\${x:-…}\`) or \`sed\`/\`cut\`, ${BASH}.`,
          });
        break;
      }
      case 'brace_expression':
        add(node, { construct: `\`${node.text}\``, ...BRACES });
        break;
      case 'concatenation': {
        // `{a,b}` is read as the words `{`, `a,b` and `}` side by side, unquoted.
        const parts = node.children;
        const open = parts.findIndex(
          (part, i) =>
            part?.type === 'word' &&
            part.text === '{' &&
            parts[i + 1]?.type === 'word' &&
            parts[i + 1]!.text.includes(',') &&
            parts[i + 2]?.text === '}',
        );
        if (open >= 0) add(node, { construct: quoted(node.text), ...BRACES });
        break;
      }
      case 'ansi_c_string':
        add(node, {
          construct: "`$'…'`",
          effect: 'differs',
          dash: 'it is a `$` followed by a single-quoted string: the `$` stays and the escapes are not read',
          instead: 'Use `printf` (`"$(printf \'a\\tb\')"`).',
        });
        break;
    }
  }
  for (const command of commands) {
    if (command.wrappedBy) continue;
    const name = command.name.value;
    if (name !== undefined && Object.hasOwn(BASH_BUILTINS, name))
      addWord(command.name, {
        construct: `\`${name}\``,
        effect: 'fails',
        dash: `\`${name}\` is not a command: it fails with exit 127`,
        instead: BASH_BUILTINS[name]!,
      });
    else if (name !== undefined && Object.hasOwn(BASH_OPTIONS, name)) {
      const { option, instead } = BASH_OPTIONS[name]!;
      const used = leadingOptions(command, name === 'read' ? READ_VALUE_OPTIONS : '').find((arg) => arg.value!.includes(option.slice(1)));
      if (used)
        addWord(used, {
          construct: `\`${name} ${option}\``,
          effect: 'fails',
          dash: `\`${name}\` has no \`${option}\`: it fails with exit 2 and does nothing`,
          instead,
        });
    } else if (name === 'set') {
      const pipefail = command.args.find((arg, i) => arg.value === 'pipefail' && /^-[a-z]*o$/.test(command.args[i - 1]?.value ?? ''));
      if (pipefail)
        addWord(pipefail, {
          construct: '`set -o pipefail`',
          effect: 'fatal',
          dash: '`pipefail` is an illegal option, which stops the script with exit 2',
          instead: `Drop it and check each stage's status, ${BASH}.`,
        });
    } else if (name === 'echo') {
      const option = echoOptions(command.args).find((word) => word.value!.includes('e'));
      if (option)
        addWord(option, {
          construct: '`echo -e`',
          effect: 'differs',
          dash: "dash's `echo` takes only `-n`: it prints `-e` and reads backslash escapes anyway",
          instead: 'Use `printf`.',
        });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
