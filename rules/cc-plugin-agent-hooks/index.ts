import { defineRule } from '../../src/engine/rule.js';
import { ignoresHooks } from '../../src/runtimes/claude-code/contract.js';

/**
 * Claude Code ignores `hooks` (and `mcpServers`, `permissionMode`) in agents
 * a plugin ships, for security (documented since 2026-03-22). The hooks
 * never run; copy the agent to `.claude/agents/` or move the hooks to the
 * plugin's `hooks/hooks.json`.
 */
export default defineRule({
  id: 'cc-plugin-agent-hooks',
  meta: {
    description: '`hooks` in an agent a plugin ships: Claude Code ignores them by design.',
    severity: 'warning',
    category: 'hooks',
  },
  messages: {
    ignored:
      "Unexpected `hooks` in a plugin's agent: Claude Code ignores hooks in plugin-shipped agents, so none of them runs. Move them to the plugin's `hooks/hooks.json`, or copy the agent into `.claude/agents/`.",
  },
  checkProfile(context) {
    const config = context.claudeCode;
    if (!config?.hooksEntry || !ignoresHooks(config.source)) return;
    context.report({ messageId: 'ignored', range: config.hooksEntry.keyRange });
  },
});
