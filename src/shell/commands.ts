import { nodesOfType } from './node-index.js';
import type { SyntaxNode } from './parser.js';

const EXPANSIONS = ['simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion'];

/**
 * A word of a simple command as the shell would see it. `value` is its text
 * after quote removal when that is known before running (no expansion);
 * `start`/`end` are offsets in the script.
 */
export interface ShellWord {
  text: string;
  value: string | undefined;
  start: number;
  end: number;
  node: SyntaxNode;
}

export interface ShellCommand {
  /** The command name as written, or after a wrapper such as `sudo` or `env`. */
  name: ShellWord;
  args: ShellWord[];
  start: number;
  end: number;
  /** `sudo`, `env`, `nohup`, … when this command is what a wrapper runs. */
  wrappedBy?: string;
  /** Bodies of here-documents fed to the command. */
  heredocs: string[];
}

/**
 * Options of wrapper commands that take a value, so `sudo -u root rm` finds
 * `rm` and not `root`.
 */
const WRAPPERS: Record<string, { optionsWithValue: string[]; positional?: number }> = {
  sudo: { optionsWithValue: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'] },
  doas: { optionsWithValue: ['-u', '-C'] },
  env: { optionsWithValue: ['-u', '-C', '-S'] },
  nohup: { optionsWithValue: [] },
  setsid: { optionsWithValue: [] },
  time: { optionsWithValue: ['-f', '-o'] },
  nice: { optionsWithValue: ['-n'] },
  ionice: { optionsWithValue: ['-c', '-n', '-p'] },
  timeout: { optionsWithValue: ['-k', '-s', '--kill-after', '--signal'], positional: 1 },
  stdbuf: { optionsWithValue: ['-i', '-o', '-e'] },
  command: { optionsWithValue: [] },
  builtin: { optionsWithValue: [] },
  exec: { optionsWithValue: ['-a'] },
  xargs: { optionsWithValue: ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a'] },
  chroot: { optionsWithValue: [], positional: 1 },
  unbuffer: { optionsWithValue: [] },
};

/** Every simple command of a script, including those inside `$(...)`, subshells, pipelines and functions. */
export function collectCommands(root: SyntaxNode, text: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  for (const node of nodesOfType(root, ['command'])) {
    for (const command of splitMisparsedCommand(node, text)) {
      commands.push(command);
      commands.push(...unwrap(command));
    }
  }
  commands.sort((a, b) => a.start - b.start || a.end - b.end);
  return commands;
}

/**
 * tree-sitter-bash parses `a | b | c` followed on the next line by an `&&`
 * list as one command whose arguments run on past the line break, without
 * an error node. In bash an unescaped newline always ends a simple command,
 * so the words after it start a new one; splitting there undoes the misparse.
 */
function splitMisparsedCommand(node: SyntaxNode, text: string): ShellCommand[] {
  const name = node.childForFieldName('name');
  if (!name) return [];
  const words = [name, ...node.childrenForFieldName('argument').filter((n): n is SyntaxNode => n !== null)].sort(
    (a, b) => a.startIndex - b.startIndex,
  );
  const heredocs = heredocBodies(node);
  const groups: SyntaxNode[][] = [];
  let current: SyntaxNode[] = [];
  for (const word of words) {
    const previous = current[current.length - 1];
    if (previous && hasUnescapedNewline(text, previous.endIndex, word.startIndex)) {
      groups.push(current);
      current = [];
    }
    current.push(word);
  }
  if (current.length) groups.push(current);
  return groups.map((group) => {
    const [nameNode, ...argNodes] = group as [SyntaxNode, ...SyntaxNode[]];
    const nameWord = toWord(nameNode.type === 'command_name' ? (nameNode.firstNamedChild ?? nameNode) : nameNode, text);
    return {
      name: nameWord,
      args: argNodes.map((n) => toWord(n, text)),
      start: nameNode.startIndex,
      end: group[group.length - 1]!.endIndex,
      heredocs,
    };
  });
}

function hasUnescapedNewline(text: string, from: number, to: number): boolean {
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) {
    let backslashes = 0;
    for (let j = i - 1; j >= from && (text[j] === '\\' || text[j] === '\r'); j--) if (text[j] === '\\') backslashes++;
    if (backslashes % 2 === 0) return true;
  }
  return false;
}

function heredocBodies(command: SyntaxNode): string[] {
  const statement = command.parent;
  if (statement?.type !== 'redirected_statement') return [];
  return nodesOfType(statement, ['heredoc_body']).map((n) => n.text);
}

/** The commands a wrapper runs: `sudo rm -rf x` also yields `rm -rf x`. */
function unwrap(command: ShellCommand): ShellCommand[] {
  const spec = command.name.value !== undefined ? WRAPPERS[basename(command.name.value)] : undefined;
  if (!spec) return [];
  let index = 0;
  let positional = spec.positional ?? 0;
  const args = command.args;
  while (index < args.length) {
    const value = args[index]!.value;
    if (value === undefined) break;
    if (value === '--') {
      index++;
      break;
    }
    if (value.startsWith('-') && value.length > 1) {
      index += spec.optionsWithValue.includes(value) ? 2 : 1;
      continue;
    }
    if (command.name.value === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
      index++;
      continue;
    }
    if (positional > 0) {
      positional--;
      index++;
      continue;
    }
    break;
  }
  const inner = args[index];
  if (!inner) return [];
  const unwrapped: ShellCommand = {
    name: inner,
    args: args.slice(index + 1),
    start: inner.start,
    end: command.end,
    wrappedBy: basename(command.name.value!),
    heredocs: command.heredocs,
  };
  return [unwrapped, ...unwrap(unwrapped)];
}

export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

export function toWord(node: SyntaxNode, text: string): ShellWord {
  // Each property of a tree-sitter node is a call into WASM: read each once.
  const start = node.startIndex;
  const end = node.endIndex;
  const wordText = text.slice(start, end);
  return { text: wordText, value: staticValue(node, wordText), start, end, node };
}

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
      return (nodeText ?? node.text).slice(2, -1);
    case 'string': {
      for (const child of node.namedChildren) {
        if (!child) continue;
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
    default:
      return undefined;
  }
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

/** Does the word contain a parameter expansion or command substitution anywhere? */
export function hasExpansion(node: SyntaxNode): boolean {
  return nodesOfType(node, EXPANSIONS).length > 0;
}
