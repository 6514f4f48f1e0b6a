import { defineRule } from '../../src/engine/rule.js';
import { handlers } from '../../src/runtimes/claude-code/walk.js';

/**
 * `async` and `asyncRewake` run a `command` hook in the background; other
 * handler types do not have them. In the background a hook's decision comes
 * too late to count: on an event that can block, `async: true` turns a gate
 * into a notification.
 */
export default defineRule({
  id: 'cc-async-invalid',
  meta: {
    description: '`async`/`asyncRewake` on a Claude Code handler that is not a `command`, or on a gate whose decision it voids.',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    notCommand: 'Invalid `{{field}}` on a `{{type}}` handler: only `command` handlers run in the background.',
    voidsDecision:
      "Unexpected `async: true` on `{{event}}`: a background hook's exit code and `decision` have no effect, so this hook can no longer block. Remove `async` if it is a gate.",
  },
  checkProfile(context) {
    for (const { event, spec, handler, field } of handlers(context.claudeCode)) {
      for (const name of ['async', 'asyncRewake']) {
        const found = field(name);
        if (!found || (found.value.kind === 'boolean' && found.value.value === false)) continue;
        if (handler.type && handler.type !== 'command') {
          context.report({ messageId: 'notCommand', data: { field: name, type: handler.type }, range: found.keyRange });
        } else if (name === 'async' && spec && spec.block !== 'none' && blocksSomewhere(handler)) {
          context.report({ messageId: 'voidsDecision', data: { event: event.name }, range: found.keyRange, severity: 'warning' });
        }
      }
    }
  },
});

/** A background command written to refuse (exit 2, a `deny` or `block` decision) was meant as a gate. */
function blocksSomewhere(handler: { script?: { text: string } }): boolean {
  const text = handler.script?.text ?? '';
  return /\bexit\s+2\b|"?(?:permissionDecision|decision)"?\s*:\s*\\?"?(?:deny|block)/.test(text);
}
