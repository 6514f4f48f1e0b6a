import { defineRule } from '../../src/engine/rule.js';
import { groups, stringValue } from '../../src/runtimes/claude-code/walk.js';

/**
 * Ten events take no matcher (UserPromptSubmit, Stop, PostToolBatch,
 * TeammateIdle, TaskCreated, TaskCompleted, WorktreeCreate, WorktreeRemove,
 * MessageDisplay, CwdChanged): a matcher there is silently ignored, so the
 * hook runs for everything the author meant to filter out.
 */
export default defineRule({
  id: 'cc-matcher-ignored',
  meta: {
    description: 'A `matcher` on a Claude Code event that takes none: it is ignored and the hook runs every time.',
    severity: 'warning',
    category: 'hooks',
  },
  messages: {
    ignored:
      'Unexpected `matcher` on `{{event}}`: this event takes no matcher, so Claude Code ignores `{{matcher}}` and runs the hook every time.',
  },
  checkProfile(context) {
    for (const { event, spec, group } of groups(context.claudeCode)) {
      const matcher = stringValue(group.matcher?.value);
      if (!spec || spec.matcherField !== undefined || matcher === undefined || matcher === '' || matcher === '*') continue;
      context.report({ messageId: 'ignored', data: { event: event.name, matcher }, range: group.matcher!.keyRange });
    }
  },
});
