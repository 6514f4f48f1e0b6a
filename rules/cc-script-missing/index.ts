import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { defineRule } from '../../src/engine/rule.js';
import { ScriptSourceMap } from '../../src/hooks/source-map.js';
import { configScripts } from '../../src/runtimes/claude-code/config.js';
import { scriptReferences } from '../../src/runtimes/claude-code/scripts.js';

const BLOCKING_INTERPRETERS = new Set(['python', 'python3']);

/**
 * A hook that runs a script by a path under the project (relative, or under
 * `$CLAUDE_PROJECT_DIR`) or the plugin (`${CLAUDE_PLUGIN_ROOT}`) is checked
 * for that script. A missing one fails every time: `sh` exits 127, a
 * non-blocking error, so a guard silently lets everything through; Python
 * exits 2 for a missing file, which blocks every call.
 */
export default defineRule({
  id: 'cc-script-missing',
  meta: {
    description: 'A Claude Code hook runs a script (under the project or plugin root) that does not exist.',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    missing:
      'Invalid script path `{{written}}`: {{path}} does not exist, so the hook fails every time (exit 127, which does not block: a guard is silently off).',
    missingBlocks:
      'Invalid script path `{{written}}`: {{path}} does not exist, and `{{interpreter}}` exits 2 for a missing file, which Claude Code takes as a block on every call.',
  },
  checkProfile(context) {
    for (const hook of configScripts(context.claudeCode)) {
      const references = scriptReferences(hook);
      if (references.length === 0) continue;
      const map = new ScriptSourceMap(hook, context.profile.lines);
      for (const reference of references) {
        if (existsSync(reference.path)) continue;
        const base = hook.claudeCode?.pluginRoot ?? hook.claudeCode?.projectDir;
        const path = base ? relative(base, reference.path) : reference.path;
        const range =
          hook.claudeCode?.form === 'exec' && reference.interpreter
            ? (hook.claudeCode.fields.args?.valueRange ?? hook.valueRange)
            : map.mapRange(map.scriptLines.rangeOf(reference.start, reference.end)).range;
        const blocks = reference.interpreter !== undefined && BLOCKING_INTERPRETERS.has(reference.interpreter);
        context.report({
          messageId: blocks ? 'missingBlocks' : 'missing',
          data: { written: reference.written, path, interpreter: reference.interpreter ?? '' },
          range,
        });
      }
    }
  },
});
