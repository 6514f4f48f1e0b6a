import type { Fix } from '../../src/diagnostics.js';
import { defineRule } from '../../src/engine/rule.js';
import { basename } from '../../src/shell/commands.js';
import { enclosing, SHELLS } from '../../src/shell/analysis.js';
import { placedNodesOfType } from '../../src/shell/node-index.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

/** Programs whose single-quoted argument is code in their own language, where `$x` means something to them. */
const INTERPRETERS = new Set([
  ...SHELLS,
  'jq',
  'yq',
  'gojq',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'perl',
  'python',
  'python3',
  'node',
  'ruby',
  'php',
  'lua',
  'envsubst',
  'printf',
  'eval',
  'trap',
  'alias',
  'expect',
  'osascript',
  'psql',
  'mysql',
  'sqlite3',
]);

/** `$NAME` or `${NAME…}` written inside a single-quoted JSON text (scanning the literal's content). */
const VARIABLE_IN_LITERAL = /\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
/** Every text `VARIABLE_IN_LITERAL` finds something in contains this (a cheaper first test). */
const MAY_NAME_VARIABLE = /\$\{?[A-Za-z_]/;

/**
 * The runtime documentation's own `--data '{"agent":"${AGENT_ID}"}'`: single
 * quotes stop every expansion, so the hook stores the eleven characters
 * `${AGENT_ID}`, not the agent's id — silently, since the JSON is valid.
 */
export default defineRule({
  id: 'json-single-quoted-var',
  meta: {
    description: 'A `${VAR}` inside a single-quoted JSON text is never expanded.',
    severity: 'warning',
    category: 'injection',
    fixable: true,
    supersedes: ['shellcheck/SC2016'],
  },
  messages: {
    neverExpanded:
      'Unexpected `{{text}}` inside single quotes: it is never expanded, so the JSON holds the literal text `{{text}}`. Build the JSON with `jq -n --arg {{arg}} "${{{name}}}" \'{…: ${{arg}}}\'`.',
  },
  checkScript(context) {
    const text = context.hook.text;
    for (const { node: literal, start, end } of placedNodesOfType(context.tree.rootNode, ['raw_string'])) {
      const content = text.slice(start + 1, end - 1);
      // Most quoted texts name no variable: nothing to report, and nothing about their place to read.
      if (!MAY_NAME_VARIABLE.test(content)) continue;
      if (!looksLikeJson(literal, content) || interpreted(literal)) continue;
      const fix = jqFix(literal, content, context.range.bind(context));
      for (const match of content.matchAll(VARIABLE_IN_LITERAL)) {
        const start = literal.startIndex + 1 + match.index;
        const name = (match[1] ?? match[2])!;
        context.report({
          messageId: 'neverExpanded',
          data: { text: match[0], name, arg: name.toLowerCase() },
          range: context.range(start, start + match[0].length),
          ...(fix ? { fixes: [fix] } : {}),
        });
      }
    }
  },
});

/** The literal, or the word it is part of, reads as a JSON document. */
function looksLikeJson(literal: SyntaxNode, content: string): boolean {
  const word = literal.parent?.type === 'concatenation' ? literal.parent : literal;
  const first = word.text.replace(/^['"]/, '').trimStart()[0];
  return first === '{' || first === '[' || /"[^"\n]*"\s*:/.test(content);
}

function interpreted(literal: SyntaxNode): boolean {
  const command = enclosing(literal, ['command']);
  const name = command?.childForFieldName('name')?.text;
  if (name === undefined) return false;
  if (INTERPRETERS.has(basename(name))) return true;
  // `xargs sh -c '…'`, `timeout 5 bash -c '…'`: a wrapped interpreter.
  return command!
    .childrenForFieldName('argument')
    .some((arg) => arg !== null && arg.startIndex < literal.startIndex && INTERPRETERS.has(basename(arg.text)));
}

/**
 * When the quoted text is a whole word and every variable in it is a whole
 * JSON string (`"${X}"`), the same document built by jq: JSON is a jq
 * expression, so only the variables change, to `$x` bound with `--arg`.
 * Not safe: it changes how the hook runs (it needs jq).
 */
function jqFix(
  literal: SyntaxNode,
  content: string,
  range: (start: number, end: number) => import('../../src/diagnostics.js').Range,
): Fix | undefined {
  const parent = literal.parent;
  if (parent?.type === 'concatenation' || parent?.type === 'string') return undefined;
  const names = new Map<string, string>();
  let allWhole = true;
  const program = content.replace(
    /"\$\{([A-Za-z_][A-Za-z0-9_]*)\}"|"\$([A-Za-z_][A-Za-z0-9_]*)"/g,
    (_whole, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      const arg = name.toLowerCase();
      names.set(arg, name);
      return `$${arg}`;
    },
  );
  if (/\$[{A-Za-z_]/.test(program.replace(/\$([a-z_][a-z0-9_]*)/g, (w, arg: string) => (names.has(arg) ? '' : w)))) allWhole = false;
  if (!allWhole || names.size === 0) return undefined;
  try {
    JSON.parse(program.replace(/\$([a-z_][a-z0-9_]*)/g, (w, arg: string) => (names.has(arg) ? 'null' : w)));
  } catch {
    return undefined;
  }
  const args = [...names].map(([arg, name]) => `--arg ${arg} "$${name}"`).join(' ');
  return {
    title: 'Build the JSON with `jq -n --arg`',
    safe: false,
    edits: [{ range: range(literal.startIndex, literal.endIndex), text: `"$(jq -nc ${args} '${program}')"` }],
  };
}
