/**
 * The agent runtimes whose hooks the tool understands. Each has one module
 * that knows its contract (src/runtimes/<id>/contract.ts); a hook carries the
 * id of the runtime that runs it, decided from the shape of its entry.
 */
import type { RuntimeId } from '../hooks/types.js';

export type { RuntimeId };
export const RUNTIME_IDS: readonly RuntimeId[] = ['claude-flow', 'claude-code'];
