import type { Range } from '../../diagnostics.js';
import type { HookSourceKind } from './contract.js';

/**
 * One Claude Code hook handler as the runner needs it: where it is written,
 * the event and matcher group it belongs to, and its fields as configured.
 * The extraction turns agent frontmatter, settings files, SKILL.md and plugin
 * hooks.json into these.
 */

export interface ClaudeCodeHandler {
  /** Host path of the file the handler is written in. */
  file: string;
  /** Where the handler is written (its object, or its `command`), 1-based, end exclusive. */
  range: Range;
  source: HookSourceKind;
  /** The event key it is configured under (`Stop` in agent frontmatter runs as SubagentStop). */
  event: string;
  /** The matcher group's `matcher`, when it has one. */
  matcher?: string;
  /** Index of the matcher group under the event, and of the handler in the group (for names). */
  groupIndex: number;
  handlerIndex: number;
  type: string;
  command?: string;
  args?: string[];
  /** Seconds, as configured. */
  timeout?: number;
  async?: boolean;
  asyncRewake?: boolean;
  shell?: string;
  if?: string;
  /** Host path of the plugin's root, for plugin hooks (CLAUDE_PLUGIN_ROOT). */
  pluginRoot?: string;
}

/** `PreToolUse[0].hooks[1]`: how reports name a handler besides its position. */
export function handlerLabel(handler: ClaudeCodeHandler): string {
  return `${handler.event}[${handler.groupIndex}].hooks[${handler.handlerIndex}]`;
}
