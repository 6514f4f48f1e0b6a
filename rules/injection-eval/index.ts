import { defineRule, type AnalysedHook } from '../../src/engine/rule.js';
import type { PlainWord, ShellCommand, ShellWord } from '../../src/shell/commands.js';
import { awkProgramWord } from '../../src/shell/programs.js';
import { reparsedWords } from '../../src/shell/remote.js';
import { runsStdinAsScript, stdinReaches } from '../../src/shell/stdin-script.js';
import { nestedCommands } from '../../src/shell/nested.js';
import { hasExpansion } from '../../src/shell/commands.js';
import {
  commandBase,
  INLINE_PROGRAM_OPTIONS,
  inlineProgramWords,
  nodesOfType,
  SHELLS,
  shellName,
  shellScriptArgument,
} from '../../src/shell/analysis.js';
import type { SyntaxNode } from '../../src/shell/parser.js';
import { commandNode } from '../../src/shell/printed-text.js';

/** Commands whose output is data from outside the script: sourcing it runs that data. */
const DATA_SOURCES = new Set(['redis-cli', 'sqlite-memory', 'curl', 'wget', 'cat', 'jq', 'nc', 'ssh']);

/**
 * Re-parsing a string as shell code after an expansion put data into it: a
 * value containing `;`, `$(...)` or a quote becomes a command. This is the
 * shell's SQL injection, and agent-controlled values (`$TASK`, `$SIGNAL_DATA`)
 * make it reachable by whoever writes a task.
 */
export default defineRule({
  id: 'injection-eval',
  meta: {
    description:
      '`eval`, `bash -c`, `source <(...)`, a pipe into a shell (or an interpreter reading its program from stdin) or an inline program (`python3 -c`, `awk`) re-parses a string built from an expansion.',
    severity: 'error',
    category: 'injection',
    runtimes: ['claude-flow', 'claude-code'],
    securitySeverity: 8.8,
  },
  messages: {
    eval: 'Disallowed `eval` of an expanded string: its value is parsed again as shell code, so a `;` or `$(...)` in it runs. Call the command directly with quoted arguments.',
    shellC:
      'Disallowed `{{shell}} -c` with an expanded script: the value is parsed as shell code. Pass data as positional parameters instead: `{{shell}} -c \'cmd "$1"\' _ "$VALUE"`.',
    ssh: "Disallowed expansion in the command `ssh` sends: the remote shell parses its words again, so a `;`, quote or `$(...)` in the value runs on the other host. Quote the value for that shell first (`printf '%q'`) or send it on ssh's stdin.",
    source: 'Disallowed `{{command}} <(...)` of generated text: the output of `{{inner}}` runs as code in the hook.',
    pipeShell: 'Disallowed pipe of expanded text into `{{shell}}`: the text is parsed as shell code.',
    pipeRemote:
      'Disallowed pipe of `{{source}}` output into `{{shell}}`: whatever the server sends runs as shell code in the hook, with no chance to review it. Download to a file, check it (checksum, signature), then run it.',
    pipeText: 'Disallowed pipe into `{{shell}}`: the text that reaches it is parsed as shell code. Run the commands directly.',
    pipeProgram:
      'Disallowed pipe of expanded text into `{{interpreter}}`, which runs what it reads as its program: a value that holds code runs. Pass data as an argument or on a file the program opens.',
    pipeRemoteProgram:
      'Disallowed pipe of `{{source}}` output into `{{interpreter}}`, which runs what it reads as its program: whatever the server sends runs in the hook, with no chance to review it. Download to a file, check it (checksum, signature), then run it.',
    program:
      'Disallowed expansion in an inline `{{interpreter}}` program: the value is spliced into its code, so a quote in it ends the string and the rest runs. Pass data as an argument (`sys.argv`, `process.argv`, `awk -v`) or in the environment.',
    xargsReplace:
      'Disallowed `xargs -I {{replace}}` into `{{shell}} -c`: each input line is pasted into the script and parsed as shell code. Pass it as `"$1"`: `xargs -I{} {{shell}} -c \'cmd "$1"\' _ {}`.',
  },
  checkScript(context) {
    const reported: { start: number; end: number }[] = [];
    const report = (messageId: string, word: PlainWord, data: Record<string, string> = {}): void => {
      reported.push(word);
      context.report({ messageId, data, range: context.range(word.start, word.end) });
    };
    for (const command of context.commands) {
      const base = commandBase(command);
      if (base === 'eval') {
        const expanded = command.args.find((arg) => hasExpansion(arg.node));
        if (expanded) report('eval', expanded);
        continue;
      }
      const script = shellScriptArgument(command);
      const shell = shellName(command);
      if (script && hasExpansion(script.node)) {
        report('shellC', script, { shell: shell! });
        continue;
      }
      if (script && command.wrappedBy === 'xargs') {
        const replace = xargsReplaceString(context.commands, command);
        if (replace !== undefined && script.value?.includes(replace)) {
          context.report({ messageId: 'xargsReplace', data: { replace, shell: shell! }, range: context.range(script.start, script.end) });
        }
        continue;
      }
      const remote = script ? undefined : reparsedElsewhere(command);
      if (remote) {
        report(remote.messageId, remote.word, { shell: remote.shell });
        continue;
      }
      const sourced = runsGenerated(command, base, shell);
      if (sourced) {
        context.report({ messageId: 'source', data: sourced.data, range: context.range(sourced.node.startIndex, sourced.node.endIndex) });
        continue;
      }
      const program = expandedProgram(command);
      if (program) report('program', program, { interpreter: base! });
      const finding = base || shell ? pipeFinding(command, (shell ?? base)!) : undefined;
      if (finding) context.report({ ...finding, range: context.range(finding.start, finding.end) });
    }
    // `bash -c 'eval "$1"'`, `sh -c "bash -c \"\$X\""`: the same re-parsing inside text handed to a shell,
    // unless the text itself was reported above (`bash -c "eval $X"`: one finding, not two).
    for (const { messageId, word, data } of nestedReparsing(context))
      if (!reported.some((r) => r.start <= word.start && word.end <= r.end)) report(messageId, word, data);
  },
});

const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** `python3 -c "print('$TASK')"`, `node -e "…${X}…"`, `awk "/$X/"`: an inline program whose text holds an expansion. */
function expandedProgram(command: ShellCommand): ShellWord | undefined {
  const base = commandBase(command);
  const programs = base !== undefined && AWKS.has(base) ? [awkProgramWord(command.args)] : inlineProgramWords(command);
  return programs.find((word) => word !== undefined && hasExpansion(word.node));
}

/** `eval` and `bash -c` of an expanded word in the scripts a hook hands to a shell. */
function* nestedReparsing(
  hook: Pick<AnalysedHook, 'tree' | 'commands' | 'hook'>,
): Generator<{ messageId: string; word: PlainWord; data: Record<string, string> }> {
  for (const command of nestedCommands(hook.tree, hook.commands, hook.hook.text)) {
    const base = commandBase(command);
    if (base === 'eval') {
      const word = command.args.find(expanded);
      if (word) yield { messageId: 'eval', word, data: {} };
      continue;
    }
    const script = shellScriptArgument(command);
    if (script && expanded(script)) yield { messageId: 'shellC', word: script, data: { shell: shellName(command)! } };
  }
}

/** A word of a nested script whose value depends on an expansion (its text is the inner script's own). */
function expanded(word: PlainWord): boolean {
  return word.value === undefined && /[$`]/.test(word.text);
}

/** `ssh host "… $X …"`, `docker exec app sh -c "$X"`: an expanded word parsed again on the other side. */
function reparsedElsewhere(command: ShellCommand): { messageId: string; word: ShellWord; shell: string } | undefined {
  const remote = reparsedWords(command);
  const word = remote?.words.find((w) => hasExpansion(w.node));
  return remote && word ? { messageId: remote.shell === 'ssh' ? 'ssh' : 'shellC', word, shell: remote.shell } : undefined;
}

/** `source <(…)`, and a shell or interpreter given `<(…)` of generated text as its script file: `bash <(curl -s URL)`. */
function runsGenerated(
  command: ShellCommand,
  base: string | undefined,
  shell: string | undefined,
): { node: SyntaxNode; data: Record<string, string> } | undefined {
  const runsFile =
    base === 'source' || base === '.' || shell !== undefined || (base !== undefined && Object.hasOwn(INLINE_PROGRAM_OPTIONS, base));
  const substitution = runsFile ? generatedSource(command) : undefined;
  if (!substitution) return undefined;
  const inner = nodesOfType(substitution, ['command'])[0]?.childForFieldName('name')?.text ?? 'the command';
  return { node: substitution, data: { command: base ?? shell ?? 'the command', inner } };
}

/** The script file a command runs (its first word that is not an option), when it is `<(…)` generating data. */
function generatedSource(command: ShellCommand): SyntaxNode | undefined {
  const substitution = command.args.find((arg) => arg.node.type === 'process_substitution' || !arg.text.startsWith('-'))?.node;
  return substitution?.type === 'process_substitution' && generatesData(substitution) ? substitution : undefined;
}

function generatesData(substitution: SyntaxNode): boolean {
  if (hasExpansion(substitution.namedChildren.find((c) => c !== null) ?? substitution)) return true;
  return nodesOfType(substitution, ['command']).some((c) => {
    const name = c.childForFieldName('name')?.text ?? '';
    return DATA_SOURCES.has(name.slice(name.lastIndexOf('/') + 1));
  });
}

/** A pipe into a shell that reads its script from it: with an expansion upstream, a download, or any text. */
function pipeIntoShell(
  command: ShellCommand,
  shell: string,
): { messageId: string; data: Record<string, string>; start: number; end: number } | undefined {
  const expansion = expandedUpstream(command);
  if (expansion) return { messageId: 'pipeShell', data: { shell }, start: expansion.startIndex, end: expansion.endIndex };
  // Even without an expansion: a download (or any text) piped into a shell is run unseen.
  const upstream = upstreamStages(command);
  if (upstream.length === 0) return undefined;
  const fetcher = upstream.flatMap((stage) => nodesOfType(stage, ['command'])).find((c) => FETCHERS.has(commandName(c)));
  // The whole pipeline: what is piped is the problem as much as the shell.
  const range = { start: upstream[0]!.startIndex, end: command.name.end };
  return fetcher
    ? { messageId: 'pipeRemote', data: { source: commandName(fetcher), shell }, ...range }
    : { messageId: 'pipeText', data: { shell }, ...range };
}

/** A pipe into a shell that reads its script from it, or into an interpreter that reads its program from it. */
function pipeFinding(
  command: ShellCommand,
  base: string,
): { messageId: string; data: Record<string, string>; start: number; end: number } | undefined {
  if ((SHELLS.has(base) || base === '$SHELL' || base === 'source' || base === '.') && runsStdinAsScript(command, base))
    return pipeIntoShell(command, base);
  if (INTERPRETERS.has(base) && readsProgramFromStdin(command)) return pipeIntoInterpreter(command, base);
  return undefined;
}

/** Interpreters that, given no program file or inline program, run what they read on stdin. */
const INTERPRETERS = new Set(['python', 'python3', 'node', 'nodejs', 'perl', 'ruby', 'php', 'bun']);

/** `python3`, `python3 -`, `node`, `perl -w`: no program file, no inline program (`-c`, `-e`, `-m`, `-r`), so stdin is the program. */
function readsProgramFromStdin(command: ShellCommand): boolean {
  if (!stdinReaches(command)) return false;
  return command.args.every(
    (arg) => arg.value === '-' || (arg.value !== undefined && /^-[A-Za-z]+$/.test(arg.value) && !/[cemrpEMX]/.test(arg.value)),
  );
}

/** A download or expanded text piped into an interpreter that runs it as its program (plain text is the author's own program). */
function pipeIntoInterpreter(
  command: ShellCommand,
  interpreter: string,
): { messageId: string; data: Record<string, string>; start: number; end: number } | undefined {
  const upstream = upstreamStages(command);
  if (upstream.length === 0) return undefined;
  const range = { start: upstream[0]!.startIndex, end: command.name.end };
  const fetcher = upstream.flatMap((stage) => nodesOfType(stage, ['command'])).find((c) => FETCHERS.has(commandName(c)));
  if (fetcher) return { messageId: 'pipeRemoteProgram', data: { source: commandName(fetcher), interpreter }, ...range };
  const expansion = expandedUpstream(command);
  return expansion ? { messageId: 'pipeProgram', data: { interpreter }, start: expansion.startIndex, end: expansion.endIndex } : undefined;
}

/** Programs that download: their output piped into a shell runs remote code. */
const FETCHERS = new Set(['curl', 'wget', 'fetch', 'http', 'aria2c']);

function commandName(command: SyntaxNode): string {
  const name = command.childForFieldName('name')?.text ?? '';
  return name.slice(name.lastIndexOf('/') + 1);
}

/** The earlier stages of the pipeline that feeds the command (empty when it is not fed by a pipe). */
function upstreamStages(command: ShellCommand): SyntaxNode[] {
  const node = commandNode(command);
  const pipeline = node?.parent;
  if (!node || pipeline?.type !== 'pipeline') return [];
  return pipeline.namedChildren.filter((stage): stage is SyntaxNode => stage !== null && stage.startIndex < node.startIndex);
}

/** The first expansion in an earlier stage of the pipeline that feeds the command. */
function expandedUpstream(command: ShellCommand): SyntaxNode | undefined {
  for (const stage of upstreamStages(command)) {
    const found = nodesOfType(stage, ['simple_expansion', 'expansion', 'command_substitution'])[0];
    if (found) return found;
  }
  return undefined;
}

/** The replace string of the `xargs -I R` / `-i` / `--replace` that runs this command. */
function xargsReplaceString(commands: readonly ShellCommand[], inner: ShellCommand): string | undefined {
  const xargs = commands.find((c) => commandBase(c) === 'xargs' && c.end === inner.end && c.start < inner.start);
  if (!xargs) return undefined;
  for (let i = 0; i < xargs.args.length; i++) {
    const value = xargs.args[i]!.value;
    if (value === '-I') return xargs.args[i + 1]?.value;
    if (value?.startsWith('-I')) return value.slice(2);
    if (value === '-i' || value === '--replace') return '{}';
    if (value?.startsWith('--replace=')) return value.slice('--replace='.length);
  }
  return undefined;
}
