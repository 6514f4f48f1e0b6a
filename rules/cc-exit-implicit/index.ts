import { messageText } from '../../src/shell/script-text.js';
import { defineRule } from '../../src/engine/rule.js';
import { BLOCKING_EXIT_CODE, blockingEvent } from '../../src/runtimes/claude-code/contract.js';
import type { SyntaxNode } from '../../src/shell/parser.js';
import { statusNode, tailStatuses } from '../../src/shell/tail-status.js';

/**
 * A hook that runs off its end exits with the status of its last command.
 * When that is a refusal (`false`, a function's `return 1`) or a test, the
 * hook exits 1, which Claude Code treats as a non-blocking error: the action
 * goes ahead, and the user sees a hook error notice. Only exit 2 (or a JSON
 * decision) blocks; cc-exit-not-blocking speaks of written `exit` codes.
 */
export default defineRule({
  id: 'cc-exit-implicit',
  meta: {
    description:
      'A Claude Code hook of an event that can block ends with the status of `false`, a `return 1` or a test instead of an exit (or a test fails under `set -e`): it exits 1, which does not block.',
    severity: 'warning',
    category: 'runtime',
    runtimes: ['claude-code'],
  },
  messages: {
    refusal:
      'Unexpected `{{text}}` as the status a `{{event}}` hook ends with: the hook exits {{code}} here, a non-blocking error, so the action goes ahead. Claude Code blocks only on exit 2 or a JSON decision (`{{decision}}`): write `exit 2`.',
    test: 'Unexpected test `{{text}}` as the status a `{{event}}` hook ends with: when it fails the hook exits 1, a non-blocking error, so the action goes ahead (Claude Code blocks only on exit 2 or `{{decision}}`). Write `{{text}} || exit 2` to refuse, or end with `exit 0`.',
    testFails:
      'Unexpected `{{text}} && …` at the end of a `{{event}}` hook: when the test fails the hook exits 1, a non-blocking error, and Claude Code shows a hook error notice for every action it lets through. Write `if {{text}}; then …; fi`, or end with `exit 0`.',
    errexit:
      'Unexpected test `{{text}}` under `set -e` in a `{{event}}` hook: when it fails the shell ends the hook with exit 1, a non-blocking error, so the action goes ahead (Claude Code blocks only on exit 2 or `{{decision}}`). Write `{{text}} || exit 2` to refuse.',
  },
  checkScript(context) {
    const spec = blockingEvent(context.hook, ['exit2-or-json']);
    // A background hook's status decides nothing (cc-async-invalid).
    if (!spec || context.hook.claudeCode?.async) return;
    const data = { event: spec.name, decision: spec.jsonDecision ?? 'decision: "block"' };
    const tails = tailStatuses(context.tree.rootNode);
    for (const { node, onFailure } of tails) {
      const range = context.range(node.startIndex, node.endIndex);
      const text = messageText(node.text);
      if (isTest(node)) {
        context.report({ messageId: onFailure ? 'testFails' : 'test', data: { ...data, text }, range });
        continue;
      }
      const code = onFailure ? undefined : refusalCode(node);
      if (code !== undefined) context.report({ messageId: 'refusal', data: { ...data, text, code: String(code) }, range });
    }
    for (const node of errexitTests(context.tree.rootNode, context.hook.text)) {
      // `[ -n "$X" ]` then `exit $?`: the tail's, already reported.
      if (tails.some((t) => t.node.id === node.id)) continue;
      context.report({
        messageId: 'errexit',
        data: { ...data, text: messageText(node.text) },
        range: context.range(node.startIndex, node.endIndex),
      });
    }
  },
});

/**
 * Tests standing alone as a statement of the script's top level while `set -e`
 * (`-o errexit`, or `-e` on the `#!` line) is on, before its last statement
 * (the tail speaks of that one): a failing test there ends the script with 1.
 * In a condition, an `&&`/`||` list or after `!`, a failure does not.
 */
function errexitTests(root: SyntaxNode, text: string): SyntaxNode[] {
  let on = /^#![^\n]*\s-[A-Za-z]*e/.test(text);
  const statements = root.namedChildren.filter(
    (c): c is SyntaxNode => c !== null && c.type !== 'comment' && c.type !== 'function_definition',
  );
  const found: SyntaxNode[] = [];
  for (const statement of statements.slice(0, -1)) {
    const flag = errexitFlag(statement);
    if (flag !== undefined) on = flag;
    const test = on ? statusNode(statement) : undefined;
    if (test && isTest(test)) found.push(test);
  }
  return found;
}

/** `set -e`, `set -euo pipefail`, `set -o errexit`: true; `set +e`, `set +o errexit`: false. */
function errexitFlag(statement: SyntaxNode): boolean | undefined {
  if (statement.type !== 'command' || statement.childForFieldName('name')?.text !== 'set') return undefined;
  const args = statement.childrenForFieldName('argument').map((a) => a?.text ?? '');
  let flag: boolean | undefined;
  args.forEach((arg, i) => {
    if (/^[-+][A-Za-z]*e/.test(arg) && !/^[-+]o$/.test(arg)) flag = arg.startsWith('-');
    if (/^[-+]o$/.test(arg) && args[i + 1] === 'errexit') flag = arg.startsWith('-');
  });
  return flag;
}

const TESTS = new Set(['[', 'test', '[[']);

/** A test whose failure is an answer, not an error: `[[ … ]]`, `[ … ]`, `test`, `grep -q`, `jq -e`. */
function isTest(node: SyntaxNode): boolean {
  if (node.type === 'test_command') return true;
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return false;
  if (TESTS.has(name)) return true;
  const options = node.childrenForFieldName('argument').map((a) => a?.text ?? '');
  if (name === 'grep' || name === 'egrep' || name === 'fgrep') return options.some((o) => /^-[A-Za-z]*q|^--(?:quiet|silent)$/.test(o));
  return name === 'jq' && options.some((o) => /^-[A-Za-z]*e[A-Za-z]*$|^--exit-status$/.test(o));
}

/** The status of `false` or `return N` (not 0 and not the blocking 2). */
function refusalCode(node: SyntaxNode): number | undefined {
  const name = node.childForFieldName('name')?.text;
  if (name === 'false') return 1;
  if (name !== 'return') return undefined;
  const arg = node.childrenForFieldName('argument')[0]?.text;
  const code = arg !== undefined && /^\d+$/.test(arg) ? Number(arg) : undefined;
  return code === undefined || code === 0 || code === BLOCKING_EXIT_CODE ? undefined : code;
}
