import { defineRule } from '../../src/engine/rule.js';
import { honoursOnce } from '../../src/runtimes/claude-code/contract.js';
import { handlers } from '../../src/runtimes/claude-code/walk.js';

/** `once: true` removes a hook after its first run only in skill frontmatter; settings, plugin hooks, agents and slash commands ignore it. */
export default defineRule({
  id: 'cc-once-ignored',
  meta: {
    description: 'A Claude Code handler sets `once` outside skill frontmatter, where it is ignored and the hook runs every time.',
    severity: 'warning',
    category: 'hooks',
  },
  messages: {
    ignored: 'Unexpected `once` in {{where}}: Claude Code honours it only in skill frontmatter, so this hook runs every time.',
  },
  checkProfile(context) {
    const config = context.claudeCode;
    if (!config || honoursOnce(config.source)) return;
    const where = config.source.startsWith('settings')
      ? 'a settings file'
      : config.source.startsWith('plugin')
        ? "a plugin's hooks"
        : config.source === 'command'
          ? 'slash-command frontmatter'
          : 'agent frontmatter';
    for (const { field } of handlers(config)) {
      const once = field('once');
      if (once && !(once.value.kind === 'boolean' && once.value.value === false))
        context.report({ messageId: 'ignored', data: { where }, range: once.keyRange });
    }
  },
});
