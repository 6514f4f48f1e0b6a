import type { Range } from '../diagnostics.js';

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

/** The agent runtimes whose hooks the tool understands (their contracts: src/runtimes/<id>/). */
export type RuntimeId = 'claude-flow' | 'claude-code';

/** Where a Claude Code hook configuration was found; decides which facts apply (`once`, plugin variables, `Stop` → `SubagentStop`). */
export type HookSourceKind =
  | 'agent'
  | 'plugin-agent'
  | 'skill'
  | 'plugin-skill'
  | 'command'
  | 'settings'
  | 'settings-local'
  | 'plugin-hooks'
  | 'plugin-manifest';

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
  /** Exec form: where each of `args` stands in the file, as a hook's `segments` (empty where an item is not a string). */
  argSegments?: SourceSegment[][];
  shell?: string;
  /** Runs in the background (`async: true`, or `asyncRewake: true`); for a script file: every hook that runs it does. */
  async?: boolean;
  /** Key and value ranges of the handler's fields (`command`, `timeout`, …) and of its group's `matcher`. */
  fields: Record<string, FieldPlace>;
  /** Directory `$CLAUDE_PROJECT_DIR` stands for (the project root), when known. */
  projectDir?: string;
  /** Directory `${CLAUDE_PLUGIN_ROOT}` stands for, for plugin hooks. */
  pluginRoot?: string;
  /** For a script file run by hooks: the events of the hooks that run it. */
  callerEvents?: string[];
  /** …and the tools their exact matchers name, when every one of them names tools with a known `tool_input`. */
  callerTools?: string[];
  /** …when every one of them gives it something else than the hook's stdin (`jq -c .tool_input | ./guard.sh`, `./guard.sh < x`). */
  foreignStdin?: boolean;
}
