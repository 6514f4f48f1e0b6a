import { basename, dirname, join, sep } from 'node:path';
import { existsSync } from 'node:fs';
import type { Range } from '../../diagnostics.js';
import { entry, type PEntry, type PNode } from '../../hooks/tree.js';
import type { HookScript } from '../../hooks/types.js';
import { effectiveEvent, type HookSourceKind, PLUGIN_MANIFEST } from './contract.js';
import type { ClaudeCodeHookMeta, FieldPlace } from './hook-meta.js';

/** One handler of a matcher group (`{type, command, timeout, …}`), valid or not: the schema rules judge it. */
export interface CcHandler {
  index: number;
  node: PNode;
  /** The handler's `type`, when it is a string. */
  type?: string;
  /** Set for a `command` handler whose `command` is a string. */
  script?: HookScript;
}

export interface CcGroup {
  index: number;
  node: PNode;
  matcher?: PEntry;
  hooks?: PEntry;
  handlers: CcHandler[];
}

export interface CcEvent {
  name: string;
  entry: PEntry;
  groups: CcGroup[];
}

/** The Claude Code hooks of one file: events → matcher groups → handlers. */
export interface CcConfig {
  file: string;
  source: HookSourceKind;
  /** The `hooks` key (a frontmatter's, a settings file's or a manifest's). */
  hooksEntry?: PEntry;
  events: CcEvent[];
  projectDir?: string;
  pluginRoot?: string;
}

export { isClaudeCodeEntry } from '../../hooks/tree.js';

export interface FileFacts {
  /** Whether a path exists (injected so the model can be built for editor buffers and tests). */
  exists?: (path: string) => boolean;
}

/**
 * What kind of hook source a file is, from its place (§1.1): settings,
 * plugin hooks file or manifest, a skill, a slash command, an agent (a
 * plugin's agents ignore `hooks`); and the directories its hooks' paths are
 * relative to.
 */
export function sourceOf(file: string, facts: FileFacts = {}): { source: HookSourceKind; projectDir?: string; pluginRoot?: string } {
  const exists = facts.exists ?? existsSync;
  const name = basename(file);
  const parts = file.split(/[\\/]/);
  const claudeIndex = parts.lastIndexOf('.claude');
  const projectDir = claudeIndex > 0 ? parts.slice(0, claudeIndex).join(sep) || sep : undefined;
  const withProject = <T extends object>(value: T): T & { projectDir?: string } =>
    projectDir !== undefined ? { ...value, projectDir } : value;
  if (name === 'plugin.json' && basename(dirname(file)) === '.claude-plugin') {
    return { source: 'plugin-manifest', pluginRoot: dirname(dirname(file)) };
  }
  if (name === 'hooks.json' && basename(dirname(file)) === 'hooks' && claudeIndex === -1) {
    return { source: 'plugin-hooks', pluginRoot: dirname(dirname(file)) };
  }
  const pluginRoot = manifestHooksRoot(name, parts, claudeIndex, exists);
  if (pluginRoot !== undefined) return { source: 'plugin-hooks', pluginRoot };
  if (name.endsWith('.json')) return withProject({ source: name === 'settings.local.json' ? 'settings-local' : 'settings' });
  // Under a project's .claude/: agents, skills and commands of the project.
  if (claudeIndex !== -1) {
    const area = parts[claudeIndex + 1];
    if (name === 'SKILL.md' && area === 'skills') return withProject({ source: 'skill' });
    if (area === 'commands') return withProject({ source: 'command' });
    return withProject({ source: 'agent' });
  }
  // A plugin's agents/, skills/ and commands/ sit beside its .claude-plugin/.
  for (let i = parts.length - 2; i > 0; i--) {
    const area = parts[i];
    if (area !== 'agents' && area !== 'skills' && area !== 'commands') continue;
    const root = parts.slice(0, i).join(sep) || sep;
    if (!exists(join(root, PLUGIN_MANIFEST))) continue;
    if (area === 'agents') return { source: 'plugin-agent', pluginRoot: root };
    if (area === 'skills' && name === 'SKILL.md') return { source: 'plugin-skill', pluginRoot: root };
    if (area === 'commands') return { source: 'command', pluginRoot: root };
  }
  return { source: name === 'SKILL.md' ? 'skill' : 'agent' };
}

/**
 * The plugin root of a hooks file the manifest names elsewhere than
 * `hooks/hooks.json` (`"hooks": "./hooks.json"`): a JSON file, not a
 * settings file, below a directory with `.claude-plugin/plugin.json`.
 */
function manifestHooksRoot(
  name: string,
  parts: readonly string[],
  claudeIndex: number,
  exists: (path: string) => boolean,
): string | undefined {
  if (claudeIndex !== -1 || !name.endsWith('.json') || name === 'settings.json' || name === 'settings.local.json') return undefined;
  for (let i = parts.length - 1; i > 0; i--) {
    const root = parts.slice(0, i).join(sep) || sep;
    if (exists(join(root, PLUGIN_MANIFEST))) return root;
  }
  return undefined;
}

/**
 * Reads an events map (`{PreToolUse: [{matcher, hooks: [...]}]}`) into the
 * model, making a HookScript of every `command` handler's string. `keyPrefix`
 * is the path to the map (`['hooks']`), `accept` picks the event keys that
 * are Claude Code's (a frontmatter map mixes runtimes).
 */
export function readEvents(
  map: PNode,
  keyPrefix: readonly string[],
  base: { file: string; source: HookSourceKind; projectDir?: string; pluginRoot?: string },
  accept: (e: PEntry) => boolean = () => true,
): CcEvent[] {
  if (map.kind !== 'object') return [];
  const events: CcEvent[] = [];
  for (const eventEntry of map.entries) {
    if (!accept(eventEntry)) continue;
    const groups: CcGroup[] = [];
    const groupNodes = eventEntry.value.kind === 'array' ? eventEntry.value.items : [];
    groupNodes.forEach((groupNode, groupIndex) => {
      const hooks = entry(groupNode, 'hooks');
      const matcher = entry(groupNode, 'matcher');
      const group: CcGroup = { index: groupIndex, node: groupNode, handlers: [] };
      if (hooks) group.hooks = hooks;
      if (matcher) group.matcher = matcher;
      const handlerNodes = hooks?.value.kind === 'array' ? hooks.value.items : [];
      handlerNodes.forEach((handlerNode, handlerIndex) => {
        const handler: CcHandler = { index: handlerIndex, node: handlerNode };
        const type = entry(handlerNode, 'type');
        if (type?.value.kind === 'string') handler.type = type.value.value as string;
        const script = handler.type === 'command' ? commandScript(eventEntry.key, group, handler, keyPrefix, base) : undefined;
        if (script) handler.script = script;
        group.handlers.push(handler);
      });
      groups.push(group);
    });
    events.push({ name: eventEntry.key, entry: eventEntry, groups });
  }
  return events;
}

function commandScript(
  event: string,
  group: CcGroup,
  handler: CcHandler,
  keyPrefix: readonly string[],
  base: { file: string; source: HookSourceKind; projectDir?: string; pluginRoot?: string },
): HookScript | undefined {
  const command = entry(handler.node, 'command');
  if (!command || command.value.kind !== 'string' || !command.value.script) return undefined;
  const { text, style, segments } = command.value.script();
  const fields: Record<string, FieldPlace> = {};
  if (handler.node.kind === 'object') for (const e of handler.node.entries) fields[e.key] = place(e);
  if (group.matcher) fields.matcher = place(group.matcher);
  const args = entry(handler.node, 'args');
  const timeout = entry(handler.node, 'timeout');
  const shell = entry(handler.node, 'shell');
  const isAsync = entry(handler.node, 'async');
  const meta: ClaudeCodeHookMeta = {
    event,
    effectiveEvent: effectiveEvent(event, base.source),
    source: base.source,
    groupIndex: group.index,
    handlerIndex: handler.index,
    handlerType: 'command',
    form: args ? 'exec' : 'shell',
    fields,
  };
  if (group.matcher?.value.kind === 'string') meta.matcher = group.matcher.value.value as string;
  if (timeout?.value.kind === 'number') meta.timeout = timeout.value.value as number;
  if (args?.value.kind === 'array') {
    meta.args = args.value.items.map((item) => ('value' in item ? String(item.value) : ''));
    meta.argSegments = args.value.items.map((item) => (item.kind === 'string' && item.script ? item.script().segments : []));
  }
  if (shell?.value.kind === 'string') meta.shell = shell.value.value as string;
  if (isAsync?.value.kind === 'boolean') meta.async = isAsync.value.value as boolean;
  // `asyncRewake: true` runs the handler in the background too (§2.4).
  const rewake = entry(handler.node, 'asyncRewake');
  if (rewake?.value.kind === 'boolean' && rewake.value.value === true) meta.async = true;
  if (base.projectDir !== undefined) meta.projectDir = base.projectDir;
  if (base.pluginRoot !== undefined) meta.pluginRoot = base.pluginRoot;
  return {
    runtime: 'claude-code',
    file: base.file,
    name: `${event}[${group.index}].hooks[${handler.index}]`,
    keyPath: [...keyPrefix, event, String(group.index), 'hooks', String(handler.index), 'command'],
    text,
    style,
    keyRange: command.keyRange,
    valueRange: command.value.range,
    segments,
    claudeCode: meta,
  };
}

function place(e: PEntry): FieldPlace {
  return { keyRange: e.keyRange, valueRange: e.value.range };
}

/** Every hook script of a model, in file order. */
export function configScripts(config: CcConfig | undefined): HookScript[] {
  if (!config) return [];
  return config.events.flatMap((event) => event.groups.flatMap((group) => group.handlers.flatMap((h) => (h.script ? [h.script] : []))));
}

export function rangeContains(outer: Range, inner: Range): boolean {
  const before = (l1: number, c1: number, l2: number, c2: number): boolean => l1 < l2 || (l1 === l2 && c1 <= c2);
  return (
    before(outer.line, outer.column, inner.line, inner.column) && before(inner.endLine, inner.endColumn, outer.endLine, outer.endColumn)
  );
}
