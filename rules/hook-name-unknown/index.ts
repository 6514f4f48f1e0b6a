import { isMap } from 'yaml';
import { defineRule } from '../../src/engine/rule.js';
import { findPair, keyName, mapPairs, nodeRange, rootMap } from '../../src/profile/profile.js';
import { HOOK_SETTING_KEYS, KNOWN_HOOK_NAMES, LIFECYCLE_HOOKS } from '../../src/runtime/contract.js';
import { closestMatch } from '../../src/text/suggest.js';
import { isClaudeCodeYamlEntry } from '../../src/hooks/extract.js';

const TOP_LEVEL = [...KNOWN_HOOK_NAMES, ...HOOK_SETTING_KEYS, 'lifecycle'];

/** A hook the runtime does not know never runs: usually a typo of one it does. */
export default defineRule({
  id: 'hook-name-unknown',
  meta: {
    description: 'A key under `hooks:` (or `hooks.lifecycle:`) is not a hook the runtime runs.',
    severity: 'warning',
    category: 'hooks',
    fixable: true,
  },
  messages: {
    unknownSuggest: 'Unexpected hook name `{{name}}`: the runtime never runs it. Did you mean `{{suggestion}}`?',
    unknown: 'Unexpected hook name `{{name}}`: the runtime never runs it. Known hooks: {{known}}.',
  },
  checkProfile(context) {
    const root = rootMap(context.profile);
    const hooks = findPair(root, 'hooks')?.value;
    if (!isMap(hooks)) return;
    const check = (map: unknown, known: readonly string[]): void => {
      for (const pair of mapPairs(map)) {
        const name = keyName(pair);
        const range = nodeRange(context.profile, pair.key);
        if (name === undefined || !range || known.includes(name)) continue;
        // Claude Code's events in the same map are judged by that runtime's rules (cc-event-unknown).
        if (map === hooks && isClaudeCodeYamlEntry(context.profile, pair, name)) continue;
        const suggestion = closestMatch(name, known);
        if (suggestion) {
          context.report({
            messageId: 'unknownSuggest',
            data: { name, suggestion },
            range,
            fixes: [{ title: `Rename to \`${suggestion}\``, safe: false, edits: [{ range, text: suggestion }] }],
          });
        } else {
          context.report({ messageId: 'unknown', data: { name, known: known.map((k) => `\`${k}\``).join(', ') }, range });
        }
      }
    };
    check(hooks, TOP_LEVEL);
    const lifecycle = findPair(hooks, 'lifecycle')?.value;
    if (isMap(lifecycle)) check(lifecycle, LIFECYCLE_HOOKS);
  },
});
