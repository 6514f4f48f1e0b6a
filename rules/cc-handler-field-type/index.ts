import { defineRule } from '../../src/engine/rule.js';
import { kindOf, type PNode } from '../../src/hooks/tree.js';
import { COMMON_FIELDS, type FieldSpec, handlerFields, isHandlerType, SHELLS } from '../../src/runtimes/claude-code/contract.js';
import { groups, handlers } from '../../src/runtimes/claude-code/walk.js';

/**
 * Claude Code validates handlers against their schema: a field of the wrong
 * type (`timeout: "30"`, `async: "yes"`, `args: "x"`) makes the handler
 * invalid, and it is dropped. `timeout` must be a positive number of seconds.
 */
export default defineRule({
  id: 'cc-handler-field-type',
  meta: {
    description:
      'A Claude Code hook field has the wrong type (`timeout: "30"`, a non-string `matcher`, `args` that is not a list of strings).',
    severity: 'error',
    category: 'hooks',
  },
  messages: {
    type: 'Invalid `{{field}}`: expected {{expected}}, found {{kind}}.',
    quotedNumber: 'Invalid `{{field}}`: expected a number of seconds, found the string {{text}}. Write it without quotes.',
    positive: 'Invalid `{{field}}`: expected a positive number of seconds, found {{value}}.',
    shell: 'Invalid `shell` value `{{value}}`: expected `bash` or `powershell`.',
    execWords:
      'Unexpected whitespace in the exec-form `command` `{{value}}`: with `args` no shell splits it, so Claude Code looks for an executable of that whole name. Put the executable alone in `command` and the words in `args`.',
  },
  checkProfile(context) {
    for (const { handler, field } of handlers(context.claudeCode)) {
      if (handler.node.kind !== 'object') continue;
      // A handler of an unknown type still has the common fields (`timeout`, `if`, …).
      const fields = handler.type && isHandlerType(handler.type) ? handlerFields(handler.type) : COMMON_FIELDS;
      for (const [name, spec] of Object.entries(fields)) {
        const found = field(name);
        if (!found || name === 'type') continue;
        const value = found.value;
        if (!matches(value, spec)) {
          if (spec.type === 'number' && value.kind === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value.value as string)) {
            context.report({ messageId: 'quotedNumber', data: { field: name, text: JSON.stringify(value.value) }, range: value.range });
          } else {
            context.report({ messageId: 'type', data: { field: name, expected: describe(spec), kind: kindOf(value) }, range: value.range });
          }
        } else if (spec.positive && value.kind === 'number' && (value.value as number) <= 0) {
          context.report({ messageId: 'positive', data: { field: name, value: String(value.value) }, range: value.range });
        } else if (name === 'shell' && value.kind === 'string' && !(SHELLS as readonly string[]).includes(value.value as string)) {
          context.report({ messageId: 'shell', data: { value: String(value.value) }, range: value.range });
        } else if (
          name === 'command' &&
          field('args') &&
          value.kind === 'string' &&
          /\s/.test(value.value as string) &&
          !/[\\/]/.test(value.value as string)
        ) {
          // The docs warn about this too: exec form spawns `command` as one executable name.
          context.report({ messageId: 'execWords', data: { value: String(value.value) }, range: value.range, severity: 'warning' });
        }
      }
    }
    for (const { group } of groups(context.claudeCode)) {
      const matcher = group.matcher;
      if (matcher && matcher.value.kind !== 'string' && matcher.value.kind !== 'null') {
        context.report({
          messageId: 'type',
          data: { field: 'matcher', expected: 'a string', kind: kindOf(matcher.value) },
          range: matcher.value.range,
        });
      }
    }
  },
});

function matches(value: PNode, spec: FieldSpec): boolean {
  switch (spec.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return value.kind === spec.type;
    case 'string[]':
      return value.kind === 'array' && value.items.every((item) => item.kind === 'string');
    case 'string-map':
      return value.kind === 'object' && value.entries.every((e) => e.value.kind === 'string');
    case 'object':
      return value.kind === 'object';
  }
}

function describe(spec: FieldSpec): string {
  switch (spec.type) {
    case 'string[]':
      return 'a list of strings';
    case 'string-map':
      return 'a mapping of names to strings';
    case 'object':
      return 'a mapping';
    case 'number':
      return 'a number of seconds';
    default:
      return `a ${spec.type}`;
  }
}
