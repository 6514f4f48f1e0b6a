import { defineRule } from '../../src/engine/rule.js';
import { bashSyntax } from '../../src/shell/bash-check.js';
import { firstSyntaxError, syntaxErrors, type SyntaxNode } from '../../src/shell/parser.js';

/**
 * A hook that bash cannot parse never runs at all. The tree-sitter grammar
 * recovers from errors and marks them; each is confirmed with `bash -n` before
 * it is reported, because the grammar rejects a few constructs bash accepts.
 * Where bash names another line than the grammar, bash's line wins. Where
 * bash accepts what the grammar cannot read, the rules do not see the
 * commands there, and a warning says so.
 */
export default defineRule({
  id: 'shell-syntax',
  meta: { description: 'A hook script is not valid bash.', severity: 'error', category: 'shell', runtimes: ['claude-flow', 'claude-code'] },
  messages: {
    syntax: 'Invalid bash syntax in hook `{{hook}}`: {{detail}}.',
    unread:
      'Unexpected shell the syntax tree cannot read, from `{{text}}`: bash accepts it, but the commands there are not checked by the rules (`{rm,-rf,x}` runs `rm -rf x`). Write it in plainer shell.',
  },
  checkScript(context) {
    const error = firstSyntaxError(context.tree.rootNode);
    if (!error) return;
    const verdict = bashSyntax(context.hook.text);
    const text = context.hook.text;
    if (verdict?.ok) {
      // The grammar's gap, not the hook's: what the rules cannot read, a reviewer should. A missing
      // token stands where the grammar gave up (often the end): its statement is where it went astray.
      let reported = -1;
      for (const node of syntaxErrors(context.tree.rootNode)) {
        const start = (node.isMissing ? (node.parent ?? node) : node).startIndex;
        if (start <= reported) continue;
        const end = lineEnd(text, start);
        context.report({
          messageId: 'unread',
          data: { text: truncate(text.slice(start, end)) },
          range: context.range(start, end),
          severity: 'warning',
        });
        reported = Math.max(start, node.endIndex);
      }
      return;
    }
    const opener = verdict?.message?.includes('unexpected end of file') ? unclosedConstruct(error) : undefined;
    if (opener) {
      const detail = `\`${opener.text.split(/\s/)[0]!}\` is never closed (unexpected end of file)`;
      context.report({
        messageId: 'syntax',
        data: { hook: context.hook.name, detail },
        range: context.range(opener.startIndex, lineEnd(text, opener.startIndex)),
      });
      return;
    }
    const token = unexpectedToken(text, verdict?.message);
    if (token) {
      context.report({
        messageId: 'syntax',
        data: { hook: context.hook.name, detail: verdict!.message! },
        range: context.range(token.start, token.end),
      });
      return;
    }
    const treeLine = context.range(error.startIndex, error.startIndex).line;
    if (verdict?.line !== undefined && verdict.line !== treeLine) {
      const lineStart = nthLineStart(text, verdict.line);
      context.report({
        messageId: 'syntax',
        data: { hook: context.hook.name, detail: verdict.message ?? 'syntax error' },
        range: context.range(lineStart, lineEnd(text, lineStart)),
      });
      return;
    }
    const detail = verdict?.message ?? (error.isMissing ? `expected \`${error.type}\`` : `unexpected \`${truncate(error.text)}\``);
    const end = Math.max(error.endIndex, error.startIndex + 1);
    context.report({
      messageId: 'syntax',
      data: { hook: context.hook.name, detail },
      range: context.range(error.startIndex, Math.min(end, lineEnd(text, error.startIndex))),
    });
  },
});

function truncate(text: string): string {
  const first = text.split('\n')[0] ?? '';
  return first.length > 40 ? `${first.slice(0, 40)}…` : first;
}

function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return Math.max(offset + 1, newline === -1 ? text.length : newline);
}

function nthLineStart(text: string, line: number): number {
  let offset = 0;
  for (let i = 1; i < line; i++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return offset;
    offset = next + 1;
  }
  return offset;
}

const COMPOUND = new Set([
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'compound_statement',
  'subshell',
  'function_definition',
  'string',
  'raw_string',
  'command_substitution',
  'heredoc_redirect',
]);

/** At the end of the file, the error is the construct left open: the innermost one around the missing token. */
function unclosedConstruct(error: SyntaxNode): SyntaxNode | undefined {
  for (let node: SyntaxNode | null = error; node; node = node.parent) {
    if (COMPOUND.has(node.type)) return node;
  }
  return undefined;
}

/**
 * Where bash meets the token it names (`syntax error near unexpected token
 * \`then'`): the shortest start of the script for which `bash -n` says the same.
 * Bash stops at its first error, so a longer start says it too and a shorter
 * one does not (it ends early, or inside a quote): a binary search, a few `bash -n`
 * runs for the one hook that has the error. The grammar often marks a point far
 * after it (a one-line hook whose quote closed early: its last character).
 */
function unexpectedToken(text: string, message: string | undefined): { start: number; end: number } | undefined {
  const token = message === undefined ? undefined : /near unexpected token `(.+)'$/.exec(message)?.[1];
  if (token === undefined || token === 'newline') return undefined;
  const reached = (length: number): boolean => bashSyntax(text.slice(0, length))?.message === message;
  let low = 1;
  let high = text.length;
  if (!reached(high)) return undefined;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (reached(middle)) high = middle;
    else low = middle + 1;
  }
  const start = high - token.length;
  return start >= 0 && text.slice(start, high) === token ? { start, end: high } : undefined;
}
