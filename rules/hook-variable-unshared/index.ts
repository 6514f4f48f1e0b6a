import { defineRule } from '../../src/engine/rule.js';
import { runtimeEnvFor, SHELL_ENV } from '../../src/runtime/contract.js';
import { nodesOfType, variableUses } from '../../src/shell/analysis.js';
import { walkedNodesOfType } from '../../src/shell/node-index.js';
import type { SyntaxNode } from '../../src/shell/parser.js';
import { handledVariables, variableWrites } from '../../src/shell/variables.js';

interface Options {
  /** Variables the deployment sets for every hook (so a hook may read them whoever else sets them). */
  allow?: string[];
}

/**
 * The runtime starts every hook as a new bash process: a variable a hook sets
 * — even with `export` — dies with that process. A profile that sets
 * `START_TIME` in `pre` and reads it in `post` reads an empty string there,
 * whatever kind of hook either is. Reported at the read, with the write as
 * related location.
 */
export default defineRule<Options>({
  id: 'hook-variable-unshared',
  meta: {
    description: 'A hook reads a variable that only another hook of the profile sets; each hook is its own process.',
    severity: 'warning',
    category: 'runtime',
    supersedes: ['env-var-unavailable', 'shellcheck/SC2154'],
  },
  messages: {
    unshared:
      'Unexpected `{{name}}` in `{{hook}}`: it is set only in `{{writer}}`, and each hook runs in its own process, so it is empty here ({{how}}). Pass state through the store (`/sqlite-memory store|retrieve`) or a file, or compute it in this hook.',
  },
  optionsSchema: { type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, additionalProperties: false },
  defaultOptions: { allow: [] },
  checkHooks(context) {
    if (context.hooks.length < 2) return;
    const writes = context.hooks.map((item) => variableWrites(item.tree.rootNode));
    context.hooks.forEach((item, index) => {
      // A sourced file may set anything.
      if (item.commands.some((c) => c.name.value === 'source' || c.name.value === '.')) return;
      const root = item.tree.rootNode;
      const uses = variableUses(root);
      const handled = handledVariables(root, uses, item.commands);
      const known = new Set<string>([...runtimeEnvFor(item.hook.name), ...SHELL_ENV, ...(context.options.allow ?? [])]);
      const writerOf = (name: string): number =>
        known.has(name) || handled.has(name) || writes[index]!.has(name)
          ? -1
          : context.hooks.findIndex((_, i) => i !== index && writes[i]!.has(name));
      // `$((END - START))` reads START without a `$`: arithmetic names are reads too. Only the reads of
      // names another hook writes are placed (each place is a call into WASM).
      const reads: { name: string; start: number; end: number }[] = [
        ...uses
          .filter((u) => writerOf(u.name) !== -1)
          .map((u) => ({ name: u.name, start: u.node.startIndex + u.node.text.indexOf('$'), end: u.node.endIndex })),
        ...arithmeticReads(root),
      ].sort((a, b) => a.start - b.start);
      const reported = new Set<string>();
      for (const use of reads) {
        const name = use.name;
        if (reported.has(name)) continue;
        const writer = writerOf(name);
        if (writer === -1) continue;
        reported.add(name);
        const other = context.hooks[writer]!;
        const write = writes[writer]!.get(name)!;
        const exported = write.type === 'declaration_command' && write.text.startsWith('export');
        context.report({
          hook: item.hook,
          messageId: 'unshared',
          data: {
            name,
            hook: item.hook.name,
            writer: other.hook.name,
            how: exported ? "`export` passes it only to that hook's own child processes" : 'its shell has exited',
          },
          // The grammar sometimes starts a `$X` in a string at the space before it (skipped above).
          range: item.range(use.start, use.end),
          related: [
            {
              message: `\`${name}\` is set here, in \`${other.hook.name}\``,
              file: other.hook.file,
              range: other.mapRange(other.range(write.startIndex, write.endIndex)),
            },
          ],
        });
      }
    });
  },
});

/** Names read inside `$((…))` / `((…))` without a `$` (not the target of `N++` or `N=…`). */
function arithmeticReads(root: SyntaxNode): { name: string; start: number; end: number }[] {
  const reads: { name: string; start: number; end: number }[] = [];
  for (const arithmetic of nodesOfType(root, ['arithmetic_expansion', 'compound_statement'])) {
    if (arithmetic.type === 'compound_statement' && !arithmetic.text.startsWith('((')) continue;
    // Names are asked about only here, under arithmetic: a walk, not an index of every name of every hook.
    for (const name of walkedNodesOfType(arithmetic, ['variable_name'])) {
      const parent = name.parent;
      if (parent?.type === 'postfix_expression' || parent?.type === 'unary_expression') continue;
      if (
        parent?.type === 'binary_expression' &&
        parent.childForFieldName('left')?.id === name.id &&
        /=$/.test(parent.childForFieldName('operator')?.text ?? '') &&
        !/[=!<>]=$/.test(parent.childForFieldName('operator')?.text ?? '')
      )
        continue;
      if (parent?.type === 'subscript' || parent?.type === 'simple_expansion' || parent?.type === 'expansion') continue;
      reads.push({ name: name.text, start: name.startIndex, end: name.endIndex });
    }
  }
  return reads;
}
