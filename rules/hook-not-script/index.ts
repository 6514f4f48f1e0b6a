import { isScalar, isSeq } from 'yaml';
import { defineRule } from '../../src/engine/rule.js';
import { nodeRange } from '../../src/profile/profile.js';

/**
 * The runtime runs a hook's value with bash. A list (often of English
 * sentences describing intent), a mapping, a number or nothing is not a
 * script: the hook silently does nothing, or fails.
 */
export default defineRule({
  id: 'hook-not-script',
  meta: {
    description: "A hook's value is not a script: a list of sentences or commands, a mapping, a number, or empty.",
    severity: 'warning',
    category: 'hooks',
  },
  messages: {
    sentences:
      'Expected a bash script for hook `{{name}}`, found a list of {{count}} sentences: the runtime runs hooks with bash, and prose does not run. Write the commands as a `|` block.',
    list: 'Expected a bash script for hook `{{name}}`, found a list of {{count}} items: the runtime runs one script. Join the commands into a `|` block.',
    empty: 'Expected a bash script for hook `{{name}}`, found an empty value.',
    other: 'Expected a bash script for hook `{{name}}`, found {{kind}}.',
  },
  checkProfile(context) {
    for (const entry of context.hooks) {
      if (entry.script) continue;
      const value = entry.pair.value;
      const range = nodeRange(context.profile, value) ?? entry.keyRange;
      if (value === null || (isScalar(value) && (value.value === null || value.value === ''))) {
        context.report({ messageId: 'empty', data: { name: entry.name }, range: entry.keyRange });
      } else if (isSeq(value)) {
        const items = value.items.map((item) => (isScalar(item) ? String(item.value) : ''));
        const prose = items.filter(looksLikeSentence).length;
        context.report({
          messageId: prose > items.length / 2 ? 'sentences' : 'list',
          data: { name: entry.name, count: items.length },
          range,
        });
      } else if (isScalar(value)) {
        context.report({ messageId: 'other', data: { name: entry.name, kind: `a ${typeof value.value}` }, range });
      } else if (entry.keyPath[0] === 'hooks') {
        context.report({ messageId: 'other', data: { name: entry.name, kind: 'a mapping' }, range });
      }
    }
  },
});

/** "Initialize swarm coordination for the issue" reads as prose: capitalised, several words, no shell syntax. */
export function looksLikeSentence(text: string): boolean {
  const words = text.trim().split(/\s+/);
  return /^[A-Z][a-z]/.test(text.trim()) && words.length >= 3 && !/[|&;<>$`(){}=]|^\S+\s+-/.test(text);
}
