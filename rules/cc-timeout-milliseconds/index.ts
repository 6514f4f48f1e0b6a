import { defineRule } from '../../src/engine/rule.js';
import { TIMEOUT_PROBABLY_MS } from '../../src/runtimes/claude-code/contract.js';
import { handlers } from '../../src/runtimes/claude-code/walk.js';

/**
 * Claude Code's `timeout` is in seconds; many guides copy `5000` from tools
 * that count milliseconds, which is 83 minutes. A value above 600 s (the
 * default and usual ceiling) was most likely meant as milliseconds.
 */
export default defineRule({
  id: 'cc-timeout-milliseconds',
  meta: {
    description: 'A Claude Code hook `timeout` above 600 — seconds, so most likely milliseconds by mistake.',
    severity: 'warning',
    category: 'hooks',
    fixable: true,
  },
  messages: {
    milliseconds:
      'Unexpected `timeout: {{value}}`: Claude Code counts seconds, so this is {{human}}. If you meant milliseconds, write `{{seconds}}`.',
  },
  checkProfile(context) {
    for (const { field } of handlers(context.claudeCode)) {
      const timeout = field('timeout');
      if (timeout?.value.kind !== 'number') continue;
      const value = timeout.value.value as number;
      if (value <= TIMEOUT_PROBABLY_MS) continue;
      const seconds = Math.max(1, Math.round(value / 1000));
      context.report({
        messageId: 'milliseconds',
        data: { value, human: humanDuration(value), seconds },
        range: timeout.value.range,
        fixes: [{ title: `Change to ${seconds} (seconds)`, safe: false, edits: [{ range: timeout.value.range, text: String(seconds) }] }],
      });
    }
  },
});

function humanDuration(seconds: number): string {
  if (seconds >= 2 * 86400) return `about ${Math.round(seconds / 86400)} days`;
  if (seconds >= 2 * 3600) return `about ${Math.round(seconds / 3600)} hours`;
  return `about ${Math.round(seconds / 60)} minutes`;
}
