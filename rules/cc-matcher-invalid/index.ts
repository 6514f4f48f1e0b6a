import { defineRule } from '../../src/engine/rule.js';
import { matcherForm } from '../../src/runtimes/claude-code/contract.js';
import { groups, stringValue } from '../../src/runtimes/claude-code/walk.js';

/**
 * A matcher with any character beyond letters, digits, `_`, `-`, space, `,`
 * and `|` is a JavaScript regular expression. One that does not compile
 * never matches, and the hook never runs.
 */
export default defineRule({
  id: 'cc-matcher-invalid',
  meta: {
    description: 'A Claude Code `matcher` that is read as a regular expression but does not compile.',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    invalid: 'Invalid matcher `{{matcher}}`: Claude Code reads it as a regular expression, and it does not compile ({{detail}}).',
  },
  checkProfile(context) {
    for (const { event, group } of groups(context.claudeCode)) {
      const matcher = stringValue(group.matcher?.value);
      if (matcher === undefined || matcherForm(matcher, event.name) !== 'regex') continue;
      try {
        new RegExp(matcher);
      } catch (error) {
        const detail = String((error as Error).message).replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
        context.report({ messageId: 'invalid', data: { matcher, detail }, range: group.matcher!.value.range });
      }
    }
  },
});
