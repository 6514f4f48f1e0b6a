import { defineRule } from '../../src/engine/rule.js';

/** Reported by the document reader (src/profile/profile.ts): jsonc-parser's errors at their offsets, keys written twice, and nesting past MAX_JSON_DEPTH. */
export default defineRule({
  id: 'json-syntax',
  meta: {
    description:
      'A JSON hook configuration (`.claude/settings.json`, `hooks/hooks.json`, `plugin.json`) is not valid JSON, writes a key twice, or nests past 64 levels.',
    severity: 'error',
    category: 'file',
  },
  messages: {},
});
