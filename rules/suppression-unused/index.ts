import { defineRule } from '../../src/engine/rule.js';

/** Reported by the engine (src/engine/suppressions.ts) after suppressions are applied. */
export default defineRule({
  id: 'suppression-unused',
  meta: { description: 'A `validate-agent-hooks-disable…` comment suppresses nothing.', severity: 'warning', category: 'suppressions' },
  messages: {},
});
