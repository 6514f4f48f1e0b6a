import { defineRule } from '../../src/engine/rule.js';
import { HANDLER_TYPES, isHandlerType } from '../../src/runtimes/claude-code/contract.js';
import { handlers } from '../../src/runtimes/claude-code/walk.js';
import { closestMatch } from '../../src/text/suggest.js';

/** A handler's `type` decides how Claude Code runs it; without a known one the handler is rejected and never runs. */
export default defineRule({
  id: 'cc-handler-type-unknown',
  meta: {
    description:
      'A Claude Code hook handler has no `type`, or one Claude Code does not know (`command`, `http`, `mcp_tool`, `prompt`, `agent`).',
    severity: 'error',
    category: 'hooks',
    fixable: true,
  },
  messages: {
    missing: 'Expected a `type` in this handler: one of {{known}}.',
    unknownSuggest: 'Invalid handler type `{{type}}`: Claude Code never runs it. Did you mean `{{suggestion}}`?',
    unknown: 'Invalid handler type `{{type}}`: expected one of {{known}}.',
  },
  checkProfile(context) {
    const known = HANDLER_TYPES.map((t) => `\`${t}\``).join(', ');
    for (const { handler, field } of handlers(context.claudeCode)) {
      if (handler.node.kind !== 'object') continue;
      const type = field('type');
      if (!type) {
        context.report({ messageId: 'missing', data: { known }, range: handler.node.range });
        continue;
      }
      if (type.value.kind !== 'string') {
        context.report({
          messageId: 'unknown',
          data: { type: String('value' in type.value ? type.value.value : '…'), known },
          range: type.value.range,
        });
        continue;
      }
      const name = type.value.value as string;
      if (isHandlerType(name)) continue;
      const suggestion = closestMatch(name, HANDLER_TYPES);
      if (suggestion) {
        const range = type.value.range;
        const inner =
          context.profile.source.text[context.profile.lines.offsetAt(range)] === '"' ||
          context.profile.source.text[context.profile.lines.offsetAt(range)] === "'";
        const editRange = inner ? { ...range, column: range.column + 1, endColumn: range.endColumn - 1 } : range;
        context.report({
          messageId: 'unknownSuggest',
          data: { type: name, suggestion },
          range,
          fixes: [{ title: `Change to \`${suggestion}\``, safe: true, edits: [{ range: editRange, text: suggestion }] }],
        });
      } else {
        context.report({ messageId: 'unknown', data: { type: name, known }, range: type.value.range });
      }
    }
  },
});
