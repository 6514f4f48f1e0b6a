import type { RelatedInformation } from '../../src/diagnostics.js';
import { type AnalysedHook, defineRule } from '../../src/engine/rule.js';
import { commandBase, nodesOfType } from '../../src/shell/analysis.js';
import type { ShellCommand } from '../../src/shell/commands.js';

interface Options {
  /** Command names that exist where the hooks run (a deployment's own tools with `_` in their names). */
  allowedCommands?: string[];
  config?: { allowedCommands?: string[] };
}

/** MCP tool names (`mcp__server__tool`): the model calls them through its MCP client; no shell has them. */
const MCP_TOOL = /^mcp__/;
/** A name in snake_case: how real profiles call helper functions (`memory_store`, `memory_search`). */
const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** Programs with `_` in their names that ordinary systems install (so never taken for undefined functions). */
const KNOWN_EXECUTABLES = new Set(['lsb_release', 'ssh_config', 'run_parts', 'update_rc', 'x86_64', 'ntfs_3g', 'py_compile', 'apt_key']);

/**
 * Each hook runs as its own bash process: a command exists there only if it
 * is a program on PATH, a builtin, or a function the same script defines.
 * Real profiles call MCP tools as if they were programs (`mcp__claude-flow__
 * swarm_init mesh`) and call helper functions no script defines
 * (`memory_store "key" "value"`): bash prints `command not found` and the
 * hook goes on without the step it was written for.
 */
export default defineRule<Options>({
  id: 'command-unavailable',
  meta: {
    description: 'A hook runs an MCP tool name, or a snake_case function no script defines, as a command.',
    severity: 'warning',
    category: 'runtime',
  },
  messages: {
    mcpTool:
      "Invalid command `{{name}}`: MCP tools are called by the model through its MCP client, not by the shell; in a hook this is `command not found` (exit 127). Use the tool's CLI (e.g. `npx claude-flow … `) or move the call to the agent's instructions.",
    undefinedFunction:
      'Unexpected `{{name}}`: no function of that name is defined in this hook, and each hook runs in its own bash process{{elsewhere}}, so bash reports `command not found`. Define it in this hook, call the program that does the work, or list it in `allowedCommands`.',
  },
  optionsSchema: {
    type: 'object',
    properties: { allowedCommands: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  },
  defaultOptions: { allowedCommands: [] },
  checkHooks(context) {
    const allowed = new Set([...(context.options.allowedCommands ?? []), ...(context.options.config?.allowedCommands ?? [])]);
    const definitions = context.hooks.map((item) => ({ item, functions: definedFunctions(item) }));
    for (const { item, functions } of definitions) {
      // A sourced file may define anything; what it defines cannot be seen from here.
      const sources = item.commands.some((c) => c.name.value === 'source' || c.name.value === '.');
      for (const command of item.commands) {
        const name = commandBase(command);
        if (name === undefined || allowed.has(name) || isNotRun(command)) continue;
        if (MCP_TOOL.test(name)) {
          context.report({
            hook: item.hook,
            messageId: 'mcpTool',
            data: { name },
            range: item.range(command.name.start, command.name.end),
            severity: 'error',
          });
          continue;
        }
        if (sources || !SNAKE_CASE.test(name) || KNOWN_EXECUTABLES.has(name) || functions.has(name)) continue;
        const range = item.range(command.name.start, command.name.end);
        const other = definitions.find((d) => d.item !== item && d.functions.has(name));
        const related: RelatedInformation[] = [];
        if (other) {
          const node = other.functions.get(name)!;
          related.push({
            message: `\`${name}\` is defined in \`${other.item.hook.name}\`, another process`,
            file: other.item.hook.file,
            range: other.item.mapRange(other.item.range(node.startIndex, node.endIndex)),
          });
        }
        context.report({
          hook: item.hook,
          messageId: 'undefinedFunction',
          data: { name, elsewhere: other ? ` (it is defined in \`${other.item.hook.name}\`)` : '' },
          range,
          ...(related.length ? { related } : {}),
        });
      }
    }
  },
});

/** `command -v mcp__x`, `type memory_store`: the name is looked up, not run. Wrappers' inner commands are judged themselves. */
function isNotRun(command: ShellCommand): boolean {
  return command.wrappedBy === 'command' || command.wrappedBy === 'builtin';
}

function definedFunctions(item: AnalysedHook): Map<string, ReturnType<typeof nodesOfType>[number]> {
  const functions = new Map<string, ReturnType<typeof nodesOfType>[number]>();
  for (const definition of nodesOfType(item.tree.rootNode, ['function_definition'])) {
    const name = definition.childForFieldName('name')?.text;
    if (name && !functions.has(name)) functions.set(name, definition);
  }
  return functions;
}
