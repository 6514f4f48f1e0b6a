import { defineRule } from '../../src/engine/rule.js';
import { AGENT_CONTROLLED_ENV } from '../../src/runtime/contract.js';
import { DEFAULT_OPERATORS, isSplitInCommand, nodesOfType, variableUse, variableUses } from '../../src/shell/analysis.js';
import type { ShellCommand } from '../../src/shell/commands.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

interface Options {
  /** Further variables to treat as agent-controlled. */
  variables?: string[];
}

/**
 * An unquoted expansion is split on whitespace and every piece is a glob: a
 * task text of `* -rf` becomes a file list and an option. ShellCheck's SC2086
 * says this of every variable; this rule singles out the runtime's
 * agent-controlled ones, where the text is chosen by whoever wrote the task
 * or sent the signal, so it stays a warning even where SC2086 is turned off.
 */
export default defineRule<Options>({
  id: 'injection-unquoted-var',
  meta: {
    description: 'An agent-controlled variable (`$TASK`, `$SIGNAL_DATA`, …) is expanded unquoted in a command.',
    severity: 'warning',
    category: 'injection',
    securitySeverity: 6.5,
    supersedes: ['shellcheck/SC2086'],
  },
  messages: {
    unquoted:
      'Unexpected unquoted `{{text}}`: `{{name}}` is agent-controlled text, and unquoted it is split into words and expanded as globs. Quote it: `"{{text}}"`.',
    unquotedCopy:
      'Unexpected unquoted `{{text}}`: `{{name}}` holds agent-controlled text (from `${{origin}}`), and unquoted it is split into words and expanded as globs. Quote it: `"{{text}}"`.',
  },
  optionsSchema: { type: 'object', properties: { variables: { type: 'array', items: { type: 'string' } } }, additionalProperties: false },
  defaultOptions: { variables: [] },
  checkScript(context) {
    const controlled = new Set<string>([...AGENT_CONTROLLED_ENV, ...(context.options.variables ?? [])]);
    const copies = copiesOf(controlled, context.tree.rootNode, context.commands);
    for (const use of variableUses(context.tree.rootNode)) {
      const origin = controlled.has(use.name) ? undefined : copies.get(use.name);
      if ((!controlled.has(use.name) && !origin) || use.length || !isSplitInCommand(use.node)) continue;
      context.report({
        messageId: origin ? 'unquotedCopy' : 'unquoted',
        data: { name: use.name, text: use.node.text, ...(origin ? { origin } : {}) },
        range: context.range(use.node.startIndex, use.node.endIndex),
      });
    }
  },
});

/**
 * Variables that hold an agent-controlled text as it is, with the variable it
 * came from: `T=$TASK`, `T="task: ${TASK:-none}"`, `read -r a b <<< "$TASK"`,
 * `printf -v t '%s' "$TASK"`. A value passed through a command (`$(… | tr -cd a-z)`)
 * or an expansion that edits it (`${TASK//[^a-z]/}`) is not followed.
 */
function copiesOf(controlled: ReadonlySet<string>, root: SyntaxNode, commands: readonly ShellCommand[]): Map<string, string> {
  const copies = new Map<string, string>();
  const originIn = (node: SyntaxNode | null | undefined): string | undefined => {
    if (!node || nodesOfType(node, ['command_substitution', 'process_substitution']).length > 0) return undefined;
    for (const expansion of nodesOfType(node, ['simple_expansion', 'expansion'])) {
      const use = variableUse(expansion);
      if (!use || use.length || (use.operator !== undefined && !DEFAULT_OPERATORS.has(use.operator))) continue;
      const origin = controlled.has(use.name) ? use.name : copies.get(use.name);
      if (origin) return origin;
    }
    return undefined;
  };
  // Twice, so a copy of a copy made earlier in the text than its source is found too.
  for (let pass = 0; pass < 2; pass++) {
    for (const assignment of nodesOfType(root, ['variable_assignment'])) {
      const name = assignment.childForFieldName('name');
      const origin = name?.type === 'variable_name' ? originIn(assignment.childForFieldName('value')) : undefined;
      if (name && origin && !controlled.has(name.text)) copies.set(name.text, origin);
    }
    for (const command of commands)
      for (const [name, origin] of commandCopies(command, originIn)) if (!controlled.has(name)) copies.set(name, origin);
  }
  return copies;
}

/** The variables `read … <<< "$X"` and `printf -v NAME … "$X"` set from a controlled text, with its origin. */
function commandCopies(command: ShellCommand, originIn: (node: SyntaxNode | null | undefined) => string | undefined): [string, string][] {
  const base = command.name.value;
  if (base === 'read') {
    // The here-string is the command's own redirect, or its statement's.
    let statement: SyntaxNode | null = command.name.node;
    while (statement && statement.type !== 'command') statement = statement.parent;
    if (statement?.parent?.type === 'redirected_statement') statement = statement.parent;
    const origin = originIn(statement ? nodesOfType(statement, ['herestring_redirect'])[0] : undefined);
    if (!origin) return [];
    return command.args.flatMap((arg): [string, string][] => (arg.value && /^[A-Za-z_]\w*$/.test(arg.value) ? [[arg.value, origin]] : []));
  }
  const target = command.args[1]?.value;
  if (base === 'printf' && command.args[0]?.value === '-v' && target) {
    const origin = command.args
      .slice(2)
      .map((a) => originIn(a.node))
      .find(Boolean);
    return origin ? [[target, origin]] : [];
  }
  return [];
}
