import { defineRule } from '../../src/engine/rule.js';
import { isHandlerType } from '../../src/runtimes/claude-code/contract.js';
import { handlers } from '../../src/runtimes/claude-code/walk.js';

/**
 * Not every event takes every handler type: SessionStart and Setup take only
 * `command` and `mcp_tool`; `prompt` and `agent` handlers exist only on the
 * thirteen decision events (PreToolUse, Stop, …). Elsewhere Claude Code
 * rejects the handler (with an error since v2.1.142).
 */
export default defineRule({
  id: 'cc-handler-type-unsupported',
  meta: {
    description: 'A Claude Code hook handler type the event does not allow (e.g. a `prompt` handler on `Notification`).',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    unsupported: 'Disallowed `{{type}}` handler on `{{event}}`: this event takes only {{allowed}}.',
  },
  checkProfile(context) {
    for (const { event, spec, handler, field } of handlers(context.claudeCode)) {
      if (!spec || !handler.type || !isHandlerType(handler.type) || spec.types.includes(handler.type)) continue;
      context.report({
        messageId: 'unsupported',
        data: { type: handler.type, event: event.name, allowed: spec.types.map((t) => `\`${t}\``).join(', ') },
        range: field('type')!.value.range,
      });
    }
  },
});
