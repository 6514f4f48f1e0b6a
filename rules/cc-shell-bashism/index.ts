import { defineRule } from '../../src/engine/rule.js';
import { eventsOfHook, exit2Blocks } from '../../src/runtimes/claude-code/contract.js';
import { dashGaps } from '../../src/shell/dash-gaps.js';

/**
 * Claude Code runs a shell-form command with `sh -c` (§3.1). Where `sh` is
 * dash (Debian, Ubuntu, and so most CI runners and containers), a bashism
 * either stops the whole command (a syntax error, exit 2: on a blocking
 * event, dash's error message blocks the action) or quietly does something
 * else (`[[` is a command not found, so the guard built on it never fires).
 * macOS's `sh` is bash, where the same command works: hence a warning.
 * Script files run by their own shebang and are not read here.
 */
export default defineRule({
  id: 'cc-shell-bashism',
  meta: {
    description:
      'A shell-form Claude Code hook command uses bash syntax that `sh -c` does not have where `sh` is dash (Debian, Ubuntu): it fails, stops or does something else.',
    severity: 'warning',
    category: 'runtime',
    runtimes: ['claude-code'],
  },
  messages: {
    gap: 'Unexpected {{construct}} in a shell-form command, which Claude Code runs with `sh -c`: in dash (`sh` on Debian and Ubuntu; macOS’s `sh` is bash) {{dash}}{{consequence}}. {{instead}}',
  },
  checkScript(context) {
    const meta = context.hook.claudeCode;
    if (!meta || meta.callerEvents !== undefined || meta.form !== 'shell' || meta.shell === 'powershell') return;
    const blocking = eventsOfHook(context.hook).filter((event) => exit2Blocks(event));
    for (const gap of dashGaps(context.tree.rootNode, context.commands)) {
      const stops = gap.effect === 'syntax' || gap.effect === 'fatal';
      context.report({
        messageId: 'gap',
        data: {
          construct: gap.construct,
          dash: gap.effect === 'syntax' ? `${gap.dash}, so none of the command runs and it exits 2` : gap.dash,
          consequence:
            stops && blocking.length > 0 && !meta.async
              ? `; exit 2 on ${blocking.join(' or ')} is a blocking error, with dash's error message as the reason`
              : '',
          instead: gap.instead,
        },
        range: context.range(gap.start, gap.end),
      });
    }
  },
});
