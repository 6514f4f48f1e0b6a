import { defineRule } from '../../src/engine/rule.js';
import { handlerFields, isHandlerType } from '../../src/runtimes/claude-code/contract.js';
import { handlers } from '../../src/runtimes/claude-code/walk.js';

/** Each handler type needs its fields: `command`; `url`; `server` and `tool`; `prompt`. Without them Claude Code rejects the handler. */
export default defineRule({
  id: 'cc-handler-field-missing',
  meta: {
    description: 'A Claude Code hook handler lacks a field its type requires (`command`, `url`, `server` + `tool`, `prompt`).',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    missing: 'Expected `{{field}}` in this `{{type}}` handler: Claude Code cannot run it without one.',
    empty: 'Invalid empty `{{field}}`: a `{{type}}` handler needs a non-empty value.',
  },
  checkProfile(context) {
    for (const { handler, field } of handlers(context.claudeCode)) {
      if (handler.node.kind !== 'object' || !handler.type || !isHandlerType(handler.type)) continue;
      for (const [name, spec] of Object.entries(handlerFields(handler.type))) {
        if (!spec.required || name === 'type') continue;
        const found = field(name);
        if (!found) {
          context.report({
            messageId: 'missing',
            data: { field: name, type: handler.type },
            range: field('type')?.keyRange ?? handler.node.range,
          });
        } else if (found.value.kind === 'string' && (found.value.value as string).trim() === '') {
          context.report({ messageId: 'empty', data: { field: name, type: handler.type }, range: found.value.range });
        }
      }
    }
  },
});
