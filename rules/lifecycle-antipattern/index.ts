import { defineRule } from '../../src/engine/rule.js';
import { LIFECYCLE_ANTIPATTERNS } from '../../src/runtime/contract.js';
import { basename, type ShellCommand, type ShellWord } from '../../src/shell/commands.js';

/** Ways to run a script by path: `bash x.sh`, `source x.sh`, `npx cfn-fork`, `node cfn-fork.js`. */
const LAUNCHERS = new Set(['bash', 'sh', 'zsh', 'source', '.', 'npx', 'node', 'exec']);

/**
 * Lifecycle v2 removed waiting mode: agents no longer park themselves
 * (`invoke-waiting-mode.sh enter|wait|wake`) or get resumed by forking
 * (`cfn-fork resume`); each CFN Loop iteration spawns fresh agents and the
 * blocking hooks run on the runtime's signals. The old commands block past the
 * hook timeout or resume an agent whose context is gone. Checked in hooks and
 * in the ```bash / ```sh blocks of the profile's body, which agents copy.
 */
export default defineRule({
  id: 'lifecycle-antipattern',
  meta: {
    description: 'Lifecycle v2 anti-patterns: `invoke-waiting-mode.sh enter|wait|wake` and `cfn-fork resume`.',
    severity: 'warning',
    category: 'runtime',
    scope: ['hooks', 'body'],
    bodyTrigger: ['invoke-waiting-mode', 'cfn-fork'],
  },
  messages: {
    waitingMode:
      'Unexpected `invoke-waiting-mode.sh {{subcommand}}`: waiting mode is a lifecycle v1 pattern; in v2 the runtime runs `on_blocking_start` / `on_signal_received` and each iteration spawns fresh agents.',
    forkResume:
      'Unexpected `cfn-fork resume`: resuming a forked agent is a lifecycle v1 pattern; in v2 each CFN Loop iteration spawns fresh agents.',
  },
  checkScript(context) {
    for (const command of context.commands) {
      const call = antipatternCall(command);
      if (!call) continue;
      context.report({
        messageId: call.command === 'cfn-fork' ? 'forkResume' : 'waitingMode',
        data: { subcommand: call.subcommand.value! },
        range: context.range(call.script.start, call.subcommand.end),
      });
    }
  },
});

/** Each anti-pattern by the names its script goes by (`invoke-waiting-mode.sh`, `invoke-waiting-mode`): one lookup a command. */
const BY_NAME = new Map<string, (typeof LIFECYCLE_ANTIPATTERNS)[number]>(
  LIFECYCLE_ANTIPATTERNS.flatMap((pattern) => [
    [pattern.command, pattern],
    [pattern.command.replace(/\.sh$/, ''), pattern],
  ]),
);

function antipatternCall(command: ShellCommand): { command: string; script: ShellWord; subcommand: ShellWord } | undefined {
  const word = (i: number): ShellWord | undefined => (i === 0 ? command.name : command.args[i - 1]);
  let index = 0;
  const launcher = command.name.value === undefined ? undefined : basename(command.name.value);
  if (launcher && LAUNCHERS.has(launcher)) {
    index = 1;
    while (word(index)?.value?.startsWith('-')) index++;
  }
  const script = word(index);
  const subcommand = word(index + 1);
  if (!script?.value || !subcommand?.value) return undefined;
  const pattern = BY_NAME.get(basename(script.value).replace(/\.(js|mjs|cjs)$/, ''));
  if (!pattern || !(pattern.subcommands as readonly string[]).includes(subcommand.value)) return undefined;
  return { command: pattern.command, script, subcommand };
}
