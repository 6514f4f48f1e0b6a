// The types live with HookScript (hooks/ sits below runtimes/); re-exported here beside the contract.
export type { ClaudeCodeHookMeta, FieldPlace } from '../../hooks/types.js';
