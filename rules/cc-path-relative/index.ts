import { defineRule } from '../../src/engine/rule.js';
import { scriptReferences } from '../../src/runtimes/claude-code/scripts.js';

/**
 * Claude Code runs a command hook in the session's current directory, which
 * follows `cd` (../shared/runtimes/claude-code-hooks.md §3.1: `cwd` follows
 * `cd` and worktrees; `$CLAUDE_PROJECT_DIR` stays at the project root). A
 * script named relative to the project (`bash .claude/hooks/guard.sh`) is
 * found while the session sits at the root, and missing once Claude has
 * changed directory: the hook then fails on every call.
 */
export default defineRule({
  id: 'cc-path-relative',
  meta: {
    description:
      "A Claude Code hook names its script relative to the project, but hooks run in the session's current directory, which follows `cd`.",
    severity: 'warning',
    category: 'runtime',
    fixable: true,
    runtimes: ['claude-code'],
  },
  messages: {
    relative:
      "Unexpected relative path `{{written}}`: hooks run in the session's current directory, which follows `cd`, so once Claude changes directory the script is not found and the hook fails on every call. Name it from the {{root}}: `{{fixed}}`.",
  },
  checkScript(context) {
    const meta = context.hook.claudeCode;
    // The command of a handler, in shell form (a script file a hook runs is not one; exec form has no shell to expand a variable).
    if (!meta || meta.callerEvents !== undefined || meta.form !== 'shell') return;
    const plugin = meta.pluginRoot !== undefined || meta.source.startsWith('plugin');
    for (const reference of scriptReferences(context.hook)) {
      if (!/^(?:\.\.?\/)?[\w.-]+\//.test(reference.written)) continue;
      const fixed = `${plugin ? '"${CLAUDE_PLUGIN_ROOT}"' : '"$CLAUDE_PROJECT_DIR"'}/${reference.written.replace(/^\.\//, '')}`;
      const range = context.range(reference.start, reference.end);
      context.report({
        messageId: 'relative',
        data: { written: reference.written, root: plugin ? "plugin's root" : "project's root", fixed },
        range,
        fixes: [{ title: `Name it from the ${plugin ? 'plugin' : 'project'}'s root`, safe: true, edits: [{ range, text: fixed }] }],
      });
    }
  },
});
