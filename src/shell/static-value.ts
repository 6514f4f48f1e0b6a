// A word's value when the script's text alone says what it is: quotes removed,
// escapes and $'…' decoded, a substitution that prints one static word read.
import { ansiCValue } from './ansi-c.js';
import type { SyntaxNode } from './parser.js';

/**
 * The word's value after quote removal, or undefined when it depends on an
 * expansion. `nodeText`, when the caller has it, saves reading the node's text again.
 */
export function staticValue(node: SyntaxNode, nodeText?: string): string | undefined {
  const type = node.type;
  switch (type) {
    case 'word':
    case 'number':
    case 'command_name': {
      if (type === 'command_name') {
        const first = node.firstNamedChild;
        if (first) return staticValue(first);
      }
      return type !== 'number' && node.namedChildCount > 0 ? undefined : unescapeWord(nodeText ?? node.text);
    }
    case 'raw_string':
      return (nodeText ?? node.text).slice(1, -1);
    case 'ansi_c_string':
      return ansiCValue((nodeText ?? node.text).slice(2, -1));
    case 'string': {
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'command_substitution') return quotedWithSubstitutions(node);
        if (child.type !== 'string_content') return undefined;
      }
      return (nodeText ?? node.text).slice(1, -1).replace(/\\([$`"\\\n])/g, '$1');
    }
    case 'concatenation': {
      let value = '';
      for (const child of node.namedChildren) {
        const part = child ? staticValue(child) : undefined;
        if (part === undefined) return undefined;
        value += part;
      }
      // Unnamed children (bare punctuation such as `=` or `:`) are part of the text too.
      return node.namedChildCount === node.childCount ? value : literalConcatenation(node);
    }
    case 'command_substitution':
      return printedWord(node);
    default:
      return undefined;
  }
}

/** `"$(echo rm)"`, `"r$(printf m)"`: a quoted word whose substitutions each print a static word. */
function quotedWithSubstitutions(node: SyntaxNode): string | undefined {
  let value = '';
  for (const child of node.children) {
    if (!child || child.type === '"') continue;
    const part =
      child.type === 'string_content'
        ? child.text.replace(/\\([$`"\\\n])/g, '$1')
        : child.type === 'command_substitution'
          ? printedWord(child)
          : undefined;
    if (part === undefined) return undefined;
    value += part;
  }
  return value;
}

/**
 * What `$(echo rm)` or `` `printf rm` `` prints, when `echo` or `printf` is
 * given only static words and prints one word the shell neither splits nor
 * globs: the command it names then runs as if written out (`$(echo rm) -rf x`
 * is `rm -rf x`). `$(which curl)`, `$(command -v curl)` and `$(type -P curl)`
 * print where a command is: its name stands for it (`$(which curl) URL` runs
 * curl). Anything else is known only at run time.
 */
function printedWord(node: SyntaxNode): string | undefined {
  if (node.namedChildCount !== 1 || substitutionDepth >= MAX_SUBSTITUTION_DEPTH) return undefined;
  substitutionDepth++;
  try {
    return printedWordOf(node);
  } finally {
    substitutionDepth--;
  }
}

/** `$(echo $(echo $(…)))` deeper than this is known only at run time (a hostile 2,000-deep nest overflowed the stack). */
const MAX_SUBSTITUTION_DEPTH = 16;
let substitutionDepth = 0;

function printedWordOf(node: SyntaxNode): string | undefined {
  const command = node.firstNamedChild;
  const name = command?.type === 'command' ? command.childForFieldName('name') : null;
  const printer = name ? staticValue(name) : undefined;
  if (!command || printer === undefined || !PRINTERS.has(printer)) return undefined;
  const args = command.childrenForFieldName('argument');
  // Only the name and its words: no assignment before it, no redirect.
  if (command.namedChildCount !== args.length + 1) return undefined;
  const values = args.map((arg) => (arg ? staticValue(arg) : undefined));
  if (values.some((v) => v === undefined)) return undefined;
  const words = values as string[];
  const printed = printer === 'echo' || printer === 'printf' ? printedText(printer, words) : locatedCommand(printer, words);
  return printed !== undefined && /^[\w./:@+,=-]+$/.test(printed) ? printed : undefined;
}

const PRINTERS = new Set(['echo', 'printf', 'which', 'command', 'type']);

function printedText(printer: string, words: readonly string[]): string | undefined {
  if (words.some((w) => w.startsWith('-'))) return undefined;
  if (printer === 'printf' && (words.length !== 1 || /[%\\]/.test(words[0]!))) return undefined;
  return words.join(' ').replace(/\n+$/, '');
}

/** The command `which X`, `command -v X` or `type -P X` looks up. */
function locatedCommand(printer: string, words: readonly string[]): string | undefined {
  const [option, target] = words;
  if (printer === 'which') return words.length === 1 && !option!.startsWith('-') ? option : undefined;
  const wanted = printer === 'command' ? '-v' : '-P';
  return words.length === 2 && option === wanted && !target!.startsWith('-') ? target : undefined;
}

function literalConcatenation(node: SyntaxNode): string | undefined {
  let value = '';
  for (const child of node.children) {
    if (!child) continue;
    const part = child.isNamed ? staticValue(child) : child.text;
    if (part === undefined) return undefined;
    value += part;
  }
  return value;
}

function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}
