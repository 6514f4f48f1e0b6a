import { defineRule } from '../../src/engine/rule.js';

/** Reported by the profile parser (src/profile/profile.ts) from the `yaml` parser's errors. */
export default defineRule({
  id: 'frontmatter-yaml',
  meta: {
    description: 'The frontmatter is not valid YAML (syntax errors, duplicate keys, alias bombs).',
    severity: 'error',
    category: 'frontmatter',
  },
  messages: {},
});
