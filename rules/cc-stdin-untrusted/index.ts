import { defineRule } from '../../src/engine/rule.js';
import { StdinTaint, pipedFrom, readsStdin } from '../../src/runtimes/claude-code/stdin-taint.js';
import { own } from '../../src/records.js';
import type { ShellCommand, ShellWord } from '../../src/shell/commands.js';
import { awkProgramWord, sedScriptWords } from '../../src/shell/programs.js';
import { reparsedWords } from '../../src/shell/remote.js';
import { runsStdinAsScript } from '../../src/shell/stdin-script.js';
import { parseProgramFile } from '../../src/shell/node-program.js';
import { nodeShellSinks } from '../../src/shell/node-shell-sinks.js';
import { pythonShellSinks } from '../../src/shell/python-shell-sinks.js';
import type { SyntaxNode } from '../../src/shell/parser.js';
import {
  commandBase,
  inlineProgramWords,
  isSplitInCommand,
  nodesOfType,
  SHELLS,
  shellName,
  shellScriptArgument,
  variableUse,
} from '../../src/shell/analysis.js';

/**
 * A Claude Code hook's stdin is JSON written from what the model chose: the
 * tool's command, a file path, the prompt. A value read from it is as
 * untrusted as any input: run as code (`eval`, `bash -c`, `| sh`,
 * `source`) it lets the model run anything past the very guard meant to
 * stop it; expanded unquoted it is split and globbed (`* -rf`).
 */
export default defineRule({
  id: 'cc-stdin-untrusted',
  meta: {
    description:
      'A Claude Code hook runs text from its stdin JSON as code (`eval`, `bash -c`, `| sh`, spliced into an inline program, a shell command of a Node or Python program it runs) or expands it unquoted.',
    severity: 'error',
    category: 'injection',
    securitySeverity: 9.0,
    runtimes: ['claude-code'],
    supersedes: ['injection-eval', 'shellcheck/SC2086', 'shellcheck/SC2046'],
  },
  messages: {
    eval: "Disallowed `eval` of text from the hook's stdin JSON: the model chose it, and `eval` runs it as shell code. Compare or pass it as data instead.",
    shellC:
      'Disallowed `{{shell}} -c` with text from the hook\'s stdin JSON: the model chose it, and it is parsed as shell code. Pass it as a positional parameter: `{{shell}} -c \'cmd "$1"\' _ "$VALUE"`.',
    ssh: "Disallowed text from the hook's stdin JSON in the command `ssh` sends: the model chose it, and the remote shell parses it as shell code on the other host. Quote it for that shell first (`printf '%q'`) or send it on ssh's stdin.",
    pipeShell: "Disallowed pipe of the hook's stdin JSON into `{{shell}}`: the text the model chose runs as shell code.",
    source: "Disallowed `{{command}}` of a path or text from the hook's stdin JSON: it runs what the model chose as shell code.",
    xargs:
      "Unexpected `xargs` fed the hook's stdin JSON: it splits the text the model chose on blanks and reads its quotes, so one path becomes several arguments (`* -rf`). Use `xargs -0` or `-d '\\n'`, or read it into a quoted variable.",
    program:
      "Disallowed text from the hook's stdin JSON spliced into an inline `{{language}}` program: the model chose it, and a quote in it ends the string and runs as code. Pass it as data instead: {{hint}}.",
    nodeShell:
      "Disallowed text from the hook's stdin JSON in the shell command `{{call}}` runs: the model chose it, and the shell parses it as code (a `;`, `$(…)` or quote in it runs). Run the program without a shell and pass the text as an argument: `execFileSync('git', ['add', '--', file])`.",
    pythonShell:
      "Disallowed text from the hook's stdin JSON in the shell command `{{call}}` runs: the model chose it, and the shell parses it as code (a `;`, `$(…)` or quote in it runs). Run the program without a shell and pass the text as an argument: `subprocess.run(['git', 'add', '--', path])`.",
    unquoted:
      'Unexpected unquoted `{{text}}`: it holds text from the hook\'s stdin JSON (chosen by the model), and unquoted it is split into words and expanded as globs. Quote it: `"{{text}}"`.',
  },
  // A Node or Python program that hooks run: text from its stdin JSON in a command it gives a shell.
  checkProgram({ program, range, report }) {
    if (program.language === 'python') {
      for (const sink of pythonShellSinks(program.text))
        report({ messageId: 'pythonShell', data: { call: sink.call }, range: range(sink.start, sink.end) });
      return;
    }
    const parsed = parseProgramFile(program);
    if (!parsed) return;
    for (const sink of nodeShellSinks(parsed))
      report({ messageId: 'nodeShell', data: { call: sink.call }, range: range(sink.start, sink.end) });
  },
  checkScript(context) {
    const taint = new StdinTaint(context.tree.rootNode, context.commands);
    const reportedAt = new Set<number>();
    const report = (messageId: string, start: number, end: number, data: Record<string, string> = {}, severity?: 'warning'): void => {
      if (reportedAt.has(start)) return;
      reportedAt.add(start);
      context.report({ messageId, data, range: context.range(start, end), ...(severity ? { severity } : {}) });
    };
    for (const command of context.commands) {
      const base = commandBase(command);
      if (base === 'eval') {
        const tainted = command.args.find((arg) => taint.isTainted(arg.node));
        if (tainted) report('eval', tainted.start, tainted.end);
        continue;
      }
      if ((base === 'source' || base === '.') && !runsStdinAsScript(command, base)) {
        const tainted = command.args[0] && taint.isTainted(command.args[0].node) ? command.args[0] : undefined;
        if (tainted) report('source', tainted.start, tainted.end, { command: base });
        continue;
      }
      // `bash -c SCRIPT`, the same in a container (`docker exec app sh -c …`), and the words `ssh host …` sends.
      const reparsed = reparsedWords(command);
      if (reparsed) {
        const tainted = reparsed.words.find((word) => taint.isTainted(word.node));
        if (tainted) report(reparsed.shell === 'ssh' ? 'ssh' : 'shellC', tainted.start, tainted.end, { shell: reparsed.shell });
        if (shellScriptArgument(command)) continue;
      }
      if (base === 'xargs') {
        const finding = xargsFinding(command, taint);
        if (finding) report(finding.messageId, command.start, command.end, finding.data, finding.severity);
        continue;
      }
      const spliced = splicedIntoProgram(command, taint);
      if (spliced) report('program', spliced.node.startIndex, spliced.node.endIndex, { language: spliced.language, hint: spliced.hint });
      const piped = pipedIntoShell(command, base, taint);
      if (piped) report('pipeShell', piped.upstream.startIndex, piped.upstream.endIndex, { shell: piped.shell });
    }
    // Unquoted: tainted variables, and substitutions that read stdin, as words of a command.
    for (const node of nodesOfType(context.tree.rootNode, ['simple_expansion', 'expansion', 'command_substitution'])) {
      if (!isSplitInCommand(node)) continue;
      if (node.type === 'command_substitution' ? !taint.isTainted(node) : !isTaintedUse(node, taint)) continue;
      report('unquoted', node.startIndex, node.endIndex, { text: node.text }, 'warning');
    }
  },
});

/** `jq -r .tool_input.command | bash` (or `| sh -s`, `| source /dev/stdin`): the hook's JSON, or text from it, run as a script. */
function pipedIntoShell(
  command: ShellCommand,
  base: string | undefined,
  taint: StdinTaint,
): { upstream: SyntaxNode; shell: string } | undefined {
  const shell = shellName(command) ?? (base === 'source' || base === '.' ? base : undefined);
  if (!shell || !runsStdinAsScript(command, shell)) return undefined;
  const upstream = pipedFrom(command);
  return upstream && (taint.isTainted(upstream) || readsHookStdin(upstream)) ? { upstream, shell } : undefined;
}

function isTaintedUse(node: Parameters<typeof variableUse>[0], taint: StdinTaint): boolean {
  const use = variableUse(node);
  return use !== undefined && !use.length && taint.variables.has(use.name);
}

/** `jq -r .tool_input.command | bash`: the stage before the shell is the pipeline's first and reads the hook's stdin. */
function readsHookStdin(stage: SyntaxNode): boolean {
  const first = stage.parent?.type === 'pipeline' && stage.parent.namedChildren[0]?.id === stage.id;
  return first && stage.type === 'command' && readsStdin(stage);
}

/** `xargs` fed the stdin JSON: `xargs -I{} sh -c {}` runs each line as a script; otherwise the words are split unless -0, -d or -I keep lines whole. */
function xargsFinding(
  command: ShellCommand,
  taint: StdinTaint,
): { messageId: string; data: Record<string, string>; severity?: 'warning' } | undefined {
  const upstream = pipedFrom(command);
  if (!upstream || !(taint.isTainted(upstream) || readsHookStdin(upstream))) return undefined;
  const shellIndex = command.args.findIndex((a) => a.value !== undefined && SHELLS.has(a.value.replace(/^.*\//, '')));
  if (shellIndex !== -1 && command.args[shellIndex + 1]?.value === '-c')
    return { messageId: 'shellC', data: { shell: command.args[shellIndex]!.value!.replace(/^.*\//, '') } };
  if (command.args.some((a) => a.value !== undefined && /^(-[A-Za-z]*[0dI]|--null|--delimiter|--replace)/.test(a.value))) return undefined;
  return { messageId: 'xargs', data: {}, severity: 'warning' };
}

/** How each language takes a value as data rather than as part of its program. */
const AS_DATA: Record<string, string> = {
  python: 'an argument, `python3 -c \'…sys.argv[1]…\' "$VALUE"`, or the environment (`os.environ`)',
  node: 'an argument, `node -e \'…process.argv[1]…\' "$VALUE"`, or the environment (`process.env`)',
  perl: 'an argument, `perl -e \'…$ARGV[0]…\' "$VALUE"`, or the environment (`$ENV{…}`)',
  ruby: 'an argument, `ruby -e \'…ARGV[0]…\' "$VALUE"`, or the environment (`ENV[…]`)',
  php: 'an argument, `php -r \'…$argv[1]…\' "$VALUE"`, or the environment (`getenv`)',
  awk: 'a variable, `awk -v value="$VALUE" \'…value…\'`, or the environment (`ENVIRON`)',
  sed: 'no sed script can hold it safely (`s/…/…/e`, `w FILE`); do the replacement in the shell or in a program given it as an argument',
};
const LANGUAGE: Record<string, string> = {
  python3: 'python',
  nodejs: 'node',
  bun: 'node',
  deno: 'node',
  gawk: 'awk',
  mawk: 'awk',
  nawk: 'awk',
  gsed: 'sed',
};

/**
 * `python3 -c "open('$FILE')"`, `node -e "…'$F'…"`, `awk "/$P/"`, `sed "s/x/$F/"`: model-chosen text
 * spliced into an inline program's text, where a quote or delimiter in it ends the string and the rest
 * runs as that language's code (sed's `e` flag and command run shell commands).
 */
function splicedIntoProgram(command: ShellCommand, taint: StdinTaint): { node: SyntaxNode; language: string; hint: string } | undefined {
  const base = commandBase(command);
  if (base === undefined) return undefined;
  const language = own(LANGUAGE, base) ?? base;
  let programs: ShellWord[];
  if (language === 'awk') programs = [awkProgramWord(command.args)].filter((w) => w !== undefined);
  else if (language === 'sed') programs = sedScriptWords(command.args).map((s) => s.word);
  else programs = inlineProgramWords(command);
  for (const program of programs) {
    if (!taint.isTainted(program.node)) continue;
    const node =
      nodesOfType(program.node, ['simple_expansion', 'expansion', 'command_substitution']).find((n) => taint.isTainted(n)) ?? program.node;
    return { node, language: base, hint: own(AS_DATA, language) ?? 'an argument or the environment' };
  }
  return undefined;
}
