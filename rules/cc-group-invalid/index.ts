import { defineRule } from '../../src/engine/rule.js';
import { kindOf, type PNode } from '../../src/hooks/tree.js';
import { COMMON_FIELDS, eventSpec, HANDLER_TYPES, handlerFields } from '../../src/runtimes/claude-code/contract.js';

/** Group keys written for the matcher (`tools: [Edit, Write]`): Claude Code reads only `matcher`. */
const MATCHER_LIKE = new Set([
  'tools',
  'tool',
  'tool_name',
  'tool_names',
  'toolName',
  'toolNames',
  'matchers',
  'match',
  'pattern',
  'filter',
]);

/** Fields only handlers have (a group has `matcher` and `hooks`). */
const HANDLER_ONLY = new Set([...Object.keys(COMMON_FIELDS), ...HANDLER_TYPES.flatMap((t) => Object.keys(handlerFields(t)))]);

/**
 * Claude Code's hooks are three levels deep: event → list of matcher groups
 * → each group's `hooks` list of handlers. A level written as something
 * else (a group straight under the event, a group without `hooks`, a
 * handler that is a string) is skipped by Claude Code, and the hook never runs.
 */
export default defineRule({
  id: 'cc-group-invalid',
  meta: {
    description: 'A Claude Code event is not a list of matcher groups, or a group has no `hooks` list of handler objects.',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    hooksNotObject: 'Invalid `hooks`: expected a mapping of event names to lists of matcher groups, found {{kind}}.',
    eventNotList: 'Invalid `{{event}}`: expected a list of matcher groups (`- matcher: …` / `hooks: […]`), found {{kind}}.',
    groupNotObject:
      'Invalid matcher group {{index}} of `{{event}}`: expected a mapping with `hooks` (and an optional `matcher`), found {{kind}}.',
    hooksMissing: 'Expected a `hooks` list in matcher group {{index}} of `{{event}}`: without it the group runs nothing.',
    hooksNotList: 'Invalid `hooks` of matcher group {{index}} of `{{event}}`: expected a list of handlers, found {{kind}}.',
    handlerNotObject: 'Invalid handler {{index}} of `{{event}}`: expected a mapping such as `{type: command, command: …}`, found {{kind}}.',
    matcherMisnamed:
      "Unexpected `{{field}}` on matcher group {{index}} of `{{event}}`: Claude Code reads the group's tools from `matcher` only ({{suggestion}}), so this group has no matcher and its hooks run for every tool.",
    handlerFieldOnGroup:
      'Unexpected `{{field}}` on matcher group {{index}} of `{{event}}`: it is a handler field, and Claude Code reads it only inside `hooks: [...]`, so here it is ignored.',
  },
  checkProfile(context) {
    const config = context.claudeCode;
    if (!config) return;
    const hooks = config.hooksEntry;
    if (hooks && hooks.value.kind !== 'object' && config.source !== 'plugin-manifest') {
      context.report({ messageId: 'hooksNotObject', data: { kind: kindOf(hooks.value) }, range: hooks.value.range });
    }
    // A handler's fields written beside `hooks`, on the group (`if:`, `timeout:`), do nothing there.
    const reportHandlerFields = (group: (typeof config.events)[number]['groups'][number], event: string): void => {
      if (group.node.kind !== 'object') return;
      // On an event whose matcher picks tools: a group with none runs for every tool.
      const hasMatcher = group.node.entries.some((e) => e.key === 'matcher') || eventSpec(event)?.matcherField !== 'tool_name';
      for (const e of group.node.entries) {
        if (HANDLER_ONLY.has(e.key))
          context.report({ messageId: 'handlerFieldOnGroup', data: { field: e.key, index: group.index, event }, range: e.keyRange });
        else if (!hasMatcher && MATCHER_LIKE.has(e.key))
          context.report({
            messageId: 'matcherMisnamed',
            data: { field: e.key, index: group.index, event, suggestion: matcherSuggestion(e.value) },
            range: e.keyRange,
          });
      }
    };
    for (const event of config.events) {
      const value = event.entry.value;
      if (value.kind !== 'array') {
        context.report({ messageId: 'eventNotList', data: { event: event.name, kind: kindOf(value) }, range: value.range });
        continue;
      }
      for (const group of event.groups) {
        const data = { event: event.name, index: group.index };
        if (group.node.kind !== 'object') {
          context.report({ messageId: 'groupNotObject', data: { ...data, kind: kindOf(group.node) }, range: group.node.range });
        } else if (!group.hooks) {
          reportHandlerFields(group, event.name);
          context.report({ messageId: 'hooksMissing', data, range: group.node.range });
        } else if (group.hooks.value.kind !== 'array') {
          context.report({ messageId: 'hooksNotList', data: { ...data, kind: kindOf(group.hooks.value) }, range: group.hooks.value.range });
        } else {
          reportHandlerFields(group, event.name);
          for (const handler of group.handlers) {
            if (handler.node.kind !== 'object')
              context.report({
                messageId: 'handlerNotObject',
                data: { event: event.name, index: handler.index, kind: kindOf(handler.node) },
                range: handler.node.range,
              });
          }
        }
      }
    }
  },
});

/** What the misnamed key would be as a matcher: `"matcher": "Edit|Write"` for a list or a string of names. */
function matcherSuggestion(value: PNode): string {
  const names =
    value.kind === 'array'
      ? value.items.map((item) => (item.kind === 'string' ? String(item.value) : undefined))
      : value.kind === 'string'
        ? [String(value.value)]
        : [];
  return names.length > 0 && names.every((n) => n !== undefined && /^[\w.*|-]+$/.test(n))
    ? `\`"matcher": "${names.join('|')}"\``
    : '`"matcher": "Edit|Write"`';
}
