import { everyCommand } from '../../src/engine/command-rule.js';
import { forkBombs } from '../../src/shell/fork-bomb.js';
import { defineRule } from '../../src/engine/rule.js';
import { commandBase, nodesOfType, variableUse } from '../../src/shell/analysis.js';
import { basename, type PlainCommand, type PlainWord, type ShellCommand, type ShellWord } from '../../src/shell/commands.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

/** Finders of other processes' ids: killing what they print reaches beyond the hook. */
const PID_FINDERS = new Set(['pgrep', 'pidof', 'lsof', 'fuser', 'ps']);
/** `kill` options that take a value (the signal), so it is not read as a PID. */
const KILL_VALUE_OPTIONS = new Set(['-s', '-n']);

/** `pgrep x | xargs kill`: the PID finder upstream of an `xargs kill` in its pipeline. */
function pidFinderFeedingXargsKill(command: ShellCommand): string | undefined {
  const inner = command.args.find((a) => a.value !== undefined && basename(a.value) === 'kill');
  const upstream = command.name.node.parent?.parent?.parent;
  if (!inner || upstream?.type !== 'pipeline') return undefined;
  return finderIn(upstream);
}

/** The first PID finder a node runs. */
function finderIn(node: SyntaxNode): string | undefined {
  return nodesOfType(node, ['command'])
    .map((c) => basename(c.childForFieldName('name')?.text ?? ''))
    .find((n) => PID_FINDERS.has(n));
}

/**
 * Variables that hold PIDs a finder printed, with the finder: `pids=$(pgrep x)`,
 * `for p in $(pgrep x)`, and what `read` takes from a pipeline fed by one
 * (`pgrep x | while read -r p; do …`).
 */
function finderVariables(root: SyntaxNode, commands: readonly ShellCommand[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const node of nodesOfType(root, ['variable_assignment', 'for_statement'])) {
    const name = node.childForFieldName(node.type === 'for_statement' ? 'variable' : 'name')?.text;
    const values = node.type === 'for_statement' ? node.childrenForFieldName('value') : [node.childForFieldName('value')];
    for (const value of values) {
      const finder = value ? nodesOfType(value, ['command_substitution']).map(finderIn).find(Boolean) : undefined;
      if (name && finder) found.set(name, finder);
    }
  }
  for (const command of commands) {
    if (command.name.value !== 'read') continue;
    let stage: SyntaxNode = command.name.node;
    let pipeline = stage.parent;
    while (pipeline && pipeline.type !== 'pipeline') {
      stage = pipeline;
      pipeline = pipeline.parent;
    }
    if (!pipeline) continue;
    const upstream = pipeline.namedChildren.filter((c): c is SyntaxNode => c !== null && c.startIndex < stage.startIndex);
    const finder = upstream.map(finderIn).find(Boolean);
    if (finder) for (const arg of command.args) if (arg.value && /^[A-Za-z_]\w*$/.test(arg.value)) found.set(arg.value, finder);
  }
  return found;
}

/** Commands that stop or restart the whole machine (`init 0`/`telinit 6` are read with their runlevel). */
const MACHINE_STOPPERS = ['reboot', 'shutdown', 'poweroff', 'halt', 'init', 'telinit'];
/** `systemctl` verbs that stop or restart services, or the machine. */
const SYSTEMCTL_SERVICE = new Set(['stop', 'kill', 'restart', 'try-restart', 'reload-or-restart', 'try-reload-or-restart', 'isolate']);
const SYSTEMCTL_MACHINE = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot', 'rescue', 'emergency']);
/** `service NAME` actions that stop or restart it. */
const SERVICE_ACTIONS = new Set(['stop', 'restart', 'force-reload', 'force-stop', 'try-restart']);

/** The commands this rule reads; every other command is passed over before its place is worked out. */
const SIGNALLERS = new Set(['killall', 'killall5', 'pkill', 'kill', 'xargs', 'fuser', 'systemctl', 'service', ...MACHINE_STOPPERS]);

/** A word of the hook's own tree (a command read from text handed to a shell has none). */
function hasNode(word: PlainWord): word is ShellWord {
  return 'node' in word;
}

/**
 * A hook may stop the processes it started (`kill $!`, `kill "$pid"`,
 * `pkill -P $$`). Matching processes by name or signalling process groups
 * reaches the runtime, other agents and the user's own programs.
 */
export default defineRule({
  id: 'process-control',
  meta: {
    description:
      'A hook signals processes it did not start (`pkill`, `killall`, `kill -1`, `kill 0`, `kill $(pgrep …)`), stops a system service (`systemctl stop`) or the machine (`reboot`), or forks without bound (`:(){ :|:& };:`).',
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
    service:
      'Unexpected `{{tool}}`: it stops or restarts a system service the hook did not start (a database, the Redis agents coordinate through) for every user of the machine. Leave services to their owner.',
    machine: 'Unexpected `{{tool}}`: it stops every process on the machine, the runtime and other agents included.',
    forkBomb:
      'Unexpected fork bomb: `{{name}}` calls itself twice at once with no condition, so every call starts two more until no process can be started, for the runtime and every other agent of the user too.',
    fuserKill:
      'Unexpected `fuser -k`: it kills every process that uses the file, directory or port, including the runtime and other agents. Kill the PIDs the hook started (`$!`).',
  },
  checkScript(context) {
    let held: Map<string, string> | undefined;
    const finderVariable = (node: SyntaxNode): string | undefined => {
      held ??= finderVariables(context.tree.rootNode, context.commands);
      for (const expansion of nodesOfType(node, ['simple_expansion', 'expansion'])) {
        const use = variableUse(expansion);
        const finder = use && !use.length ? held.get(use.name) : undefined;
        if (finder) return finder;
      }
      return undefined;
    };
    for (const definition of forkBombs(context.tree.rootNode)) {
      const name = definition.childForFieldName('name')!.text;
      context.report({
        messageId: 'forkBomb',
        data: { name },
        severity: 'error',
        range: context.range(definition.startIndex, definition.endIndex),
      });
    }
    // Also what the hook hands to a shell as text (`bash -c 'pkill node'`) and runs through a variable or function.
    const all = everyCommand(context);
    let functions: Set<string | undefined> | undefined;
    for (const command of all) {
      const base = commandBase(command);
      if (!SIGNALLERS.has(base ?? '')) continue;
      const range = context.range(command.start, command.end);
      if (base === 'killall' || base === 'killall5') {
        context.report({ messageId: 'byName', data: { tool: base, full: '' }, range });
      } else if (base === 'pkill') {
        if (ownChildrenOnly(command)) continue;
        const full = command.args.some((a) => (a.value !== undefined && /^-[A-Za-z]*f/.test(a.value)) || a.value === '--full');
        context.report({ messageId: 'byName', data: { tool: full ? 'pkill -f' : 'pkill', full: full ? ' or command line' : '' }, range });
      } else if (base === 'systemctl' || base === 'service' || MACHINE_STOPPERS.includes(base!)) {
        // A function of the script's own may be called `shutdown` or `halt`.
        functions ??= new Set(nodesOfType(context.tree.rootNode, ['function_definition']).map((f) => f.childForFieldName('name')?.text));
        const finding = functions.has(command.name.value) ? undefined : serviceFinding(command, base!);
        if (finding) context.report({ ...finding, range });
      } else if (base === 'fuser') {
        if (command.args.some((a) => a.value === '--kill' || (a.value !== undefined && /^-[A-Za-z]*k/.test(a.value))))
          context.report({ messageId: 'fuserKill', range });
      } else if (base === 'kill') {
        const finding = killFinding(command, finderVariable, all);
        if (finding) context.report({ ...finding, range });
      } else if (base === 'xargs' && hasNode(command.name)) {
        const finder = pidFinderFeedingXargsKill(command as ShellCommand);
        if (finder) context.report({ messageId: 'foundPids', data: { finder }, range });
      }
    }
  },
});

/** What `kill` of these PIDs reaches beyond the hook: every process, a process group, or PIDs a finder printed. */
function killFinding(
  command: PlainCommand,
  finderVariable: (node: SyntaxNode) => string | undefined,
  all: readonly PlainCommand[],
): { messageId: string; data: Record<string, string> } | undefined {
  for (const pid of killTargets(command)) {
    if (pid.value === '-1' || pid.value === '0' || (pid.value !== undefined && /^-\d+$/.test(pid.value))) {
      const target =
        pid.value === '-1'
          ? 'every process the user may signal'
          : pid.value === '0'
            ? 'the whole process group, which includes the runtime that started the hook'
            : `every process of group ${pid.value.slice(1)}`;
      return { messageId: 'everyProcess', data: { pid: pid.value, target } };
    }
    // `kill $(pgrep x)`: a PID finder runs inside the operand (in text handed to a shell, found by its place).
    const finder = hasNode(pid)
      ? (finderIn(pid.node) ?? finderVariable(pid.node))
      : all.map(commandBase).find((name, i) => name && PID_FINDERS.has(name) && all[i]!.start >= pid.start && all[i]!.end <= pid.end);
    if (finder) return { messageId: 'foundPids', data: { finder } };
  }
  return undefined;
}

/** `systemctl stop x`, `service x restart`, `reboot`, `init 0`: what it stops, as the finding's message. */
function serviceFinding(command: PlainCommand, base: string): { messageId: string; data: Record<string, string> } | undefined {
  const words = command.args.map((a) => a.value).filter((v): v is string => v !== undefined && !v.startsWith('-'));
  const options = command.args.map((a) => a.value ?? '').filter((v) => v.startsWith('-'));
  if (base === 'systemctl') {
    const verb = words[0];
    if (verb !== undefined && SYSTEMCTL_SERVICE.has(verb)) return { messageId: 'service', data: { tool: `systemctl ${verb}` } };
    if (verb !== undefined && SYSTEMCTL_MACHINE.has(verb)) return { messageId: 'machine', data: { tool: `systemctl ${verb}` } };
    return undefined;
  }
  if (base === 'service') {
    const action = words[1];
    return action !== undefined && SERVICE_ACTIONS.has(action) ? { messageId: 'service', data: { tool: `service ${action}` } } : undefined;
  }
  if (base === 'init' || base === 'telinit') {
    const level = words[0];
    return level === '0' || level === '6' ? { messageId: 'machine', data: { tool: `${base} ${level}` } } : undefined;
  }
  // `shutdown -c` cancels a pending shutdown; `--help` and `--version` only print.
  if (options.some((o) => o === '-c' || o === '--help' || o === '--version')) return undefined;
  return { messageId: 'machine', data: { tool: base } };
}

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
