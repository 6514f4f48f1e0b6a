import { own } from '../records.js';
import { commandBase, echoOptions } from './analysis.js';
import type { ShellCommand } from './commands.js';
import type { SyntaxNode } from './parser.js';
import { joinPieces, textOf, wordText, type Piece } from './script-text.js';

/**
 * What a command reads on its standard input when the hook writes it out:
 * its own here-documents and here-strings, or the text the stage before it in
 * a pipeline prints (`echo '…' | sh`, `printf '…\n' | bash`, `cat <<EOF | sh`).
 */

/** The `command` node of the simple command the command is (or is wrapped in: `sudo sh`). */
function statementOf(command: ShellCommand): SyntaxNode | undefined {
  let node: SyntaxNode | null = command.name.node;
  while (node && node.type !== 'command') node = node.parent;
  return node ?? undefined;
}

/** The texts of the here-documents and here-strings of the command's statement. */
export function stdinText(command: ShellCommand, text: string): (Piece | undefined)[] {
  const node = statementOf(command);
  if (!node) return [];
  const owners = node.parent?.type === 'redirected_statement' ? [node, node.parent] : [node];
  const inputs: Piece[] = [];
  for (const owner of owners)
    for (const child of owner.namedChildren) {
      if (child?.type === 'herestring_redirect' && child.lastNamedChild) inputs.push(...inputOf(child.lastNamedChild, text));
      if (child?.type === 'heredoc_redirect')
        for (const part of child.namedChildren) if (part?.type === 'heredoc_body') inputs.push(...inputOf(part, text));
    }
  return inputs;
}

function inputOf(node: SyntaxNode, text: string): Piece[] {
  const piece = textOf(node, node.startIndex, node.endIndex, text);
  return piece ? [piece] : [];
}

/**
 * The text piped into the command by the stage just before it, when the hook
 * writes it out and it is read exactly: echo's words without a backslash
 * (bash's and dash's echo differ on them), printf's format with no
 * conversion but `%%` and no escape but `\n`, `\t`, `\\`, or `printf '%s\n'`
 * (or `'%s'`) with its words; cat of a here-document or here-string.
 */
export function pipedText(
  command: ShellCommand,
  text: string,
  commands: readonly ShellCommand[],
): { writer: string; pieces: Piece[] } | undefined {
  let stage = statementOf(command);
  if (stage?.parent?.type === 'redirected_statement') stage = stage.parent;
  const pipeline = stage?.parent;
  if (!stage || pipeline?.type !== 'pipeline') return undefined;
  // `cat <<EOF | sh`: the grammar puts the rest of the pipeline inside cat's here-document redirect.
  const previous = stage.previousNamedSibling ?? (pipeline.parent?.type === 'heredoc_redirect' ? pipeline.parent.parent : null);
  return writtenText(previous, text, commands);
}

/**
 * What a process substitution prints (`source <(echo 'rm -rf x')`,
 * `bash <(printf 'ls\n')`), when its one statement is a writer read exactly, as for a pipe.
 */
export function substitutionText(
  substitution: SyntaxNode,
  text: string,
  commands: readonly ShellCommand[],
): { writer: string; pieces: Piece[] } | undefined {
  if (substitution.type !== 'process_substitution' || substitution.namedChildCount !== 1) return undefined;
  return writtenText(substitution.firstNamedChild, text, commands);
}

/** The text a statement writes, when it is a writer (echo, printf, cat of a here-document) whose text is read exactly. */
function writtenText(
  statement: SyntaxNode | null | undefined,
  text: string,
  commands: readonly ShellCommand[],
): { writer: string; pieces: Piece[] } | undefined {
  const writerNode = statement?.type === 'redirected_statement' ? statement.childForFieldName('body') : statement;
  if (writerNode?.type !== 'command') return undefined;
  const writer = commands.find((c) => {
    const node = statementOf(c);
    return node?.startIndex === writerNode.startIndex && node.endIndex === writerNode.endIndex && !c.wrappedBy;
  });
  const base = writer ? commandBase(writer) : undefined;
  const read = base === undefined ? undefined : own(WRITERS, base);
  const pieces = writer && read?.(writer, text);
  return base && pieces ? { writer: base, pieces } : undefined;
}

const WRITERS: Record<string, (writer: ShellCommand, text: string) => Piece[] | undefined> = {
  cat: (writer, text) => (writer.args.every((arg) => arg.value === '-') ? known(stdinText(writer, text)) : undefined),
  echo(writer, text) {
    const pieces = known(writer.args.slice(echoOptions(writer.args).length).map((word) => wordText(word, text)));
    return pieces?.every((p) => !p.text.includes('\\')) ? [joinPieces(pieces)] : undefined;
  },
  printf(writer, text) {
    const args = writer.args[0]?.value === '--' ? writer.args.slice(1) : writer.args;
    const format = args[0]?.value;
    if (format === undefined || format.startsWith('-')) return undefined;
    if (args.length === 1) {
      const decoded = printfFormat(wordText(args[0]!, text));
      return decoded ? [decoded] : undefined;
    }
    // `printf '%s\n' 'rm -rf x'`: each word, then a line break (or nothing, with `%s`).
    if (format !== '%s' && format !== '%s\\n') return undefined;
    const pieces = known(args.slice(1).map((word) => wordText(word, text)));
    return pieces && [joinPieces(pieces, format === '%s' ? '' : '\n')];
  },
};

/** The pieces, if every one of them is known. */
function known(pieces: readonly (Piece | undefined)[]): Piece[] | undefined {
  return pieces.every((p) => p !== undefined) ? (pieces as Piece[]) : undefined;
}

const PRINTF_ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\' };

/** printf's format with no conversion but `%%` and no escape but `\n`, `\t`, `\\`: the text it prints, each character at its place. */
function printfFormat(piece: Piece | undefined): Piece | undefined {
  if (!piece) return undefined;
  const chars: string[] = [];
  const at: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < piece.text.length; i++) {
    const from = i;
    let char = piece.text[i]!;
    if (char === '\\' || char === '%') {
      const next = piece.text[i + 1] ?? '';
      const escaped = char === '%' ? (next === '%' ? '%' : undefined) : PRINTF_ESCAPES[next];
      if (escaped === undefined) return undefined;
      char = escaped;
      i++;
    }
    chars.push(char);
    at.push(piece.at[from]!);
    after.push(piece.after[i]!);
  }
  return { text: chars.join(''), at, after };
}
