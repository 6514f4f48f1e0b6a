import { defineRule } from '../../src/engine/rule.js';
import {
  EVENT_PRIORITY_MAX,
  EVENT_PRIORITY_MIN,
  EVENT_TYPE_PATTERN,
  EVENTBUS_COMMAND,
  EVENTBUS_SUBCOMMANDS,
} from '../../src/runtime/contract.js';
import { jsonProblem } from '../../src/runtime/json-literal.js';
import { optionValue, positionalArgs } from '../../src/shell/analysis.js';
import { closestMatch } from '../../src/text/suggest.js';

/**
 * `/eventbus publish --type a.b.c --data JSON --priority N` as the runtime
 * documents it. Subscribers match on the dotted type and the bus orders by
 * priority, so a malformed type is never delivered and an out-of-range
 * priority is rejected — inside a hook whose failure is only logged.
 */
export default defineRule({
  id: 'eventbus-publish-invalid',
  meta: {
    description:
      'A misspelt `/eventbus` subcommand, or a `publish` without a dotted `--type`, with a priority out of range, or with `--data` that is not JSON.',
    severity: 'error',
    category: 'runtime',
  },
  messages: {
    subcommandUnknown: 'Invalid `/eventbus` subcommand `{{value}}`: did you mean `{{suggestion}}`?',
    typeMissing: 'Expected `--type` on `/eventbus publish`: subscribers select events by their dotted type (e.g. `agent.timeout`).',
    typeInvalid: 'Invalid event type `{{value}}`: expected a dotted name such as `agent.blocking.timeout`.',
    priorityInvalid: `Invalid event priority \`{{value}}\`: expected an integer from ${EVENT_PRIORITY_MIN} to ${EVENT_PRIORITY_MAX}.`,
    dataInvalid: 'Invalid JSON in `--data`: {{problem}}.',
  },
  checkScript(context) {
    for (const command of context.commands) {
      if (command.name.value !== EVENTBUS_COMMAND) continue;
      const subcommand = positionalArgs(command)[0];
      // Only the documented subcommands are known; a word close to one of them is a typo, anything else may be a newer command.
      const suggestion =
        subcommand?.value !== undefined && !(EVENTBUS_SUBCOMMANDS as readonly string[]).includes(subcommand.value)
          ? closestMatch(subcommand.value, EVENTBUS_SUBCOMMANDS)
          : undefined;
      if (subcommand && suggestion && subcommand !== optionValue(command, '--type')?.word) {
        context.report({
          messageId: 'subcommandUnknown',
          data: { value: subcommand.value!, suggestion },
          range: context.range(subcommand.start, subcommand.end),
        });
        continue;
      }
      if (subcommand?.value !== 'publish') continue;
      const type = optionValue(command, '--type');
      if (!type) context.report({ messageId: 'typeMissing', range: context.range(command.start, command.end) });
      else if (type.value !== undefined && !EVENT_TYPE_PATTERN.test(type.value)) {
        context.report({ messageId: 'typeInvalid', data: { value: type.value }, range: context.range(type.start, type.word.end) });
      }
      const priority = optionValue(command, '--priority');
      if (priority?.value !== undefined) {
        const n = /^-?\d+$/.test(priority.value) ? Number(priority.value) : NaN;
        if (!(n >= EVENT_PRIORITY_MIN && n <= EVENT_PRIORITY_MAX)) {
          context.report({
            messageId: 'priorityInvalid',
            data: { value: priority.value },
            range: context.range(priority.start, priority.word.end),
          });
        }
      }
      const data = optionValue(command, '--data');
      if (data?.value !== undefined) {
        const problem = jsonProblem(data.value);
        if (problem) context.report({ messageId: 'dataInvalid', data: { problem }, range: context.range(data.start, data.word.end) });
      }
    }
  },
});
