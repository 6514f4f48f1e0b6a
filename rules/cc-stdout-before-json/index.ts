import { defineRule } from '../../src/engine/rule.js';
import { commandBase } from '../../src/shell/analysis.js';
import type { ShellCommand } from '../../src/shell/commands.js';
import { parseProgramFile } from '../../src/shell/node-program.js';
import { commandNode, runsUnconditionally, writesStdout } from '../../src/shell/printed-text.js';
import { nodeTextBeforeJson, pythonTextBeforeJson } from '../../src/shell/program-stdout.js';

/**
 * Claude Code parses a hook's stdout as JSON only when it starts with `{`:
 * a line of text printed before the JSON object turns the whole output into
 * plain text, and the decision in it is silently ignored (since v2.1.248
 * output starting with `{` that is not valid JSON is an error instead).
 * Progress messages belong on stderr (`>&2`).
 */
export default defineRule({
  id: 'cc-stdout-before-json',
  meta: {
    description: 'A Claude Code hook prints text to stdout before its JSON output, so the JSON is not read.',
    severity: 'warning',
    category: 'runtime',
    fixable: true,
    runtimes: ['claude-code'],
  },
  messages: {
    beforeProgram:
      "Unexpected text on stdout before the hook's JSON (line {{jsonLine}}): Claude Code reads stdout as JSON only when it starts with `{`, so the decision is ignored. Print messages to stderr: {{hint}}.",
    before:
      "Unexpected text on stdout before the hook's JSON (line {{jsonLine}}): Claude Code reads stdout as JSON only when it starts with `{`, so the decision is ignored. Print messages to stderr: `{{text}} >&2`.",
  },
  checkScript(context) {
    const prints = context.commands.map((command) => ({ command, kind: printKind(command) })).filter((p) => p.kind !== undefined);
    const firstJson = prints.find((p) => p.kind === 'json');
    if (!firstJson) return;
    for (const print of prints) {
      if (print.command.start >= firstJson.command.start) break;
      if (print.kind !== 'text' || !runsUnconditionally(print.command)) continue;
      const range = context.range(print.command.start, print.command.end);
      const end = context.range(print.command.end, print.command.end);
      context.report({
        messageId: 'before',
        data: {
          jsonLine: context.range(firstJson.command.start, firstJson.command.start).line,
          text: context.hook.text.slice(print.command.start, print.command.end),
        },
        range,
        fixes: [{ title: 'Print it to stderr', safe: true, edits: [{ range: end, text: ' >&2' }] }],
      });
    }
  },
  // A Python or Node program a hook runs: `print("Checking…")` before `print(json.dumps({…}))`.
  checkProgram({ program, range, report }) {
    if (program.callerEvents.length === 0 || program.inBackground) return;
    const node = program.language === 'node' ? parseProgramFile(program) : undefined;
    const found = program.language === 'python' ? pythonTextBeforeJson(program.text) : node ? nodeTextBeforeJson(node) : [];
    const hint = program.language === 'python' ? '`print(…, file=sys.stderr)`' : '`console.error(…)`';
    for (const text of found)
      report({
        messageId: 'beforeProgram',
        data: { jsonLine: range(text.json, text.json).line, hint },
        range: range(text.start, text.end),
      });
  },
});

/** 'json' for a print of a JSON object to stdout, 'text' for other text to stdout, undefined when it does not write stdout. */
function printKind(command: ShellCommand): 'json' | 'text' | undefined {
  const node = commandNode(command);
  if (!node || !writesStdout(node)) return undefined;
  const base = commandBase(command);
  if (base === 'jq' || base === 'gojq') return 'json';
  if (base === 'cat' && command.heredocs.length) return command.heredocs[0]!.trimStart().startsWith('{') ? 'json' : 'text';
  if (base !== 'echo' && base !== 'printf') return undefined;
  const first = command.args.find((a) => !(base === 'echo' && /^-[neE]+$/.test(a.value ?? '')));
  if (!first) return undefined;
  const text = first.value ?? first.text.replace(/^["']/, '');
  if (first.value === undefined && /^["']?\$/.test(first.text)) return undefined;
  return /^\s*[{[]/.test(text) ? 'json' : 'text';
}
