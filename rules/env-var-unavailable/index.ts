import { defineRule } from '../../src/engine/rule.js';
import { BLOCKING_HOOKS, runtimeEnvFor, SHELL_ENV } from '../../src/runtime/contract.js';
import { DEFAULT_OPERATORS, nodesOfType, variableUses } from '../../src/shell/analysis.js';
import type { ShellCommand } from '../../src/shell/commands.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

interface Options {
  /** Variables the deployment provides on top of the runtime's (e.g. `REDIS_URL`). */
  allow?: string[];
}

/** Options of `read` / `mapfile` that take a value (the value is not a variable name). */
const READ_VALUE_OPTIONS = new Set(['-d', '-n', '-N', '-p', '-t', '-u', '-i']);
const MAPFILE_VALUE_OPTIONS = new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']);
const BLOCKING = new Set<string>(BLOCKING_HOOKS);

/**
 * The runtime sets a documented set of variables for each blocking hook;
 * anything else is empty when the hook runs (`TASK_ID` is not set — the
 * task is `$TASK`; `SIGNAL_DATA` exists only in `on_signal_received`). Only
 * upper-case names are judged: ShellCheck's SC2154 already reports lower-case
 * variables that are never assigned.
 */
export default defineRule<Options>({
  id: 'env-var-unavailable',
  meta: {
    description: 'A blocking hook reads an environment variable the runtime does not set for it.',
    severity: 'warning',
    category: 'runtime',
  },
  messages: {
    unavailable:
      'Unexpected `{{name}}` in `{{hook}}`: the runtime does not set it for this hook and the script never assigns it, so it is empty. Provided: {{provided}}.',
  },
  optionsSchema: { type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, additionalProperties: false },
  defaultOptions: { allow: [] },
  checkScript(context) {
    const hook = context.hook.name;
    if (!BLOCKING.has(hook)) return;
    const provided = runtimeEnvFor(hook);
    const known = new Set<string>([...provided, ...SHELL_ENV, ...(context.options.allow ?? [])]);
    // A sourced file may set anything; what it sets cannot be seen from here.
    if (context.commands.some((c) => c.name.value === 'source' || c.name.value === '.')) return;
    const root = context.tree.rootNode;
    const uses = variableUses(root);
    const handled = handledVariables(root, uses, context.commands);
    const reported = new Set<string>();
    for (const use of uses) {
      const name = use.name;
      if (!/^[A-Z_][A-Z0-9_]*$/.test(name) || known.has(name) || handled.has(name) || reported.has(name)) continue;
      reported.add(name);
      context.report({
        messageId: 'unavailable',
        data: { name, hook, provided: provided.map((v) => `\`${v}\``).join(', ') },
        range: context.range(use.node.startIndex, use.node.endIndex),
      });
    }
  },
});

/**
 * Names the script gives a value itself, or whose absence it handles:
 * assignments (also `local`/`export`/`declare`), `for` variables, `read`,
 * `mapfile`, `getopts`, `printf -v`, a default `${X:-…}`, and a test
 * `[[ -n $X ]]` / `[ -z "$X" ]` / `[[ -v X ]]`.
 */
function handledVariables(root: SyntaxNode, uses: ReturnType<typeof variableUses>, commands: readonly ShellCommand[]): Set<string> {
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
