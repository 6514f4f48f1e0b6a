import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { defineRule, type Rule } from '../../src/engine/rule.js';
import type { HookScript } from '../../src/hooks/types.js';
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
    homePath:
      'Unexpected path into a home directory, `{{written}}`, in a shared hook configuration: on any other machine the script is not there, so the hook fails every time ({{effect}}). Name it from the project root: `{{suggestion}}`.',
    missingBlocks:
      'Invalid script path `{{written}}`: {{path}} does not exist, and `{{interpreter}}` exits 2 for a missing file, which Claude Code takes as a block on every call.',
  },
  checkProfile(context) {
    for (const hook of configScripts(context.claudeCode)) {
      reportHomePaths(hook, context);
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
        const { status, blocks } = missingExit(hook, interpreter);
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

/**
 * What a hook exits with when the script its interpreter is given is missing, and whether that blocks:
 * exit 2 is a blocking error only where the event has one (on PostToolUse it feeds the error back to
 * Claude); a hook whose event is not known is taken to.
 */
function missingExit(hook: HookScript, interpreter: string): { status: number; blocks: boolean } {
  const status = MISSING_STATUS[interpreter] ?? 127;
  const events = eventsOfHook(hook);
  return { status, blocks: status === 2 && (events.length === 0 || events.some((event) => exit2Blocks(event))) };
}

/**
 * A path into a user's home (`/home/alice/…`, `/Users/alice/…`, `C:\\Users\\alice\\…`) written in a file
 * others get too (project settings, a plugin, an agent or skill; not `settings.local.json`, which is the
 * user's own): the script is there only on the machine that wrote it. The interpreter before it says
 * what the hook then does everywhere else.
 */
const HOME_PATH = /(?<=^|[\s"'=:])(?:\/home\/[^/\s"'$]+|\/Users\/[^/\s"'$]+|[A-Za-z]:[\\/]Users[\\/][^\\/\s"'$]+)[\\/][^\s"';|&)]+/g;

function reportHomePaths(hook: HookScript, context: Parameters<NonNullable<Rule<unknown>['checkProfile']>>[0]): void {
  const meta = hook.claudeCode;
  if (!meta || meta.source === 'settings-local') return;
  let map: ScriptSourceMap | undefined;
  for (const match of hook.text.matchAll(HOME_PATH)) {
    const written = match[0];
    const interpreter =
      /(?:^|[\s;&|(])(python3?|perl|uv run|node|bun|deno|ruby|php|bash|sh)\s+(?:-\S+\s+)*["']?$/.exec(
        hook.text.slice(0, match.index),
      )?.[1] ?? '';
    const { status, blocks } = missingExit(hook, interpreter.split(' ')[0]!);
    const effect = blocks
      ? `\`${interpreter}\` exits 2 for a missing file, which Claude Code takes as a block on every call`
      : `exit ${status}, which does not block: a guard is silently off`;
    const inProject = /[\\/]\.claude[\\/].*$/.exec(written)?.[0].replace(/\\/g, '/');
    const root = meta.pluginRoot !== undefined || meta.source.startsWith('plugin') ? '${CLAUDE_PLUGIN_ROOT}' : '"$CLAUDE_PROJECT_DIR"';
    const suggestion = inProject ? `${root}${inProject}` : `${root}/…`;
    map ??= new ScriptSourceMap(hook, context.profile.lines);
    context.report({
      messageId: 'homePath',
      data: { written, effect, suggestion },
      range: map.mapRange(map.scriptLines.rangeOf(match.index, match.index + written.length)).range,
      severity: 'warning',
    });
  }
}
