import { own } from '../../records.js';
import { nodesOfType, variableUse } from '../../shell/analysis.js';
import type { ShellCommand } from '../../shell/commands.js';
import { JQ_VALUE_OPTIONS } from '../../shell/jq-output.js';
import type { SyntaxNode } from '../../shell/parser.js';
import { commandNode } from '../../shell/printed-text.js';
import { isStdinPath } from '../../shell/stdin-script.js';

/** Commands that, as the first stage of a pipeline and without file arguments, read the hook's stdin JSON. */
const STDIN_READERS = new Set(['cat', 'jq', 'head', 'tail', 'tee', 'python', 'python3', 'node', 'ruby', 'perl', 'gojq', 'jaq', 'yq']);
/** Commands that print (a part of) the text they are given: tainted text through them stays tainted. */
const PASS_THROUGH = new Set([
  'echo',
  'printf',
  'cat',
  'jq',
  'gojq',
  'jaq',
  'yq',
  'sed',
  'awk',
  'cut',
  'tr',
  'head',
  'tail',
  'grep',
  'xargs',
  'base64',
  'sort',
  'uniq',
  'tee',
  'basename',
  'dirname',
  'realpath',
]);
/** Builtins that set variables from what they read. */
const READERS = new Set(['read', 'mapfile', 'readarray']);

/**
 * What in a Claude Code hook comes from its stdin: the JSON Claude Code
 * writes, whose `tool_input`, `prompt` and the rest the model chose. A
 * variable is tainted when its value is read from stdin (`$(cat)`,
 * `$(jq -r .tool_input.command)`, `read`) or built from a tainted one
 * (`$(echo "$INPUT" | jq -r …)`), in script order.
 */
export class StdinTaint {
  readonly variables = new Set<string>();
  /** Functions that read the hook's stdin, which a call inherits: `input() { cat; }`, `$(input)`. */
  private readonly readingFunctions = new Set<string>();

  constructor(
    private readonly root: SyntaxNode,
    private readonly commands: readonly ShellCommand[],
  ) {
    for (const definition of nodesOfType(root, ['function_definition'])) {
      const name = definition.childForFieldName('name')?.text;
      if (name && nodesOfType(definition, ['command']).some((c) => firstStage(c) && readsStdin(c))) this.readingFunctions.add(name);
    }
    // Twice, so a variable tainted late (in a loop or function defined first) taints what reads it earlier.
    for (let pass = 0; pass < 2; pass++) this.collect();
  }

  private collect(): void {
    for (const assignment of nodesOfType(this.root, ['variable_assignment'])) {
      const name = assignment.childForFieldName('name')?.text;
      const value = assignment.childForFieldName('value');
      if (name && value && this.isTainted(value)) this.variables.add(name);
    }
    for (const command of this.commands) {
      const base = command.name.value;
      const node = commandNode(command);
      if (base === 'read' && (node === undefined || takesHookStdin(node))) {
        for (const arg of command.args) if (arg.value && /^[A-Za-z_]\w*$/.test(arg.value)) this.variables.add(arg.value);
      }
      // Piped tainted text, or its own input (`read -r f < <(jq -r .x)`, `mapfile -t L < <(jq …)`, `read -r a <<< "$INPUT"`).
      if (READERS.has(base ?? '') && this.readsTainted(command)) {
        for (const arg of command.args) if (arg.value && /^[A-Za-z_]\w*$/.test(arg.value)) this.variables.add(arg.value);
      }
    }
  }

  /**
   * Whether the text a node stands for comes from stdin: a tainted variable,
   * a substitution that reads stdin, or one that only reshapes tainted text
   * (`$(echo "$INPUT" | jq -r .x)`). A substitution that hands tainted text
   * to anything else (a function, a lookup) is not followed: what it prints
   * need not be the input.
   */
  isTainted(node: SyntaxNode): boolean {
    if (node.type === 'simple_expansion' || node.type === 'expansion') {
      const use = variableUse(node);
      if (use && !use.length && this.variables.has(use.name)) return true;
    }
    if (node.type === 'command_substitution') return this.substitutionTainted(node);
    return node.namedChildren.some((child) => child !== null && this.isTainted(child));
  }

  private substitutionTainted(substitution: SyntaxNode): boolean {
    if (this.substitutionReadsStdin(substitution)) return true;
    const commands = nodesOfType(substitution, ['command']);
    const reshapesOnly = commands.every((c) => PASS_THROUGH.has(c.childForFieldName('name')?.text.replace(/^.*\//, '') ?? ''));
    return reshapesOnly && substitution.namedChildren.some((child) => child !== null && this.isTainted(child));
  }

  /** `$(cat)`, `$(jq -r .x)`, `$(cat | jq …)`, `$(input)` of a function that reads it: the first stage of a pipeline inside reads stdin. */
  private substitutionReadsStdin(substitution: SyntaxNode): boolean {
    // `$(</dev/stdin)`, `$(< /dev/fd/0)`: bash reads the file without a command.
    const redirect = substitution.childForFieldName('redirect');
    if (redirect && isStdinPath(redirect.childForFieldName('destination')?.text ?? '')) return true;
    for (const command of nodesOfType(substitution, ['command'])) {
      if (!firstStage(command)) continue;
      if (readsStdin(command) || this.readingFunctions.has(command.childForFieldName('name')?.text ?? '')) return true;
    }
    return false;
  }

  /** Whether a command is given text from stdin: piped in, its here-string, a `< <(…)`, or a loop's input around it. */
  readsTainted(command: ShellCommand): boolean {
    const upstream = pipedFrom(command);
    if ((upstream !== undefined && this.isTainted(upstream)) || this.ownInputTainted(command)) return true;
    // A loop's input: `jq -r .x | while read -r l; …`, `while read -r l; …; done < <(jq -r .x)`.
    const node = commandNode(command);
    const around = node && inputAround(node);
    if (!around) return false;
    if ('redirected' in around) return this.inputTainted(around.redirected);
    const stage = around.upstream.type === 'redirected_statement' ? around.upstream.childForFieldName('body') : around.upstream;
    return this.isTainted(around.upstream) || (stage?.type === 'command' && readsStdin(stage));
  }

  /** Whether a command's here-string, or the process substitution it reads with `<`, is text from stdin. */
  private ownInputTainted(command: ShellCommand): boolean {
    const node = commandNode(command);
    const statement = node?.parent?.type === 'redirected_statement' ? node.parent : node;
    return statement ? this.inputTainted(statement) : false;
  }

  private inputTainted(statement: SyntaxNode): boolean {
    for (const redirect of nodesOfType(statement, ['herestring_redirect', 'file_redirect'])) {
      if (redirect.type === 'herestring_redirect' && this.isTainted(redirect)) return true;
      const source = redirect.type === 'file_redirect' ? redirect.childForFieldName('destination') : null;
      if (
        source?.type === 'process_substitution' &&
        /^\d*</.test(redirect.text) &&
        (this.isTainted(source) || this.substitutionReadsStdin(source))
      )
        return true;
    }
    return false;
  }
}

/**
 * Whether a redirection gives a command input other than the hook's stdin: a
 * here-string or here-document, or `<` from a file that is not stdin itself
 * (`read -r J < /dev/stdin` still reads the hook's input).
 */
function isOwnInput(redirect: SyntaxNode): boolean {
  if (redirect.type === 'herestring_redirect' || redirect.type === 'heredoc_redirect') return true;
  if (redirect.type !== 'file_redirect' || !/^\d*</.test(redirect.text)) return false;
  return !isStdinPath(redirect.childForFieldName('destination')?.text.replace(/^(['"])(.*)\1$/, '$2') ?? '');
}

/**
 * Where a command's stdin comes from when something around it decides it:
 * the stage before, when it is inside a later stage of a pipeline (`… |
 * while read -r l; do …; done`), or the statement whose input is redirected,
 * when it is inside its body (`while read -r l; do …; done < <(find …)`,
 * `{ cat; } < file`); up to the script's top level or the function it is in
 * (a function's stdin is its caller's). A command inside a redirection's
 * process substitution is not in the body, and reads the shell's stdin.
 */
function inputAround(command: SyntaxNode): { upstream: SyntaxNode } | { redirected: SyntaxNode } | undefined {
  let child = command;
  for (let at = command.parent; at; child = at, at = at.parent) {
    if (at.type === 'function_definition') return undefined;
    if (at.type === 'pipeline') {
      const stages = at.namedChildren.filter((c): c is SyntaxNode => c !== null);
      const index = stages.findIndex((c) => c.id === child.id);
      if (index > 0) return { upstream: stages[index - 1]! };
    }
    if (
      at.type === 'redirected_statement' &&
      at.childForFieldName('body')?.id === child.id &&
      at.childrenForFieldName('redirect').some((r) => r !== null && isOwnInput(r))
    )
      return { redirected: at };
  }
  return undefined;
}

/**
 * Whether a command's stdin is the hook's: no input of its own (a here-string
 * on the command, which the grammar puts there) and none from around it
 * (inputAround: a pipeline, a redirected statement or loop it is in).
 */
function takesHookStdin(command: SyntaxNode): boolean {
  return !command.childrenForFieldName('redirect').some((r) => r !== null && isOwnInput(r)) && inputAround(command) === undefined;
}

/** Not a later stage of a pipeline (whose input is the stage before); a redirected command is its statement's stage. */
function firstStage(command: SyntaxNode): boolean {
  const stage = command.parent?.type === 'redirected_statement' ? command.parent : command;
  const parent = stage.parent;
  return parent?.type !== 'pipeline' || parent.namedChildren[0]?.id === stage.id;
}

/** A command node that reads its standard input: a reader with no file argument and no input redirection. */
function readsStdin(command: SyntaxNode): boolean {
  const name = command.childForFieldName('name')?.text.replace(/^.*\//, '');
  if (!name || !STDIN_READERS.has(name)) return false;
  if (!takesHookStdin(command)) return false;
  const args = command.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== 'command_name' && c.type !== 'file_redirect');
  const words = args.map((a) => a.text.replace(/^['"]|['"]$/g, ''));
  if (name === 'python' || name === 'python3' || name === 'node' || name === 'ruby' || name === 'perl') {
    // `python3 -c '…json.load(sys.stdin)…'` reads stdin; a script file is its own program.
    return words[0] === '-c' || words[0] === '-e' ? /stdin|STDIN|readFileSync\(0|\/dev\/stdin/.test(args[1]?.text ?? '') : false;
  }
  if (name === 'cat' || name === 'head' || name === 'tail' || name === 'tee') {
    return words.filter((w) => !w.startsWith('-') || w === '-').every((w) => w === '-' || isStdinPath(w)) || name === 'tee';
  }
  return jqReadsStdin(words);
}

/** jq-like words: options, a filter, then files; stdin is read when no file is named and `-n` is absent. */
function jqReadsStdin(words: readonly string[]): boolean {
  let positional = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const values = own(JQ_VALUE_OPTIONS, word);
    if (values !== undefined) i += values;
    // `-n`, also among other short options (`-nc`, `-rn`): null input, stdin unread.
    else if (/^-[A-Za-z]*n[A-Za-z]*$/.test(word) || word === '--null-input') return false;
    // A file that is stdin itself (`jq -r .x /dev/stdin`) is still the hook's input.
    else if ((!word.startsWith('-') || word === '-') && !isStdinPath(word)) positional++;
  }
  return positional <= 1;
}

/** The expression piped into a command (`echo "$X" | read v`): the previous stage's node. */
function pipedFrom(command: ShellCommand): SyntaxNode | undefined {
  const node = commandNode(command);
  const pipeline = node?.parent;
  if (!node || pipeline?.type !== 'pipeline') return undefined;
  let previous: SyntaxNode | undefined;
  for (const stage of pipeline.namedChildren) {
    if (!stage) continue;
    if (stage.id === node.id) return previous;
    previous = stage;
  }
  return undefined;
}

export { firstStage, pipedFrom, readsStdin, takesHookStdin };
