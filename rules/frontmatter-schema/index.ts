import type { ErrorObject } from 'ajv';
import { defineRule } from '../../src/engine/rule.js';
import { nodeAtPath, nodeRange, rootMap } from '../../src/profile/profile.js';
import { sourceOf } from '../../src/runtimes/claude-code/config.js';
import { validate } from '../../src/schema/generated/profile-validator.js';

/**
 * Checks the frontmatter against `schemas/profile.schema.json` (compiled ahead
 * of time) and places each finding on the YAML node it is about. Unknown hook
 * names and hooks that are not scripts have rules of their own with better
 * messages, so their schema errors are left to those rules.
 */
export default defineRule({
  id: 'frontmatter-schema',
  meta: {
    description: 'The frontmatter does not match the profile schema (types, required keys, allowed values).',
    severity: 'error',
    category: 'frontmatter',
  },
  messages: {
    required: 'Expected the frontmatter to have `{{property}}`.',
    type: 'Invalid `{{path}}`: expected {{expected}}.',
    enum: 'Invalid `{{path}}`: expected one of {{expected}}.',
    oneOf: 'Invalid `{{path}}`: expected {{expected}}.',
    other: 'Invalid `{{path}}`: {{detail}}.',
  },
  checkProfile(context) {
    const { profile } = context;
    const data = profile.frontmatter?.data;
    const root = rootMap(profile);
    if (data === undefined || data === null || !profile.frontmatter) return;
    if (typeof data !== 'object' || Array.isArray(data) || !root) {
      const range = nodeRange(profile, profile.frontmatter.doc.contents) ?? profile.lines.rangeOf(0, 3);
      context.report({ messageId: 'type', data: { path: 'frontmatter', expected: 'a mapping of keys to values' }, range });
      return;
    }
    if (validate(data)) return;
    // A slash command (`.claude/commands/x.md`, a plugin's commands/) is named by its file: no `name` to require.
    const command = sourceOf(profile.path).source === 'command';
    for (const error of relevantErrors(validate.errors ?? [])) {
      if (command && error.keyword === 'required' && error.params.missingProperty === 'name') continue;
      const segments = error.instancePath
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      const path = segments.join('.') || 'frontmatter';
      const { node, pair } = nodeAtPath(root, segments);
      const range = nodeRange(profile, node) ?? nodeRange(profile, pair?.key) ?? profile.lines.rangeOf(0, 3);
      switch (error.keyword) {
        case 'required':
          context.report({
            messageId: 'required',
            data: { property: String(error.params.missingProperty) },
            range: profile.lines.rangeOf(0, 3),
          });
          break;
        case 'type':
          context.report({ messageId: 'type', data: { path, expected: describeType(error.params.type) }, range });
          break;
        case 'enum':
          context.report({
            messageId: 'enum',
            data: { path, expected: (error.params.allowedValues as unknown[]).map((v) => `\`${String(v)}\``).join(', ') },
            range,
          });
          break;
        case 'oneOf':
          context.report({ messageId: 'oneOf', data: { path, expected: describeOneOf(error, validate.errors ?? []) }, range });
          break;
        default:
          context.report({ messageId: 'other', data: { path, detail: error.message ?? error.keyword }, range });
      }
    }
  },
});

const HOOK_VALUE = /^\/hooks\/(?:lifecycle\/)?[^/]+$|^\/lifecycle\/[^/]+$/;

function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const oneOfPaths = new Set(errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
  return errors.filter((error) => {
    if (error.keyword === 'additionalProperties' && /^\/hooks(\/lifecycle)?$/.test(error.instancePath)) return false;
    // Claude Code's events (PascalCase keys) have rules of their own that place each finding on its key or value.
    if (/^\/hooks\/[A-Z]/.test(error.instancePath)) return false;
    if (error.keyword === 'type' && HOOK_VALUE.test(error.instancePath) && error.params.type === 'string') return false;
    // A oneOf explains itself; its branches' errors would only repeat it.
    if (error.keyword !== 'oneOf' && oneOfPaths.has(error.instancePath) && error.schemaPath.includes('/oneOf/')) return false;
    return true;
  });
}

function describeType(type: unknown): string {
  const names: Record<string, string> = {
    string: 'a string',
    array: 'a list',
    object: 'a mapping',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    null: 'nothing',
  };
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => names[String(t)] ?? String(t)).join(' or ');
}

function describeOneOf(error: ErrorObject, all: ErrorObject[]): string {
  const branches = all.filter(
    (e) => e.instancePath === error.instancePath && e.schemaPath.startsWith(error.schemaPath.replace(/\/oneOf$/, '/oneOf/')),
  );
  const parts = branches.map((e) =>
    e.keyword === 'enum'
      ? `one of ${(e.params.allowedValues as unknown[]).map((v) => `\`${String(v)}\``).join(', ')}`
      : e.keyword === 'type'
        ? describeType(e.params.type)
        : (e.message ?? e.keyword),
  );
  return [...new Set(parts)].join(', or ') || 'a different kind of value';
}
