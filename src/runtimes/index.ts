/**
 * The agent runtimes whose hooks the tool understands. Each has one module
 * that knows its contract (src/runtimes/<id>/contract.ts); a hook carries the
 * id of the runtime that runs it, decided from the shape of its entry.
 */
import type { RuntimeId } from '../hooks/types.js';

export type { RuntimeId };
export const RUNTIME_IDS: readonly RuntimeId[] = ['claude-flow', 'claude-code'];

import type { HookScript } from '../hooks/types.js';
import { handlerTimeoutSeconds } from './claude-code/contract.js';
import { hookBudgetMs as claudeFlowBudgetMs } from '../runtime/contract.js';

/**
 * How long the runtime lets this hook run before it stops it, in ms.
 * claude-flow: its fixed hook timeout. Claude Code: the handler's `timeout`
 * (seconds), else the documented default for its event, and on SessionEnd
 * the shared budget (1.5 s, raised by a settings-file timeout up to 60 s), as
 * the contract's handlerTimeoutSeconds says; a script file run by several
 * handlers gets the shortest.
 */
export function hookBudgetMs(hook: HookScript): number {
  if (hook.runtime === 'claude-flow' || !hook.claudeCode) return claudeFlowBudgetMs(hook.name);
  const meta = hook.claudeCode;
  const events = meta.callerEvents?.length ? meta.callerEvents : [meta.effectiveEvent];
  return Math.min(...events.map((event) => handlerTimeoutSeconds(meta, event))) * 1000;
}
