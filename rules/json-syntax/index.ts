import { defineRule } from '../../src/engine/rule.js';

/** Reported by the document reader (src/profile/profile.ts) from jsonc-parser's errors, at their offsets. */
export default defineRule({
  id: 'json-syntax',
  meta: {
    description: 'A JSON hook configuration (`.claude/settings.json`, `hooks/hooks.json`, `plugin.json`) is not valid JSON.',
    severity: 'error',
    category: 'file',
  },
  messages: {},
});
