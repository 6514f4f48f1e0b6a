import { defineRule } from '../../src/engine/rule.js';

/** Reported by the profile parser (src/profile/profile.ts). */
export default defineRule({
  id: 'frontmatter-unclosed',
  meta: { description: 'The frontmatter opened by `---` is never closed.', severity: 'error', category: 'frontmatter' },
  messages: {},
});
