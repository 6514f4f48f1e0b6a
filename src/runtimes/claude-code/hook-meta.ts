import type { Range } from '../../diagnostics.js';
import type { HookSourceKind } from './contract.js';

/** Where one field of a handler stands in the file. */
export interface FieldPlace {
  keyRange: Range;
  valueRange: Range;
}

/** What a Claude Code hook script knows of its configuration entry. */
export interface ClaudeCodeHookMeta {
  /** The event key as written (`PreToolUse`). */
  event: string;
  /** The event the hook receives at run time (`Stop` in agent frontmatter arrives as `SubagentStop`). */
  effectiveEvent: string;
  source: HookSourceKind;
  /** The group's `matcher`, when it has one that is a string. */
  matcher?: string;
  groupIndex: number;
  handlerIndex: number;
  handlerType: 'command';
  /** Seconds, when the handler sets a numeric `timeout`. */
  timeout?: number;
  /** Shell form runs `sh -c COMMAND`; exec form (with `args`) spawns COMMAND with ARGS, no shell. */
  form: 'shell' | 'exec';
  args?: string[];
  shell?: string;
  async?: boolean;
  /** Key and value ranges of the handler's fields (`command`, `timeout`, …) and of its group's `matcher`. */
  fields: Record<string, FieldPlace>;
  /** Directory `$CLAUDE_PROJECT_DIR` stands for (the project root), when known. */
  projectDir?: string;
  /** Directory `${CLAUDE_PLUGIN_ROOT}` stands for, for plugin hooks. */
  pluginRoot?: string;
  /** For a script file run by hooks: the events of the hooks that run it. */
  callerEvents?: string[];
}
