import { defineRule } from '../../src/engine/rule.js';
import { NUMERIC_ENV } from '../../src/runtime/contract.js';
import { nodesOfType, variableUse, wordTemplate } from '../../src/shell/analysis.js';
import type { SyntaxNode } from '../../src/shell/parser.js';

/** Shell variables that only ever hold digits. */
const NUMERIC_SHELL_VARIABLES = ['RANDOM', 'SECONDS', 'LINENO', 'BASHPID', 'PPID', 'UID', 'EUID', 'EPOCHSECONDS'];
const NUMERIC_SPECIALS = new Set(['$$', '$?', '$#', '$!']);
/** Words that build text: a quoted or concatenated argument, an assignment's value, a here-document. */
const WORD_TYPES = ['string', 'concatenation', 'heredoc_body'];

interface Options {
  /** Further variables known to hold only digits (or JSON-safe text). */
  safeVariables?: string[];
}

/**
 * `'{"task":"'"${TASK}"'"}'` pastes a value into JSON text. A `"` in the
 * value ends the string early and what follows becomes JSON structure: the
 * agent that wrote the task writes fields into the document (or breaks it, and
 * the store fails silently). Values that can only be digits — `$(date +%s)`,
 * `$((…))`, `$ITERATION`, `${#X}` — are exempt: they cannot break out.
 */
export default defineRule<Options>({
  id: 'json-spliced-value',
  meta: {
    description: 'JSON text built by pasting a raw value between quotes.',
    severity: 'warning',
    category: 'injection',
    securitySeverity: 5.5,
  },
  messages: {
    spliced:
      'Unexpected `{{text}}` spliced into JSON text: a `"` or `\\` in its value ends the string and injects JSON. Build the document with `jq -n --arg v "{{quoted}}" \'{…: $v}\'`.',
  },
  optionsSchema: {
    type: 'object',
    properties: { safeVariables: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  },
  defaultOptions: { safeVariables: [] },
  checkScript(context) {
    const root = context.tree.rootNode;
    const numeric = new Set<string>([...NUMERIC_ENV, ...NUMERIC_SHELL_VARIABLES, ...(context.options.safeVariables ?? [])]);
    const assignments = assignmentsByName(root);
    const isSafe = (node: SyntaxNode, depth = 0): boolean => {
      if (node.type === 'arithmetic_expansion') return true;
      if (NUMERIC_SPECIALS.has(node.text)) return true;
      if (node.type === 'command_substitution') return isDateCommand(node);
      const use = variableUse(node);
      if (!use) return false;
      if (use.length || numeric.has(use.name)) return true;
      // A variable the script itself sets, only ever from safe values.
      const values = assignments.get(use.name);
      return (
        depth < 3 &&
        values !== undefined &&
        values.length > 0 &&
        values.every(
          (v) =>
            (['arithmetic_expansion', 'command_substitution', 'simple_expansion', 'expansion'].includes(v.type) && isSafe(v, depth + 1)) ||
            /^\d+$/.test(v.text),
        )
      );
    };
    for (const word of nodesOfType(root, WORD_TYPES)) {
      // JSON text needs a `{` or `[` and a `:` in the word itself: most words have neither and need no template.
      const raw = word.text;
      if (!raw.includes(':') || !/[[{]/.test(raw)) continue;
      if (word.parent?.type === 'concatenation' || (word.type === 'string' && word.parent?.type === 'string')) continue;
      const template = wordTemplate(word);
      if (template.expansions.length === 0 || !isJsonText(template.text)) continue;
      for (const expansion of template.expansions) {
        if (isSafe(expansion)) continue;
        context.report({
          messageId: 'spliced',
          data: { text: expansion.text, quoted: expansion.text },
          range: context.range(expansion.startIndex, expansion.endIndex),
        });
      }
    }
  },
});

/** Text that opens a JSON object or array and holds a `"key":` pair. */
function isJsonText(text: string): boolean {
  const trimmed = text.trimStart();
  return (trimmed.startsWith('{') || trimmed.startsWith('[')) && /"[^"\n]*"\s*:/.test(trimmed);
}

/** `$(date …)` with a static format: its output never holds a quote or a backslash. */
function isDateCommand(substitution: SyntaxNode): boolean {
  const commands = nodesOfType(substitution, ['command']);
  if (commands.length !== 1) return false;
  const command = commands[0]!;
  if (command.childForFieldName('name')?.text !== 'date') return false;
  return command.childrenForFieldName('argument').every((arg) => arg !== null && !/[$`"\\]/.test(arg.text.replace(/^'|'$/g, '')));
}

function assignmentsByName(root: SyntaxNode): Map<string, SyntaxNode[]> {
  const map = new Map<string, SyntaxNode[]>();
  for (const assignment of nodesOfType(root, ['variable_assignment'])) {
    const name = assignment.childForFieldName('name')?.text;
    const value = assignment.childForFieldName('value');
    if (!name) continue;
    const list = map.get(name) ?? [];
    if (value) list.push(value);
    else list.push(assignment);
    map.set(name, list);
  }
  return map;
}
