import { defineRule } from '../../src/engine/rule.js';
import { EVENTS } from '../../src/runtimes/claude-code/contract.js';
import { handlers, stringValue } from '../../src/runtimes/claude-code/walk.js';

const TOOL_EVENTS = EVENTS.filter((e) => e.toolEvent).map((e) => `\`${e.name}\``);

/**
 * `if` is one permission rule (`Bash(git *)`), evaluated only on the five
 * tool events. On any other event a handler with `if` never runs; and a
 * condition with `&&`, `||` or several rules is not a rule at all.
 */
export default defineRule({
  id: 'cc-if-ignored',
  meta: {
    description:
      'A Claude Code handler `if` on an event without tool calls (the handler never runs), or an `if` that is not one permission rule.',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    notToolEvent:
      'Unexpected `if` on `{{event}}`: Claude Code evaluates `if` only on {{events}}, and elsewhere a handler with `if` never runs.',
    compound:
      'Invalid `if` `{{condition}}`: it must be exactly one permission rule such as `Bash(git *)`; `&&`, `||` and lists are not supported.',
  },
  checkProfile(context) {
    for (const { event, spec, field } of handlers(context.claudeCode)) {
      const condition = field('if');
      if (!condition || !spec) continue;
      if (!spec.toolEvent) {
        context.report({
          messageId: 'notToolEvent',
          data: { event: event.name, events: TOOL_EVENTS.join(', ') },
          range: condition.keyRange,
        });
        continue;
      }
      const text = stringValue(condition.value);
      if (text !== undefined && /&&|\|\||^\s*\[|\)\s*,\s*[A-Z]/.test(text)) {
        context.report({ messageId: 'compound', data: { condition: text }, range: condition.value.range });
      }
    }
  },
});
