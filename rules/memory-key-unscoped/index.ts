import { defineRule } from '../../src/engine/rule.js';
import { runtimeEnvFor } from '../../src/runtime/contract.js';
import { memoryCalls } from '../../src/runtime/memory-calls.js';
import { variableUses } from '../../src/shell/analysis.js';
import { rememberedForWord } from '../../src/shell/commands.js';

/**
 * Agent-level memory is private to one agent, but agents of one profile run
 * side by side in a swarm: a key such as `blocking:context` is the same key
 * for all of them, and each overwrites what the others stored. The runtime's
 * own examples scope such keys with `${AGENT_ID}`.
 */
export default defineRule({
  id: 'memory-key-unscoped',
  meta: {
    description: 'An agent-level `/sqlite-memory` key that does not contain `${AGENT_ID}`.',
    severity: 'warning',
    category: 'runtime',
  },
  messages: {
    unscoped:
      "Expected the agent-level key `{{key}}` to contain `${AGENT_ID}`: every agent of this profile uses the same key and overwrites the others' entry. Use e.g. `agent:${AGENT_ID}:{{suffix}}`.",
  },
  checkScript(context) {
    const runtime = new Set(runtimeEnvFor(context.hook.name));
    for (const call of memoryCalls(context.commands)) {
      if (call.level?.value !== 'agent' || !call.key) continue;
      const word = call.key.word;
      const names = rememberedForWord(word, 'word-variables', () => variableUses(word.node).map((u) => u.name));
      if (names.includes('AGENT_ID')) continue;
      // A script variable may hold the agent id; only keys built from literals and runtime values are judged.
      if (names.some((name) => !runtime.has(name))) continue;
      const key = call.key.value ?? call.key.word.text.replace(/^["']|["']$/g, '');
      context.report({
        messageId: 'unscoped',
        data: { key, suffix: key.replace(/^agent:/, '') },
        range: context.range(call.key.start, call.key.word.end),
      });
    }
  },
});
