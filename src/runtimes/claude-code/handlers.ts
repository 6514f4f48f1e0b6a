import { readFile } from 'node:fs/promises';
import { dirname, relative, isAbsolute } from 'node:path';
import type { Diagnostic } from '../../diagnostics.js';
import { entry, type PNode } from '../../hooks/tree.js';
import { findPair, profileFromBytes, rootMap } from '../../profile/profile.js';
import type { CcConfig } from './config.js';
import type { HookSourceKind } from './contract.js';
import type { ClaudeCodeHandler } from './handler.js';
import { claudeCodeConfig } from './read.js';

/**
 * Every handler of a file's Claude Code hooks, runnable or not (an `http`
 * handler is listed as not run, with why), from the extraction's model of
 * events → matcher groups → handlers, and the directory that is the project.
 */

export interface ClaudeCodeTarget {
  file: string;
  source?: HookSourceKind;
  handlers: ClaudeCodeHandler[];
  /** The reader's problems (YAML or JSON that does not parse, ...). */
  diagnostics: Diagnostic[];
  /** Host directory that is the project (copied into the sandbox; CLAUDE_PROJECT_DIR). */
  projectRoot: string;
  pluginRoot?: string;
  /** An agent profile's `name`: the `agent_type` its hooks see (they fire inside that subagent). */
  agentName?: string;
}

export async function loadClaudeCodeTarget(file: string, projectOverride?: string): Promise<ClaudeCodeTarget> {
  const loaded = profileFromBytes(file, await readFile(file));
  if (!loaded.ok) return { file, handlers: [], diagnostics: [loaded.diagnostic], projectRoot: projectOverride ?? dirname(file) };
  const config = claudeCodeConfig(loaded.profile);
  const handlers = config ? handlersOf(config) : [];
  const pluginRoot = config?.pluginRoot;
  let projectRoot = projectOverride ?? config?.projectDir ?? pluginRoot ?? dirname(file);
  // The plugin is copied with the project; a plugin outside it is its own project.
  if (pluginRoot !== undefined && !isInside(pluginRoot, projectRoot)) projectRoot = pluginRoot;
  const name = loaded.profile.kind === 'json' ? undefined : findPair(rootMap(loaded.profile), 'name')?.value;
  const agentName =
    config?.source === 'agent' && name && typeof (name as { value?: unknown }).value === 'string'
      ? (name as { value: string }).value
      : undefined;
  return {
    ...(agentName !== undefined ? { agentName } : {}),
    file,
    ...(config ? { source: config.source } : {}),
    handlers,
    diagnostics: loaded.profile.problems,
    projectRoot,
    ...(pluginRoot !== undefined ? { pluginRoot } : {}),
  };
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export function handlersOf(config: CcConfig): ClaudeCodeHandler[] {
  const handlers: ClaudeCodeHandler[] = [];
  for (const event of config.events)
    for (const group of event.groups)
      for (const h of group.handlers) {
        const node = h.node;
        const matcher = group.matcher?.value.kind === 'string' ? (group.matcher.value.value as string) : undefined;
        const command = entry(node, 'command');
        const handler: ClaudeCodeHandler = {
          file: config.file,
          range: h.script?.valueRange ?? command?.value.range ?? node.range,
          source: config.source,
          event: event.name,
          groupIndex: group.index,
          handlerIndex: h.index,
          type: h.type ?? '(no type)',
          ...(matcher !== undefined ? { matcher } : {}),
          ...(config.pluginRoot !== undefined ? { pluginRoot: config.pluginRoot } : {}),
        };
        if (h.script) handler.command = h.script.text;
        else if (command?.value.kind === 'string') handler.command = command.value.value as string;
        const args = entry(node, 'args')?.value;
        if (args?.kind === 'array') handler.args = args.items.map(scalarText);
        const timeout = value(node, 'timeout');
        if (typeof timeout === 'number' && timeout > 0) handler.timeout = timeout;
        if (value(node, 'async') === true) handler.async = true;
        if (value(node, 'asyncRewake') === true) handler.asyncRewake = true;
        const shell = value(node, 'shell');
        if (typeof shell === 'string') handler.shell = shell;
        const condition = value(node, 'if');
        if (typeof condition === 'string') handler.if = condition;
        handlers.push(handler);
      }
  return handlers;
}

function value(node: PNode, key: string): unknown {
  const found = entry(node, key)?.value;
  return found && found.kind !== 'object' && found.kind !== 'array' ? found.value : undefined;
}

function scalarText(node: PNode): string {
  return node.kind === 'object' || node.kind === 'array' ? JSON.stringify(null) : String(node.value ?? '');
}
