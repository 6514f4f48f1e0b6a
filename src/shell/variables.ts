import { DEFAULT_OPERATORS, nodesOfType, variableUses } from './analysis.js';
import type { ShellCommand } from './commands.js';
import type { SyntaxNode } from './parser.js';

/** Options of `read` / `mapfile` that take a value (the value is not a variable name). */
const READ_VALUE_OPTIONS = new Set(['-d', '-n', '-N', '-p', '-t', '-u', '-i']);
const MAPFILE_VALUE_OPTIONS = new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']);

const handledByUses = new WeakMap<ReturnType<typeof variableUses>, WeakMap<readonly ShellCommand[], ReadonlySet<string>>>();

/**
 * Names the script gives a value itself, or whose absence it handles:
 * assignments (also `local`/`export`/`declare`), `for` variables, `read`,
 * `mapfile`, `getopts`, `printf -v`, a default `${X:-…}`, and a test
 * `[[ -n $X ]]` / `[ -z "$X" ]` / `[[ -v X ]]`.
 */
export function handledVariables(
  root: SyntaxNode,
  uses: ReturnType<typeof variableUses>,
  commands: readonly ShellCommand[],
): ReadonlySet<string> {
  // Asked by more than one rule with the hook's own (kept) uses and commands.
  let byCommands = handledByUses.get(uses);
  if (!byCommands) handledByUses.set(uses, (byCommands = new WeakMap()));
  let names = byCommands.get(commands);
  if (!names) byCommands.set(commands, (names = findHandled(root, uses, commands)));
  return names;
}

function findHandled(root: SyntaxNode, uses: ReturnType<typeof variableUses>, commands: readonly ShellCommand[]): Set<string> {
  const names = new Set<string>();
  for (const node of nodesOfType(root, ['variable_assignment', 'for_statement'])) {
    const name = node.childForFieldName(node.type === 'for_statement' ? 'variable' : 'name');
    if (name) names.add(name.type === 'subscript' ? (name.childForFieldName('name')?.text ?? name.text) : name.text);
  }
  for (const declaration of nodesOfType(root, ['declaration_command'])) {
    for (const child of declaration.namedChildren) if (child?.type === 'variable_name') names.add(child.text);
  }
  for (const use of uses) if (use.operator !== undefined && DEFAULT_OPERATORS.has(use.operator)) names.add(use.name);
  for (const test of nodesOfType(root, ['unary_expression'])) {
    const operator = test.childForFieldName('operator')?.text;
    if (operator === '-v') names.add(test.lastNamedChild?.text ?? '');
    if (operator === '-n' || operator === '-z') for (const use of variableUses(test)) names.add(use.name);
  }
  for (const command of commands) {
    const name = command.name.value;
    const values = command.args.map((a) => a.value);
    if (name === 'read') collectNames(values, READ_VALUE_OPTIONS, names, ['-a']);
    else if (name === 'mapfile' || name === 'readarray') collectNames(values, MAPFILE_VALUE_OPTIONS, names, []);
    else if (name === 'getopts' && values[1]) names.add(values[1]);
    else if (name === 'printf' && values[0] === '-v' && values[1]) names.add(values[1]);
    else if ((name === '[' || name === 'test') && values.length >= 2) {
      values.forEach((value, i) => {
        if ((value === '-n' || value === '-z') && command.args[i + 1])
          for (const use of variableUses(command.args[i + 1]!.node)) names.add(use.name);
      });
    }
  }
  return names;
}

function collectNames(values: (string | undefined)[], valueOptions: Set<string>, names: Set<string>, nameOptions: string[]): void {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    if (nameOptions.includes(value)) {
      if (values[i + 1]) names.add(values[i + 1]!);
      i++;
      continue;
    }
    if (valueOptions.has(value)) {
      i++;
      continue;
    }
    if (value.startsWith('-')) continue;
    names.add(value);
  }
}

/** Where the script gives the variable a value itself: assignments (also `export X=…`, `local`, `declare`) and bare `export X`. */
export function variableWrites(root: SyntaxNode): Map<string, SyntaxNode> {
  const writes = new Map<string, SyntaxNode>();
  for (const node of nodesOfType(root, ['variable_assignment', 'declaration_command'])) {
    if (node.type === 'variable_assignment') {
      const name = node.childForFieldName('name');
      const text = name?.type === 'subscript' ? name.childForFieldName('name')?.text : name?.text;
      if (text && !writes.has(text)) writes.set(text, node.parent?.type === 'declaration_command' ? node.parent : node);
    } else {
      for (const child of node.namedChildren) if (child?.type === 'variable_name' && !writes.has(child.text)) writes.set(child.text, node);
    }
  }
  return writes;
}
