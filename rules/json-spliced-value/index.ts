import { defineRule } from '../../src/engine/rule.js';
import { NUMERIC_ENV } from '../../src/runtime/contract.js';
import { commandBase, nodesOfType, variableUse, wordTemplate } from '../../src/shell/analysis.js';
import { staticValue } from '../../src/shell/static-value.js';
import { placedNodesOfType } from '../../src/shell/node-index.js';
import { remembered } from '../../src/shell/node-memo.js';
import type { SyntaxNode } from '../../src/shell/parser.js';
import { mayBeUnset, shapeWithin, wordSafety } from '../../src/shell/word-safety.js';

/** Words that build text: a quoted or concatenated argument, an assignment's value, a here-document. */
const WORD_TYPES = ['string', 'concatenation', 'heredoc_body'];
/** `--data=` / `--message="…"`: an option whose value is the JSON text. */
const OPTION_PREFIX = /^--?[A-Za-z][\w-]*=/;

interface Options {
  /** Further variables known to hold only digits (or JSON-safe text). */
  safeVariables?: string[];
}

/**
 * `'{"task":"'"${TASK}"'"}'` pastes a value into JSON text. A `"` in the
 * value ends the string early and what follows becomes JSON structure: the
 * agent that wrote the task writes fields into the document (or breaks it, and
 * the store fails silently). Values that cannot break out — digits, dates —
 * are exempt (the word-safety analysis in src/shell/word-safety.ts, shared
 * with the ShellCheck quoting filter); a bare number that may be empty is
 * reported as the invalid JSON it makes.
 */
export default defineRule<Options>({
  id: 'json-spliced-value',
  meta: {
    description: 'JSON text built by pasting a raw value between quotes.',
    severity: 'warning',
    category: 'injection',
    runtimes: ['claude-flow', 'claude-code'],
    securitySeverity: 5.5,
  },
  messages: {
    spliced:
      'Unexpected `{{text}}` spliced into JSON text: a `"` or `\\` in its value ends the string and injects JSON. Build the document with `jq -n --arg v "{{quoted}}" \'{…: $v}\'`.',
    raw: 'Unexpected `{{text}}` pasted into JSON as a raw value: unless it always holds one valid JSON value, the document is invalid (empty, text, two lines) or gains structure. Build the document with `jq -n --argjson v "{{quoted}}" \'{…: $v}\'`.',
    empty:
      'Invalid JSON when `{{text}}` is empty: `{{name}}` is only assigned inside a condition (line {{line}}), and an empty value leaves `{{shape}}`. Give it a default (`${{{name}}:-0}`) or build the document with `jq -n --argjson`.',
  },
  optionsSchema: {
    type: 'object',
    properties: { safeVariables: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  },
  defaultOptions: { safeVariables: [] },
  checkScript(context) {
    const root = context.tree.rootNode;
    // What the script's assignments say of each variable is worked out only for a hook that builds JSON text.
    let known: ReturnType<typeof wordSafety> | undefined;
    const safetyOf = (): ReturnType<typeof wordSafety> =>
      (known ??= wordSafety(root, [...NUMERIC_ENV, ...(context.options.safeVariables ?? [])]));
    const text = context.hook.text;
    for (const { node: word, start, end } of placedNodesOfType(root, WORD_TYPES)) {
      // JSON text needs a `{` or `[` and a `:` in the word itself: most words have neither and need no template.
      const raw = text.slice(start, end);
      if (!raw.includes(':') || !/[[{]/.test(raw)) continue;
      // Whether the word builds JSON text is its own (an editor's next run reuses it for a word the edit left alone).
      const json = remembered(context.tree, 'json-text', start, end, () => {
        const template = wordTemplate(word);
        return template.expansions.length === 0 ? undefined : jsonText(template.text);
      });
      if (json === undefined) continue;
      const parentType = word.parent?.type;
      if (parentType === 'concatenation' || (parentType === 'string' && word.type === 'string')) continue;
      const template = wordTemplate(word);
      const inString = placeholdersInString(json);
      template.expansions.forEach((expansion, index) => {
        const shape = safetyOf().shapeOf(expansion);
        if (inString[index] ? shapeWithin(shape, 'text') : shape !== 'unknown' || printsJson(expansion, safetyOf())) {
          if (!inString[index] && shape === 'digits') reportIfMayBeEmpty(expansion);
          return;
        }
        context.report({
          messageId: inString[index] ? 'spliced' : 'raw',
          data: { text: expansion.text, quoted: expansion.text },
          range: context.range(expansion.startIndex, expansion.endIndex),
        });
      });
    }

    // `printf '{"task":"%s"}' "$TASK"`: the format is the JSON text and each `%s` takes its argument as written.
    for (const command of context.commands) {
      if (commandBase(command) !== 'printf') continue;
      const args = command.args[0]?.value === '-v' ? command.args.slice(2) : command.args;
      const format = args[0]?.value;
      if (format === undefined || !format.includes('%')) continue;
      const conversions: string[] = [];
      const json = jsonText(
        format.replace(/%%|%[-+ #0]*\d*(?:\.\d+)?([a-zA-Z])/g, (match, letter: string | undefined) => {
          if (match === '%%') return '%';
          conversions.push(letter ?? '');
          return '\u0000';
        }),
      );
      if (json === undefined) continue;
      const inString = placeholdersInString(json);
      conversions.forEach((letter, index) => {
        const arg = args[index + 1];
        // Numeric conversions are checked by printf itself; a literal argument is what the author wrote.
        if (!arg || (letter !== 's' && letter !== 'b') || arg.value !== undefined) return;
        for (const expansion of nodesOfType(arg.node, ['simple_expansion', 'expansion', 'command_substitution'])) {
          const shape = safetyOf().shapeOf(expansion);
          if (inString[index] ? shapeWithin(shape, 'text') : shape !== 'unknown' || printsJson(expansion, safetyOf())) continue;
          context.report({
            messageId: inString[index] ? 'spliced' : 'raw',
            data: { text: expansion.text, quoted: expansion.text },
            range: context.range(expansion.startIndex, expansion.endIndex),
          });
        }
      });
    }

    function reportIfMayBeEmpty(expansion: SyntaxNode): void {
      const use = variableUse(expansion);
      if (!use || use.length) return;
      const assignment = mayBeUnset(safetyOf(), use.name, expansion);
      if (!assignment) return;
      context.report({
        messageId: 'empty',
        data: {
          text: expansion.text,
          name: use.name,
          line: context.range(assignment.startIndex, assignment.endIndex).line,
          shape: '{"key": }',
        },
        range: context.range(expansion.startIndex, expansion.endIndex),
        related: [
          {
            message: `\`${use.name}\` is assigned only here, inside a condition`,
            file: context.hook.file,
            range: context.mapRange(context.range(assignment.startIndex, assignment.endIndex)),
          },
        ],
      });
    }
  },
});

/** The JSON text a word builds (after an `--option=` prefix), or undefined when it is not JSON text. */
function jsonText(text: string): string | undefined {
  const trimmed = text.trimStart().replace(OPTION_PREFIX, '');
  return (trimmed.startsWith('{') || trimmed.startsWith('[')) && /"[^"\n]*"\s*:/.test(trimmed) ? trimmed : undefined;
}

/** For each placeholder (NUL) of the template, in order: is it inside a JSON string? */
function placeholdersInString(json: string): boolean[] {
  const result: boolean[] = [];
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '\u0000') result.push(inString);
    else if (inString && c === '\\') i++;
    else if (c === '"') inString = !inString;
  }
  return result;
}

/** jq options that make it print raw text instead of JSON. */
const JQ_RAW = /^-[A-Za-z]*[rja]|^--(raw-output|join-output|raw-output0|ascii-output)$/;

/**
 * `$(printf '%s' "$m" | jq -Rs .)`, `$(jq -n --arg r "$r" '{reason: $r}')`, or a
 * variable only ever assigned one: jq prints JSON (unless told to print raw
 * text), so pasted as a raw value it is the JSON value it was made to be.
 * Seen in corca-ai's cwf hooks: `reason_json="$(… | jq -Rs .)"` then `{"reason":${reason_json}}`.
 */
function printsJson(node: SyntaxNode, safety: ReturnType<typeof wordSafety>, depth = 0): boolean {
  if (node.type === 'command_substitution') return endsWithJq(node);
  const use = variableUse(node);
  if (!use || use.operator !== undefined || use.length || depth >= 3) return false;
  const values = safety.assignments(use.name);
  return (
    values.length > 0 &&
    values.every((value) => {
      // `local reason=""` before the assignment that counts.
      if (/^(""|'')$/.test(value.text) && value.parent?.parent?.type === 'declaration_command') return true;
      const inner = value.type === 'string' && value.namedChildCount === 1 ? value.namedChild(0) : value;
      return inner !== null && (inner.type === 'command_substitution' || inner.type === 'simple_expansion' || inner.type === 'expansion')
        ? printsJson(inner, safety, depth + 1)
        : false;
    })
  );
}

function endsWithJq(substitution: SyntaxNode): boolean {
  const body = substitution.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== 'comment');
  if (body.length !== 1) return false;
  let last = body[0]!;
  if (last.type === 'redirected_statement') last = last.childForFieldName('body') ?? last;
  if (last.type === 'pipeline') last = last.namedChildren.filter((c): c is SyntaxNode => c !== null).at(-1)!;
  if (last.type === 'redirected_statement') last = last.childForFieldName('body') ?? last;
  if (last.type !== 'command' || staticValue(last.childForFieldName('name') ?? last) !== 'jq') return false;
  return !last.childrenForFieldName('argument').some((arg) => arg !== null && JQ_RAW.test(staticValue(arg) ?? ''));
}
