import { defineRule } from '../../src/engine/rule.js';
import { ENV_VARS, eventsOfHook, NEVER_SET_ENV, NEVER_SET_ENV_PATTERN } from '../../src/runtimes/claude-code/contract.js';
import { DEFAULT_OPERATORS, nodesOfType, variableUses } from '../../src/shell/analysis.js';
import type { ShellCommand } from '../../src/shell/commands.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

const NEVER = new Set<string>(NEVER_SET_ENV);
const PLUGIN_ONLY = new Set(ENV_VARS.filter((v) => v.plugin).map((v) => v.name));
const EVENT_ONLY = new Map(ENV_VARS.filter((v) => v.events).map((v) => [v.name, v.events!]));

/**
 * Claude Code passes a hook its input as JSON on stdin. Guides copied from
 * other tools read `$CLAUDE_TOOL_INPUT`, `$TOOL_INPUT` or
 * `$CLAUDE_FILE_PATHS`, which Claude Code never sets: the hook sees empty
 * strings and its checks pass vacuously. `${CLAUDE_PLUGIN_ROOT}` exists only
 * for plugin hooks, `$CLAUDE_ENV_FILE` only on four events.
 */
export default defineRule({
  id: 'cc-env-var-unset',
  meta: {
    description:
      'A Claude Code hook reads a variable Claude Code never sets for it (`$CLAUDE_TOOL_INPUT`, `$TOOL_INPUT`, …): the input is on stdin.',
    severity: 'warning',
    category: 'runtime',
    runtimes: ['claude-code'],
  },
  messages: {
    neverSet:
      "Unexpected `{{name}}`: Claude Code never sets it, so it is empty. The hook's input arrives as JSON on stdin: read it with `jq`, e.g. `jq -r '.tool_input.command'`.",
    pluginOnly: "Unexpected `{{name}}` in a hook that is not a plugin's: Claude Code sets it only for plugin hooks, so it is empty here.",
    eventOnly: 'Unexpected `{{name}}` in a `{{event}}` hook: Claude Code sets it only for {{events}}.',
  },
  checkScript(context) {
    const meta = context.hook.claudeCode;
    if (!meta) return;
    const events = eventsOfHook(context.hook);
    const plugin = meta.pluginRoot !== undefined || meta.source.startsWith('plugin');
    const assigned = assignedNames(context.tree.rootNode, context.commands, context.hook.text);
    // A file the script sources (`source "$(dirname "$0")/lib/utils.sh"`) may set any name (claude-toolkit's
    // hooks read HOOK_INPUT and TOOL_NAME that their library sets from stdin).
    const sourcesFile = context.commands.some((c) => (c.name.value === 'source' || c.name.value === '.') && c.args.length > 0);
    const reported = new Set<string>();
    for (const use of variableUses(context.tree.rootNode)) {
      const name = use.name;
      if (reported.has(name) || assigned.has(name) || (use.operator !== undefined && DEFAULT_OPERATORS.has(use.operator))) continue;
      const range = context.range(use.node.startIndex, use.node.endIndex);
      if (NEVER.has(name) || NEVER_SET_ENV_PATTERN.test(name)) {
        if (sourcesFile) continue;
        context.report({ messageId: 'neverSet', data: { name }, range });
      } else if (PLUGIN_ONLY.has(name) && !plugin && meta.callerEvents === undefined) {
        context.report({ messageId: 'pluginOnly', data: { name }, range });
      } else if (EVENT_ONLY.has(name) && events.length > 0 && !events.some((e) => EVENT_ONLY.get(name)!.includes(e))) {
        context.report({
          messageId: 'eventOnly',
          data: {
            name,
            event: events[0]!,
            events: EVENT_ONLY.get(name)!
              .map((e) => `\`${e}\``)
              .join(', '),
          },
          range,
        });
      } else {
        continue;
      }
      reported.add(name);
    }
  },
});

/** The names a script sets itself: assigned, a `for` variable, or read by `read`/`export`/`declare`/`local`. */
function assignedNames(root: SyntaxNode, commands: readonly ShellCommand[], text: string): Set<string> {
  // A script may set the name itself (`TOOL_INPUT=$(cat)` is the right way to use that name).
  const assigned = new Set<string>(
    nodesOfType(root, ['variable_assignment', 'for_statement']).map(
      (node) => node.childForFieldName(node.type === 'for_statement' ? 'variable' : 'name')?.text ?? '',
    ),
  );
  for (const command of commands) {
    if (
      command.name.value === 'read' ||
      command.name.value === 'export' ||
      command.name.value === 'declare' ||
      command.name.value === 'local'
    )
      for (const arg of command.args) if (arg.value) assigned.add(arg.value.replace(/=.*$/s, ''));
  }
  // Where the grammar could not read the script, an assignment may sit in a region it did not parse as one.
  if (root.hasError) for (const match of text.matchAll(/(?:^|[\s;&|(])([A-Za-z_]\w*)=/g)) assigned.add(match[1]!);
  return assigned;
}
