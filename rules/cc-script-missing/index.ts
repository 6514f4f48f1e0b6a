import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { defineRule } from '../../src/engine/rule.js';
import { ScriptSourceMap } from '../../src/hooks/source-map.js';
import { configScripts } from '../../src/runtimes/claude-code/config.js';
import { eventsOfHook, exit2Blocks } from '../../src/runtimes/claude-code/contract.js';
import { scriptReferences } from '../../src/runtimes/claude-code/scripts.js';

/**
 * How an interpreter exits when its script is not there: Python, Perl and uv
 * (`uv run x.py`: an error of uv's own) exit 2; node, bun, deno, tsx,
 * ts-node, ruby and php exit 1; a shell, or the path run directly, 127.
 */
const MISSING_STATUS: Readonly<Record<string, number>> = {
  python: 2,
  python3: 2,
  perl: 2,
  uv: 2,
  node: 1,
  bun: 1,
  deno: 1,
  tsx: 1,
  'ts-node': 1,
  ruby: 1,
  php: 1,
};

/**
 * A hook that runs a script by a path under the project (relative, or under
 * `$CLAUDE_PROJECT_DIR`) or the plugin (`${CLAUDE_PLUGIN_ROOT}`) is checked
 * for that script. A missing one fails every time: `sh` exits 127, a
 * non-blocking error, so a guard silently lets everything through (node: 1,
 * the same); Python, Perl and uv exit 2 for a missing file, which blocks
 * every call where the event blocks on exit 2.
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
      'Invalid script path `{{written}}`: {{path}} does not exist, so the hook fails every time (exit {{status}}{{from}}, which does not block: a guard is silently off).',
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
        const interpreter = reference.interpreter ?? '';
        const status = MISSING_STATUS[interpreter] ?? 127;
        // Exit 2 is a blocking error only where the event has one (on PostToolUse it feeds the error back to
        // Claude); a hook whose event is not known is taken to.
        const events = eventsOfHook(hook);
        const blocks = status === 2 && (events.length === 0 || events.some((event) => exit2Blocks(event)));
        context.report({
          messageId: blocks ? 'missingBlocks' : 'missing',
          data: {
            written: reference.written,
            path,
            interpreter,
            status: String(status),
            from: status === 127 ? '' : ` from \`${interpreter}\``,
          },
          range,
        });
      }
    }
  },
});
