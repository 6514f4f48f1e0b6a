import { defineRule } from '../../src/engine/rule.js';

/** Reported by the profile parser (src/profile/profile.ts). */
export default defineRule({
  id: 'frontmatter-missing',
  meta: {
    description: 'A Markdown file under the agents directory has no YAML frontmatter.',
    severity: 'warning',
    category: 'frontmatter',
  },
  messages: {},
});
