import { defineRule } from '../../src/engine/rule.js';
import { handlerFields, HANDLER_TYPES, isHandlerType } from '../../src/runtimes/claude-code/contract.js';
import { handlers } from '../../src/runtimes/claude-code/walk.js';
import { closestMatch } from '../../src/text/suggest.js';

/**
 * A field the handler's type does not have is not read: a `matcher` put
 * inside the handler instead of its group filters nothing, a `timeOut`
 * leaves the default timeout, a `url` on a command handler is ignored.
 */
export default defineRule({
  id: 'cc-handler-field-unknown',
  meta: {
    description: 'A Claude Code hook handler has a field its type does not have (a misspelling, or a group field such as `matcher`).',
    severity: 'warning',
    category: 'hooks',
  },
  messages: {
    matcher:
      'Unexpected `matcher` inside a handler: Claude Code reads `matcher` on the group, beside `hooks`, so this one filters nothing.',
    otherType: 'Unexpected `{{field}}` in a `{{type}}` handler: only `{{owner}}` handlers have it, so Claude Code ignores it here.',
    suggest: 'Unexpected `{{field}}` in a `{{type}}` handler: Claude Code ignores it. Did you mean `{{suggestion}}`?',
  },
  checkProfile(context) {
    for (const { handler } of handlers(context.claudeCode)) {
      if (handler.node.kind !== 'object' || !handler.type || !isHandlerType(handler.type)) continue;
      const type = handler.type;
      const known = Object.keys(handlerFields(type));
      for (const e of handler.node.entries) {
        // `async` on other types is cc-async-invalid's to explain.
        if (known.includes(e.key) || e.key === 'async' || e.key === 'asyncRewake') continue;
        const range = e.keyRange;
        if (e.key === 'matcher') {
          context.report({ messageId: 'matcher', range });
          continue;
        }
        const owner = HANDLER_TYPES.find((t) => Object.keys(handlerFields(t)).includes(e.key));
        if (owner) {
          context.report({ messageId: 'otherType', data: { field: e.key, type, owner }, range });
          continue;
        }
        // A field that is no misspelling may be one a newer Claude Code reads (the official
        // security-guidance plugin uses `rewakeMessage`, which the docs of v2.1.240 do not list).
        const suggestion = closestMatch(e.key, known);
        if (suggestion) context.report({ messageId: 'suggest', data: { field: e.key, type, suggestion }, range });
      }
    }
  },
});
