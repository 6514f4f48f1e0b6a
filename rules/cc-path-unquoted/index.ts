import { defineRule } from '../../src/engine/rule.js';
import { PATH_ENV } from '../../src/runtimes/claude-code/contract.js';
import { isSplitInCommand, variableUses } from '../../src/shell/analysis.js';

const PATHS = new Set<string>(PATH_ENV);

/**
 * `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PLUGIN_ROOT}` and their kin are paths,
 * and paths have spaces (`~/My Projects/app`). Shell-form hooks run with
 * `sh -c`, so an unquoted one is split into words and the hook runs the
 * wrong thing or nothing (GH#5648). Quote it, or use exec form (`args`).
 */
export default defineRule({
  id: 'cc-path-unquoted',
  meta: {
    description:
      'An unquoted `$CLAUDE_PROJECT_DIR` / `${CLAUDE_PLUGIN_ROOT}` in a Claude Code hook command: it breaks on paths with spaces.',
    severity: 'warning',
    category: 'runtime',
    fixable: true,
    runtimes: ['claude-code'],
    supersedes: ['shellcheck/SC2086'],
  },
  messages: {
    unquoted:
      'Unexpected unquoted `{{text}}`: it is a path, and a path with a space splits into several words. Quote it: `"{{text}}"` (or use exec form with `args`).',
  },
  checkScript(context) {
    for (const use of variableUses(context.tree.rootNode)) {
      if (!PATHS.has(use.name) || use.length || !isSplitInCommand(use.node)) continue;
      const range = context.range(use.node.startIndex, use.node.endIndex);
      context.report({
        messageId: 'unquoted',
        data: { text: use.node.text },
        range,
        fixes: [{ title: `Quote ${use.node.text}`, safe: true, edits: [{ range, text: `"${use.node.text}"` }] }],
      });
    }
  },
});
