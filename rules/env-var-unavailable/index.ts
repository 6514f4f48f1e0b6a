import { defineRule } from '../../src/engine/rule.js';
import { BLOCKING_HOOKS, runtimeEnvFor, SHELL_ENV } from '../../src/runtime/contract.js';
import { variableUses } from '../../src/shell/analysis.js';
import { handledVariables } from '../../src/shell/variables.js';

interface Options {
  /** Variables the deployment provides on top of the runtime's (e.g. `REDIS_URL`). */
  allow?: string[];
}

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
