import { defineRule } from '../../src/engine/rule.js';
import { AGENT_CONTROLLED_ENV } from '../../src/runtime/contract.js';
import { isSplitInCommand, variableUses } from '../../src/shell/analysis.js';

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
  },
  optionsSchema: { type: 'object', properties: { variables: { type: 'array', items: { type: 'string' } } }, additionalProperties: false },
  defaultOptions: { variables: [] },
  checkScript(context) {
    const controlled = new Set<string>([...AGENT_CONTROLLED_ENV, ...(context.options.variables ?? [])]);
    for (const use of variableUses(context.tree.rootNode)) {
      if (!controlled.has(use.name) || use.length || !isSplitInCommand(use.node)) continue;
      context.report({
        messageId: 'unquoted',
        data: { name: use.name, text: use.node.text },
        range: context.range(use.node.startIndex, use.node.endIndex),
      });
    }
  },
});
