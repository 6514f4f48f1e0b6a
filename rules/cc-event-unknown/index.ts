import { defineRule } from '../../src/engine/rule.js';
import { EVENT_NAMES } from '../../src/runtimes/claude-code/contract.js';
import { closestMatch } from '../../src/text/suggest.js';

/**
 * Claude Code ignores a hook under an event it does not have (since v2.1.101
 * it no longer rejects the whole file for it): the hook never runs. Event
 * names are case-sensitive, so `preToolUse` is as unknown as `PreToolUsage`.
 */
export default defineRule({
  id: 'cc-event-unknown',
  meta: {
    description: 'A Claude Code hook is configured under an event Claude Code does not have (names are case-sensitive).',
    severity: 'error',
    category: 'hooks',
    fixable: true,
  },
  messages: {
    unknownSuggest: 'Unexpected Claude Code hook event `{{name}}`: Claude Code never runs hooks under it. Did you mean `{{suggestion}}`?',
    unknown: 'Unexpected Claude Code hook event `{{name}}`: Claude Code never runs hooks under it. Events: {{known}}.',
  },
  checkProfile(context) {
    for (const event of context.claudeCode?.events ?? []) {
      if (EVENT_NAMES.includes(event.name)) continue;
      const range = event.entry.keyRange;
      const suggestion = closestMatch(event.name, EVENT_NAMES);
      if (suggestion) {
        // A JSON key keeps its quotes; the edit replaces the name inside them.
        const quoted = context.profile.kind === 'json';
        const nameRange = quoted ? { ...range, column: range.column + 1, endColumn: range.endColumn - 1 } : range;
        context.report({
          messageId: 'unknownSuggest',
          data: { name: event.name, suggestion },
          range,
          fixes: [{ title: `Rename to \`${suggestion}\``, safe: false, edits: [{ range: nameRange, text: suggestion }] }],
        });
      } else {
        context.report({ messageId: 'unknown', data: { name: event.name, known: EVENT_NAMES.map((e) => `\`${e}\``).join(', ') }, range });
      }
    }
  },
});
