import { defineRule } from '../../src/engine/rule.js';

/** Reported by the profile parser (src/profile/profile.ts). */
export default defineRule({
  id: 'frontmatter-empty',
  meta: { description: 'The frontmatter is present but empty.', severity: 'warning', category: 'frontmatter' },
  messages: {},
});
