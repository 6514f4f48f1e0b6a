import { defineRule } from '../../src/engine/rule.js';
import { hookBudgetMs } from '../../src/runtimes/index.js';
import { commandBase, positionalArgs } from '../../src/shell/analysis.js';
import { backgroundJobs, inBackgroundJob } from '../../src/shell/background.js';
import { everyCommand } from '../../src/engine/command-rule.js';
import type { PlainCommand } from '../../src/shell/commands.js';
import { isNested } from '../../src/shell/nested.js';
import table from './slow-commands.json' with { type: 'json' };

/** One kind of work that takes longer than a hook may run. */
export interface SlowCommand {
  /** Command name; `*` at the end matches a prefix (`python*`), `*` alone any command. */
  command: string;
  /** Leading positional arguments, in order (`["run", "test*"]`); `*` at the end matches a prefix. */
  args?: string[];
  /** An option that must be present (`--epochs`, also as `--epochs=N`). */
  option?: string;
  /** Typical duration in seconds on a real project (a rough, stated estimate). */
  seconds: number;
  /** What the work is, for the message. */
  what: string;
}

interface Options {
  /** Further slow commands, checked before the built-in table. */
  slowCommands?: SlowCommand[];
  /** Use the built-in table (`slow-commands.json`) too. */
  builtinTable?: boolean;
}

/** Seconds one cold `npx pkg@version` start costs: npm resolves the version against the registry before anything runs. */
const NPX_COLD_START_SECONDS = 2;
const INFO_ONLY = new Set(['--version', '-V', '--help', '-h']);
/** Commands this rule looks at beyond its table. */
const OTHER_CHECKS = new Set(['find', 'npx', 'curl', 'wget']);
const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * The runtime kills a hook when its budget runs out (claude-flow: 5 s for
 * every hook, from the runtime contract) and only logs it. A test suite, a
 * build, model training, a `find` over the workspace, several cold `npx`
 * starts or a `curl` with no time limit cannot finish inside it: whatever the
 * hook meant to do after them never happens.
 */
export default defineRule<Options>({
  id: 'hook-slow-command',
  meta: {
    description:
      'Work that cannot finish inside the hook time budget: test suites, builds, training, workspace-wide find, cold npx starts, unbounded curl.',
    severity: 'warning',
    category: 'runtime',
    runtimes: ['claude-flow', 'claude-code'],
  },
  messages: {
    slow: 'Unexpected {{what}} (`{{text}}`) in a hook: it typically takes {{cost}}, and the runtime stops the hook after {{budget}} s. Run it outside the hook (CI, the agent itself), or in the background with its output to a file.',
    find: 'Unexpected `{{text}}` over the whole {{where}} in a hook: it walks every file (node_modules and .git included), seconds to minutes on a real project, and the runtime stops the hook after {{budget}} s. Bound it (`-maxdepth 2`, `-prune`) or use `git ls-files`.',
    npx: 'Unexpected {{count}} cold `npx pkg@version` starts in one hook: each resolves the version with the registry first (about {{each}} s), about {{total}} s in all, and the runtime stops the hook after {{budget}} s. Install the tool once and call it directly.',
    unbounded:
      'Unexpected `{{name}}` without a time limit in a hook: a slow or silent server holds it for minutes, and the runtime stops the hook after {{budget}} s. Add `{{limit}}` below the budget.',
  },
  optionsSchema: {
    type: 'object',
    properties: {
      slowCommands: {
        type: 'array',
        items: {
          type: 'object',
          required: ['command', 'seconds', 'what'],
          properties: {
            command: { type: 'string' },
            args: { type: 'array', items: { type: 'string' } },
            option: { type: 'string' },
            seconds: { type: 'number' },
            what: { type: 'string' },
          },
          additionalProperties: false,
        },
      },
      builtinTable: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  defaultOptions: { slowCommands: [], builtinTable: true },
  checkScript(context) {
    const budget = hookBudgetMs(context.hook) / 1000;
    // A zero or negative timeout is cc-timeout's finding; nothing here can be measured against it.
    if (!(budget > 0)) return;
    const slow = tableFor(context.options);
    const text = (c: PlainCommand): string => oneLine(context.hook.text.slice(c.start, c.end));
    const npxStarts: PlainCommand[] = [];
    // Walking the tree costs as much as parsing it: only when a command is one this rule reports.
    const inBackground = (c: PlainCommand): boolean =>
      inBackgroundJob(backgroundJobs(context.tree.rootNode, context.hook.text), c.start, c.end);
    const commands = everyCommand(context, 'all');
    for (const command of commands) {
      if (command.wrappedBy === 'command') continue;
      const base = commandBase(command);
      // MCP tool names never run (command-unavailable); `--version` / `--help` only print.
      if (base === undefined || base.startsWith('mcp__')) continue;
      const entry = firstMatch(slow, command, base);
      if (entry === undefined && !OTHER_CHECKS.has(base)) continue;
      if (inBackground(command) || boundedByTimeout(commands, command, budget)) continue;
      if (command.args.some((a) => INFO_ONLY.has(a.value ?? ''))) continue;
      const range = (): ReturnType<typeof context.range> => context.range(command.start, command.end);
      if (entry && entry.seconds >= budget) {
        context.report({
          messageId: 'slow',
          data: { what: entry.what, text: text(command), cost: `${entry.seconds} s or more`, budget },
          range: range(),
        });
        continue;
      }
      if (base === 'find') {
        const where = unboundedFindRoot(command);
        if (where) context.report({ messageId: 'find', data: { text: text(command), where, budget }, range: range() });
        continue;
      }
      // A command run with a variable of several values is read once per value: it is still one start.
      if (base === 'npx' && pinnedPackage(command) && !npxStarts.some((c) => c.start === command.start && c.end === command.end))
        npxStarts.push(command);
      if ((base === 'curl' || base === 'wget') && !hasTimeLimit(command, base)) {
        context.report({
          messageId: 'unbounded',
          data: {
            name: base,
            budget,
            limit: base === 'curl' ? `--max-time ${limitFor(budget)}` : `--timeout=${limitFor(budget)}`,
          },
          range: range(),
        });
      }
    }
    if (npxStarts.length > 0 && npxStarts.length * NPX_COLD_START_SECONDS >= budget) {
      const [first, ...rest] = npxStarts;
      context.report({
        messageId: 'npx',
        data: { count: npxStarts.length, each: NPX_COLD_START_SECONDS, total: npxStarts.length * NPX_COLD_START_SECONDS, budget },
        range: context.range(first!.start, first!.end),
        related: rest.map((c) => ({
          message: 'another cold `npx` start',
          file: context.hook.file,
          range: context.mapRange(context.range(c.start, c.end)),
        })),
      });
    }
  },
});

function oneLine(text: string): string {
  const first = text.split('\n')[0]!.replace(/\s*\\$/, '');
  return first.length > 60 ? `${first.slice(0, 60)}…` : first;
}

/** The table in its order, and the entries of plain command names by name: a command is tried only against its own and the patterns. */
interface IndexedTable {
  byName: Map<string, { order: number; entry: SlowCommand }[]>;
  patterns: { order: number; entry: SlowCommand }[];
}

/** One index per options object: the engine gives every hook of a run the same one. */
const indexes = new WeakMap<Options, IndexedTable>();

function tableFor(options: Options): IndexedTable {
  const known = indexes.get(options);
  if (known) return known;
  const entries = [...(options.slowCommands ?? []), ...(options.builtinTable === false ? [] : (table as SlowCommand[]))];
  const indexed: IndexedTable = { byName: new Map(), patterns: [] };
  entries.forEach((entry, order) => {
    if (entry.command.includes('*') || entry.command.includes('/')) indexed.patterns.push({ order, entry });
    else indexed.byName.set(entry.command, [...(indexed.byName.get(entry.command) ?? []), { order, entry }]);
  });
  indexes.set(options, indexed);
  return indexed;
}

/** The first entry of the table, in its order, that the command matches. */
function firstMatch(slow: IndexedTable, command: PlainCommand, base: string): SlowCommand | undefined {
  const named = slow.byName.get(base)?.find((c) => matches(command, base, c.entry));
  const pattern = slow.patterns.find((c) => (named === undefined || c.order < named.order) && matches(command, base, c.entry));
  return (pattern ?? named)?.entry;
}

function glob(pattern: string, value: string): boolean {
  if (pattern === '*') return true;
  return pattern.endsWith('*') ? value.startsWith(pattern.slice(0, -1)) : value === pattern;
}

function matches(command: PlainCommand, base: string, entry: SlowCommand): boolean {
  const name = command.name.value ?? '';
  if (!glob(entry.command, entry.command.includes('/') ? name : base)) return false;
  if (entry.option !== undefined) {
    const option = entry.option;
    if (!command.args.some((a) => a.value === option || a.value?.startsWith(`${option}=`))) return false;
  }
  if (entry.args?.length) {
    // `python -m pytest`: the leading words as written, options included; otherwise the positional words.
    const words = entry.args[0]!.startsWith('-') ? command.args.map((a) => a.value) : positionalArgs(command).map((a) => a.value);
    return entry.args.every((pattern, i) => {
      const word = words[i];
      return word !== undefined && glob(pattern, word);
    });
  }
  return true;
}

/** `find /`, `find .`, `find ~`, `find $HOME` without `-maxdepth` (≤ 3) or `-prune`: the place it walks, or undefined. */
function unboundedFindRoot(command: PlainCommand): string | undefined {
  const values = command.args.map((a) => a.value ?? a.text);
  const root = values[0];
  const where =
    root === '/'
      ? 'file system'
      : root === '.' || root === './'
        ? 'workspace'
        : root === '~' || root === '$HOME' || root === '"$HOME"'
          ? 'home directory'
          : undefined;
  if (!where) return undefined;
  if (values.includes('-prune') || values.includes('-quit')) return undefined;
  const depth = values.indexOf('-maxdepth');
  if (depth !== -1 && Number(values[depth + 1]) <= 3) return undefined;
  return where;
}

/** `npx pkg@version …` / `npx -y pkg@tag`: a package pinned to a version or tag, resolved with the registry on each start. */
function pinnedPackage(command: PlainCommand): boolean {
  const first = command.args.find((a) => !(a.value ?? '').startsWith('-'));
  return first?.value !== undefined && /^(@[^/]+\/)?[^@/]+@[^@]+$/.test(first.value);
}

function hasTimeLimit(command: PlainCommand, base: 'curl' | 'wget'): boolean {
  return command.args.some((a) => {
    const v = a.value ?? '';
    if (base === 'curl') return v === '-m' || v === '--max-time' || v.startsWith('--max-time=') || /^-[A-Za-z]*m\d*$/.test(v);
    return v === '-T' || v.startsWith('--timeout') || v.startsWith('--read-timeout') || /^-T\d+$/.test(v);
  });
}

/**
 * The time limit to suggest for a request: under the budget, and no more than
 * 10 s, which a webhook or API call needs. Claude Code's budget is 600 s: a
 * limit just under it would still hold the session for ten minutes.
 */
const REQUEST_SECONDS = 10;
function limitFor(budget: number): number {
  return Math.max(1, Math.min(budget - 2, REQUEST_SECONDS));
}

/** `timeout 3 npm test`: the `timeout` wrapper ends it inside the budget. */
function boundedByTimeout(commands: readonly PlainCommand[], command: PlainCommand, budget: number): boolean {
  // `timeout 3 bash -c 'npm test'`: text handed to a shell runs within the time of the command that hands it over.
  if (isNested(command)) return boundedByTimeout(commands, command.runBy, budget);
  if (command.wrappedBy !== 'timeout') return false;
  const outer = commands.find((c) => commandBase(c) === 'timeout' && c.end === command.end && c.start < command.start);
  if (!outer) return false;
  const duration = outer.args.find((a) => a.value !== undefined && !a.value.startsWith('-'))?.value;
  const match = duration === undefined ? null : /^(\d+(?:\.\d*)?)([smhd]?)$/.exec(duration);
  return match !== null && Number(match[1]) * UNIT_SECONDS[match[2]!]! < budget;
}
