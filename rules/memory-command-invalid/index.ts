import { defineRule } from '../../src/engine/rule.js';
import { MEMORY_KEYED_SUBCOMMANDS, MEMORY_LEVELS, MEMORY_SUBCOMMANDS } from '../../src/runtime/contract.js';
import { jsonProblem } from '../../src/runtime/json-literal.js';
import { memoryCalls } from '../../src/runtime/memory-calls.js';
import { closestMatch } from '../../src/text/suggest.js';

const list = (values: readonly string[]): string => values.map((v) => `\`${v}\``).join(', ');

/**
 * `/sqlite-memory` as the runtime documents it: `store|retrieve|… --key K
 * --level agent|swarm|project [--data JSON]`. A call outside that contract
 * fails inside a hook whose failures are only logged, so the store the next
 * hook relies on silently never happens.
 */
export default defineRule({
  id: 'memory-command-invalid',
  meta: {
    description: 'A `/sqlite-memory` call with an unknown subcommand, no `--key`, an invalid `--level`, or `--data` that is not JSON.',
    severity: 'error',
    category: 'runtime',
  },
  messages: {
    subcommandMissing: `Expected a \`/sqlite-memory\` subcommand: one of ${list(MEMORY_SUBCOMMANDS)}.`,
    subcommandUnknown: `Invalid \`/sqlite-memory\` subcommand \`{{value}}\`{{hint}}: expected one of ${list(MEMORY_SUBCOMMANDS)}.`,
    keyMissing: 'Expected `--key` on `/sqlite-memory {{subcommand}}`: it names the entry to {{subcommand}}.',
    levelMissing: `Expected \`--level\` on \`/sqlite-memory {{subcommand}}\`: one of ${list(MEMORY_LEVELS)}; the level decides who can read the entry.`,
    levelInvalid: `Invalid memory level \`{{value}}\`{{hint}}: expected one of ${list(MEMORY_LEVELS)}.`,
    dataInvalid: 'Invalid JSON in `--data`: {{problem}}.',
  },
  checkScript(context) {
    for (const call of memoryCalls(context.commands)) {
      const { command, subcommand } = call;
      const whole = context.range(command.start, command.end);
      if (!subcommand) {
        context.report({ messageId: 'subcommandMissing', range: context.range(command.name.start, command.name.end) });
        continue;
      }
      const name = subcommand.value;
      if (name !== undefined && !(MEMORY_SUBCOMMANDS as readonly string[]).includes(name)) {
        const suggestion = closestMatch(name, MEMORY_SUBCOMMANDS);
        context.report({
          messageId: 'subcommandUnknown',
          data: { value: name, hint: suggestion ? ` (did you mean \`${suggestion}\`?)` : '' },
          range: context.range(subcommand.start, subcommand.end),
        });
        continue;
      }
      if (name !== undefined && (MEMORY_KEYED_SUBCOMMANDS as readonly string[]).includes(name)) {
        if (!call.key) context.report({ messageId: 'keyMissing', data: { subcommand: name }, range: whole });
        if (!call.level) context.report({ messageId: 'levelMissing', data: { subcommand: name }, range: whole, severity: 'warning' });
      }
      if (call.level?.value !== undefined && !(MEMORY_LEVELS as readonly string[]).includes(call.level.value)) {
        const suggestion = closestMatch(call.level.value, MEMORY_LEVELS);
        context.report({
          messageId: 'levelInvalid',
          data: { value: call.level.value, hint: suggestion ? ` (did you mean \`${suggestion}\`?)` : '' },
          range: context.range(call.level.start, call.level.word.end),
        });
      }
      if (call.data?.value !== undefined) {
        const problem = jsonProblem(call.data.value);
        if (problem)
          context.report({ messageId: 'dataInvalid', data: { problem }, range: context.range(call.data.start, call.data.word.end) });
      }
    }
  },
});
