import type { Severity } from '../diagnostics.js';
import { basename, type PlainCommand, unwrapCommand } from '../shell/commands.js';
import { containerRun } from '../shell/remote.js';
import { nestedCommands } from '../shell/nested.js';
import type { SyntaxTree } from '../shell/parser.js';
import { resolvedCommands } from '../shell/resolved-commands.js';
import type { RuntimeId } from '../runtimes/index.js';
import { defineRule, type AnalysedHook, type Rule, type RuleMeta } from './rule.js';

/**
 * A command rule written as data (`rules/<id>/rule.json`): which commands,
 * with which flags or arguments, are forbidden in hooks. The first pattern
 * that matches a command decides its message and severity.
 */
export interface CommandPattern {
  /** Command names; a trailing `*` matches a prefix (`mkfs*` matches `mkfs.ext4`). */
  commands: string[];
  /** Every group must be present; a group is satisfied by any of its flags (`r` matches `-rf`, `--force` matches itself and `--forc`). */
  flags?: string[][];
  /**
   * A regular expression (case-insensitive) one argument, here-document or
   * here-string must match; a list of them, each (`["^push$", "^\\+."]`: a push of a `+` refspec).
   */
  argument?: string | string[];
  /** A regular expression no argument may match (`find -delete` with a `-name` test picks its files). */
  unlessArgument?: string;
  /** Regular expressions (case-insensitive) that consecutive arguments must match, in order (`-exec` then `rm`). */
  sequence?: string[];
  messageId: string;
  severity?: Severity;
}

export interface CommandRuleData {
  id: string;
  description: string;
  severity: Severity | 'off';
  securitySeverity?: number;
  messages: Record<string, string>;
  /** Messages for Claude Code hooks where the default one speaks of claude-flow (its swarm, its 5 s timeout). */
  claudeCodeMessages?: Record<string, string>;
  /** The commands harm the host's files: also read inside a container that bind-mounts a host path (`docker run -v "$PWD":/w …`). */
  hostFiles?: boolean;
  /** Runtimes whose hooks the rule reads (default: both; a command can be as dangerous in either). */
  runtimes?: RuntimeId[];
  patterns: CommandPattern[];
}

export function commandRule(data: CommandRuleData): Rule<{ config?: { allowedCommands: string[] } }> {
  const meta: RuleMeta = {
    description: data.description,
    severity: data.severity,
    category: 'shell',
    runtimes: data.runtimes ?? ['claude-flow', 'claude-code'],
  };
  const claudeCodeIds = Object.keys(data.claudeCodeMessages ?? {});
  const names = commandNames(data.patterns);
  if (data.securitySeverity !== undefined) meta.securitySeverity = data.securitySeverity;
  return defineRule({
    id: data.id,
    meta,
    messages: { ...data.messages, ...Object.fromEntries(claudeCodeIds.map((id) => [`${id}ClaudeCode`, data.claudeCodeMessages![id]!])) },
    checkScript(context) {
      const allowed = new Set(context.options.config?.allowedCommands ?? []);
      for (const command of everyCommand(context, data.hostFiles ? 'mounted' : 'none')) {
        const name = command.name.value;
        const base = name === undefined ? undefined : basename(name);
        // Most commands of a hook are none of this rule's: one look at the name settles them.
        if (base === undefined || !names.matches(base) || allowed.has(base)) continue;
        const pattern = data.patterns.find((p) => matchesPattern(command, p));
        if (!pattern) continue;
        const forClaudeCode = context.hook.runtime === 'claude-code' && claudeCodeIds.includes(pattern.messageId);
        const report = {
          messageId: forClaudeCode ? `${pattern.messageId}ClaudeCode` : pattern.messageId,
          data: { command: command.name.value ?? command.name.text },
          range: context.range(command.start, command.end),
        };
        context.report(pattern.severity ? { ...report, severity: pattern.severity } : report);
      }
    },
  });
}

/**
 * The hook's commands and those of the scripts it hands to a shell as text
 * (`bash -c '…'`, `eval '…'`, a here-document fed to `sh`), and those it runs
 * through a variable or a function (`$RM x`, `"${cmd[@]}"`, `run rm -rf x`).
 * With `containers`, also what a container runs: every such command
 * (`'all'`: its time is the hook's), or those of a `run` that bind-mounts a
 * host path (`'mounted'`: its files are the host's).
 */
export function everyCommand(
  hook: Readonly<Pick<AnalysedHook, 'tree' | 'commands' | 'hook'>>,
  containers: 'none' | 'mounted' | 'all' = 'none',
): PlainCommand[] {
  const nested = nestedCommands(hook.tree, hook.commands, hook.hook.text);
  const resolved = resolvedCommands(hook.tree, hook.commands);
  const all = nested.length === 0 && resolved.length === 0 ? hook.commands : [...hook.commands, ...nested, ...resolved];
  if (containers === 'none') return all;
  const inside = containerCommands(hook.tree, all)[containers];
  return inside.length === 0 ? all : [...all, ...inside];
}

const insideByTree = new WeakMap<SyntaxTree, { all: PlainCommand[]; mounted: PlainCommand[] }>();

/** What the hook's containers run, found once a tree for the several rules that ask. */
function containerCommands(tree: SyntaxTree, commands: readonly PlainCommand[]): { all: PlainCommand[]; mounted: PlainCommand[] } {
  let found = insideByTree.get(tree);
  if (!found) {
    found = { all: [], mounted: [] };
    for (const command of commands) {
      const run = containerRun(command);
      if (!run) continue;
      const inner = [run.inner, ...unwrapCommand(run.inner)];
      found.all.push(...inner);
      if (run.mountsHost) found.mounted.push(...inner);
    }
    insideByTree.set(tree, found);
  }
  return found;
}

/** Every command name the patterns name, exactly or by prefix (`mkfs*`). */
function commandNames(patterns: readonly CommandPattern[]): { matches(base: string): boolean } {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const pattern of patterns)
    for (const candidate of pattern.commands) {
      if (candidate.endsWith('*')) prefixes.push(candidate.slice(0, -1));
      else exact.add(candidate);
    }
  return { matches: (base) => exact.has(base) || prefixes.some((prefix) => base.startsWith(prefix)) };
}

export function matchesPattern(command: PlainCommand, pattern: CommandPattern): boolean {
  const name = command.name.value;
  if (name === undefined) return false;
  const base = basename(name);
  const nameMatches = pattern.commands.some((candidate) =>
    candidate.endsWith('*') ? base.startsWith(candidate.slice(0, -1)) : base === candidate,
  );
  if (!nameMatches) return false;
  if (pattern.flags && !pattern.flags.every((group) => group.some((flag) => hasFlag(command, flag)))) return false;
  if (pattern.argument !== undefined) {
    const texts = [...command.args.map((arg) => arg.value ?? arg.text), ...command.heredocs];
    for (const argument of [pattern.argument].flat()) {
      const expression = argumentExpression(argument);
      if (!texts.some((text) => expression.test(text))) return false;
    }
  }
  if (pattern.sequence !== undefined && !hasSequence(command, pattern.sequence.map(argumentExpression))) return false;
  if (pattern.unlessArgument !== undefined) {
    const expression = argumentExpression(pattern.unlessArgument);
    if (command.args.some((arg) => arg.value !== undefined && expression.test(arg.value))) return false;
  }
  return true;
}

function hasSequence(command: PlainCommand, expressions: readonly RegExp[]): boolean {
  const args = command.args;
  for (let i = 0; i + expressions.length <= args.length; i++) {
    if (expressions.every((expression, j) => expression.test(args[i + j]!.value ?? args[i + j]!.text))) return true;
  }
  return false;
}

const expressions = new Map<string, RegExp>();

/** A pattern's argument expression, compiled once (rules and `command-custom` patterns are few; each is tried on many commands). */
function argumentExpression(source: string): RegExp {
  let expression = expressions.get(source);
  if (!expression) expressions.set(source, (expression = new RegExp(source, 'i')));
  return expression;
}

function hasFlag(command: PlainCommand, flag: string): boolean {
  for (const arg of command.args) {
    const value = arg.value;
    if (value === undefined) continue;
    if (value === '--') return false;
    if (flag.startsWith('--')) {
      // getopt_long and git take an unambiguous prefix of a long option for it: `rm --recur --forc`.
      const name = value.split('=')[0]!;
      if (name.length > 2 && flag.startsWith(name)) return true;
    } else if (/^-[A-Za-z0-9]+$/.test(value) && value.slice(1).includes(flag)) {
      return true;
    }
  }
  return false;
}
