import { defineRule } from '../../src/engine/rule.js';
import { eventsOfHook } from '../../src/runtimes/claude-code/contract.js';
import { commandBase } from '../../src/shell/analysis.js';

const STOP_EVENTS = new Set(['Stop', 'SubagentStop']);

/**
 * A Stop or SubagentStop hook that blocks makes Claude keep going; when it
 * stops again, the hook runs again with `stop_hook_active: true`. A hook
 * that blocks without checking that field blocks forever (Claude Code ends
 * the turn after 8 blocks in a row since v2.1.143, so it loops until then).
 */
export default defineRule({
  id: 'cc-stop-hook-active',
  meta: {
    description: 'A Claude Code Stop/SubagentStop hook can block without checking `stop_hook_active`, so it can loop.',
    severity: 'warning',
    category: 'runtime',
    runtimes: ['claude-code'],
  },
  messages: {
    loop: 'Unexpected block in a `{{event}}` hook that never reads `stop_hook_active`: once Claude continues, the hook blocks again and again. Exit 0 when `jq -r .stop_hook_active` is `true`.',
  },
  checkScript(context) {
    const event = eventsOfHook(context.hook).find((e) => STOP_EVENTS.has(e));
    if (!event || context.hook.text.includes('stop_hook_active')) return;
    const exit2 = context.commands.find((c) => commandBase(c) === 'exit' && c.args[0]?.value === '2');
    const decision = /["']?decision["']?\s*:\s*\\?["']?block/.exec(context.hook.text);
    const start = exit2?.start ?? decision?.index;
    if (start === undefined) return;
    const end = exit2?.end ?? start + decision![0].length;
    context.report({ messageId: 'loop', data: { event }, range: context.range(start, end) });
  },
});
