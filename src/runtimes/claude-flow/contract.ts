/**
 * claude-flow's hook contract. The facts live in src/runtime/contract.ts
 * (where the rules have always imported them from); this is the runtime's
 * place beside Claude Code's, so code that works with both runtimes finds
 * each contract under src/runtimes/<id>/.
 */
export * from '../../runtime/contract.js';
export const RUNTIME_ID = 'claude-flow' as const;
