import { defineRule } from '../../src/engine/rule.js';
import { exactMatcherNames, KNOWN_TOOL_NAMES, matcherForm } from '../../src/runtimes/claude-code/contract.js';
import { groups, stringValue } from '../../src/runtimes/claude-code/walk.js';

/**
 * A matcher with any character beyond letters, digits, `_`, `-`, space, `,`
 * and `|` is a JavaScript regular expression. One that does not compile
 * never matches, and the hook never runs.
 */
export default defineRule({
  id: 'cc-matcher-invalid',
  meta: {
    description:
      'A Claude Code `matcher` that matches nothing: a regular expression that does not compile, or a tool name in the wrong case.',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    invalid: 'Invalid matcher `{{matcher}}`: Claude Code reads it as a regular expression, and it does not compile ({{detail}}).',
    toolCase: 'Invalid matcher name `{{name}}`: matchers are case-sensitive and the tool is `{{tool}}`, so this matches nothing.',
  },
  checkProfile(context) {
    for (const { event, spec, group } of groups(context.claudeCode)) {
      const matcher = stringValue(group.matcher?.value);
      if (matcher === undefined) continue;
      if (matcherForm(matcher, event.name) === 'exact' && spec?.matcherField === 'tool_name') {
        // `bash` for `Bash`: an exact name in the wrong case never matches (GH: matchers are case-sensitive).
        for (const name of exactMatcherNames(matcher, event.name)) {
          const tool = KNOWN_TOOL_NAMES.find((t) => t !== name && t.toLowerCase() === name.toLowerCase());
          if (tool) context.report({ messageId: 'toolCase', data: { name, tool }, range: group.matcher!.value.range });
        }
      }
      if (matcherForm(matcher, event.name) !== 'regex') continue;
      try {
        new RegExp(matcher);
      } catch (error) {
        const detail = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
        context.report({ messageId: 'invalid', data: { matcher, detail }, range: group.matcher!.value.range });
      }
    }
  },
});
