import type { Range } from '../diagnostics.js';
import type { ClaudeCodeHookMeta } from '../runtimes/claude-code/hook-meta.js';
import type { RuntimeId } from '../runtimes/index.js';

/**
 * One stretch of the script that appears verbatim in the file: script offsets
 * [scriptOffset, scriptOffset + length) are file offsets [fileOffset, …).
 */
export interface SourceSegment {
  scriptOffset: number;
  fileOffset: number;
  length: number;
  /**
   * Set on an atomic segment (a JSON or YAML escape such as `\"` or `\u00e9`):
   * the decoded units [scriptOffset, scriptOffset + length) stand for file
   * text of this length, and no position inside maps except its start and end.
   */
  fileLength?: number;
}

export type ScalarStyle = 'literal' | 'folded' | 'plain' | 'single-quoted' | 'double-quoted' | 'json-string' | 'file';

/**
 * A hook script taken out of a profile, with what is needed to put any
 * position inside it back into the file. The executor and the simulator take
 * these values; they never see the engine.
 */
export interface HookScript {
  /** Which agent runtime runs this hook; rules ask its contract (src/runtimes/) for facts. */
  runtime: RuntimeId;
  /** Path of the profile file the hook comes from. */
  file: string;
  /** `on_blocking_start`, `pre`, or `lifecycle.init` for nested lifecycle hooks. */
  name: string;
  /** Keys from the document root to the hook's value, e.g. ['hooks', 'lifecycle', 'init']. */
  keyPath: string[];
  /** The script as the runtime would run it (YAML-decoded, `\n` line endings). */
  text: string;
  style: ScalarStyle;
  /** File range of the hook's key (where findings that cannot be mapped exactly go). */
  keyRange: Range;
  /** File range of the hook's value. */
  valueRange: Range;
  /** Verbatim stretches; positions outside them fall back to `valueRange`. */
  segments: SourceSegment[];
  /** Claude Code hooks: event, matcher, handler and where each of its fields stands. */
  claudeCode?: ClaudeCodeHookMeta;
}
