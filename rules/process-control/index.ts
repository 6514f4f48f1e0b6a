import { everyCommand } from '../../src/engine/command-rule.js';
import { defineRule } from '../../src/engine/rule.js';
import { commandBase, nodesOfType } from '../../src/shell/analysis.js';
import type { PlainCommand, PlainWord, ShellCommand } from '../../src/shell/commands.js';
import { nestedCommands } from '../../src/shell/nested.js';

/** Finders of other processes' ids: killing what they print reaches beyond the hook. */
const PID_FINDERS = new Set(['pgrep', 'pidof', 'lsof', 'fuser', 'ps']);
/** `kill` options that take a value (the signal), so it is not read as a PID. */
const KILL_VALUE_OPTIONS = new Set(['-s', '-n']);

/** `pgrep x | xargs kill`: the PID finder upstream of an `xargs kill` in its pipeline. */
function pidFinderFeedingXargsKill(command: ShellCommand): string | undefined {
  const inner = command.args.find((a) => a.value === 'kill');
  const upstream = command.name.node.parent?.parent?.parent;
  if (!inner || upstream?.type !== 'pipeline') return undefined;
  return nodesOfType(upstream, ['command'])
    .map((c) => c.childForFieldName('name')?.text ?? '')
    .find((n) => PID_FINDERS.has(n));
}

/** The commands this rule reads; every other command is passed over before its place is worked out. */
const SIGNALLERS = new Set(['killall', 'killall5', 'pkill', 'kill', 'xargs']);

/**
 * A hook may stop the processes it started (`kill $!`, `kill "$pid"`,
 * `pkill -P $$`). Matching processes by name or signalling process groups
 * reaches the runtime, other agents and the user's own programs.
 */
export default defineRule({
  id: 'process-control',
  meta: {
    description: 'A hook signals processes it did not start (`pkill`, `killall`, `kill -1`, `kill 0`, `kill $(pgrep …)`).',
    severity: 'warning',
    category: 'runtime',
    runtimes: ['claude-flow', 'claude-code'],
    securitySeverity: 6.0,
  },
  messages: {
    byName:
      'Unexpected `{{tool}}`: it signals every process whose name{{full}} matches, including the runtime and other agents. Keep the PID of what the hook starts (`$!`) and kill that.',
    everyProcess: 'Unexpected `kill {{pid}}`: PID {{pid}} signals {{target}}. Kill the PIDs the hook started.',
    foundPids:
      'Unexpected `kill` of PIDs found by `{{finder}}`: they belong to processes the hook did not start. Kill the PIDs the hook started (`$!`).',
  },
  checkScript(context) {
    const all = everyCommand(context);
    const check = (command: PlainCommand, inTree: ShellCommand | undefined): void => {
      const base = commandBase(command);
      if (!SIGNALLERS.has(base ?? '')) return;
      const range = context.range(command.start, command.end);
      if (base === 'killall' || base === 'killall5') {
        context.report({ messageId: 'byName', data: { tool: base, full: '' }, range });
      } else if (base === 'pkill') {
        if (ownChildrenOnly(command)) return;
        const full = command.args.some((a) => (a.value !== undefined && /^-[A-Za-z]*f/.test(a.value)) || a.value === '--full');
        context.report({ messageId: 'byName', data: { tool: full ? 'pkill -f' : 'pkill', full: full ? ' or command line' : '' }, range });
      } else if (base === 'kill') {
        for (const pid of killTargets(command)) {
          if (pid.value === '-1' || pid.value === '0' || (pid.value !== undefined && /^-\d+$/.test(pid.value))) {
            const target =
              pid.value === '-1'
                ? 'every process the user may signal'
                : pid.value === '0'
                  ? 'the whole process group, which includes the runtime that started the hook'
                  : `every process of group ${pid.value.slice(1)}`;
            context.report({ messageId: 'everyProcess', data: { pid: pid.value, target }, range });
            return;
          }
          // `kill $(pgrep x)`: a PID finder runs inside the operand.
          const finder = all
            .map(commandBase)
            .find((name, i) => name && PID_FINDERS.has(name) && all[i]!.start >= pid.start && all[i]!.end <= pid.end);
          if (finder) {
            context.report({ messageId: 'foundPids', data: { finder }, range });
            return;
          }
        }
      } else if (base === 'xargs' && inTree) {
        const finder = pidFinderFeedingXargsKill(inTree);
        if (finder) context.report({ messageId: 'foundPids', data: { finder }, range });
      }
    };
    for (const command of context.commands) check(command, command);
    // A command in text handed to a shell (`bash -c 'pkill node'`) is read by its words alone: it has no node in the hook's tree.
    for (const command of nestedCommands(context.tree, context.commands, context.hook.text)) check(command, undefined);
  },
});

/** `pkill -P $$` (children of this shell) stays within the hook. */
function ownChildrenOnly(command: PlainCommand): boolean {
  const index = command.args.findIndex((a) => a.value === '-P' || a.value === '--parent');
  const parent = index === -1 ? undefined : command.args[index + 1]?.text.replace(/"/g, '');
  return parent === '$$' || parent === '$BASHPID' || parent === '${BASHPID}';
}

/** The PID operands of `kill` (after the signal option); a lone `kill -1` is read as PID -1, as its author meant. */
function killTargets(command: PlainCommand): PlainWord[] {
  const args = command.args;
  let i = 0;
  let signalGiven = false;
  while (i < args.length) {
    const value = args[i]!.value;
    if (value === '--') {
      i++;
      break;
    }
    if (value === '-l' || value === '-L') return [];
    if (value !== undefined && KILL_VALUE_OPTIONS.has(value)) {
      i += 2;
      signalGiven = true;
      continue;
    }
    if (!signalGiven && value !== undefined && /^-[A-Za-z0-9+]+$/.test(value) && (i + 1 < args.length || value !== '-1')) {
      i++;
      signalGiven = true;
      continue;
    }
    break;
  }
  return args.slice(i);
}
