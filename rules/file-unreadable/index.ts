import { defineRule } from '../../src/engine/rule.js';

/** Reported by the reader (src/profile/source.ts) before any parsing. */
export default defineRule({
  id: 'file-unreadable',
  meta: { description: 'The file is binary, not valid UTF-8, or too large to be a profile.', severity: 'error', category: 'file' },
  messages: {},
});
