import { defineRule } from '../../src/engine/rule.js';
import { exactMatcherNames, isMcpServerOnly, matcherForm } from '../../src/runtimes/claude-code/contract.js';
import { groups, stringValue } from '../../src/runtimes/claude-code/walk.js';

/**
 * MCP tools are named `mcp__<server>__<tool>`. A bare `mcp__memory` is an
 * exact matcher that names no tool, so it matches nothing (GH#44446); the
 * whole server is `mcp__memory__.*`.
 */
export default defineRule({
  id: 'cc-matcher-mcp-server',
  meta: {
    description: 'A Claude Code matcher names an MCP server (`mcp__memory`) without a tool: it matches nothing.',
    severity: 'warning',
    category: 'hooks',
    fixable: true,
  },
  messages: {
    serverOnly:
      'Unexpected matcher `{{name}}`: MCP tools are named `mcp__<server>__<tool>`, so it matches no tool and the hook never runs. Match the whole server with `{{name}}__.*`.',
  },
  checkProfile(context) {
    for (const { event, spec, group } of groups(context.claudeCode)) {
      const matcher = stringValue(group.matcher?.value);
      if (matcher === undefined || spec?.matcherField !== 'tool_name' || matcherForm(matcher, event.name) !== 'exact') continue;
      for (const name of exactMatcherNames(matcher, event.name)) {
        if (!isMcpServerOnly(name)) continue;
        const fixes =
          matcher === name
            ? [
                {
                  title: `Match every tool of the server: ${name}__.*`,
                  safe: false,
                  edits: [{ range: innerRange(group.matcher!.value.range, context), text: `${name}__.*` }],
                },
              ]
            : undefined;
        context.report({ messageId: 'serverOnly', data: { name }, range: group.matcher!.value.range, ...(fixes ? { fixes } : {}) });
      }
    }
  },
});

/** The value without its quotes, where it has them. */
function innerRange(
  range: import('../../src/diagnostics.js').Range,
  context: { profile: { source: { text: string }; lines: { offsetAt(p: { line: number; column: number }): number } } },
) {
  const first = context.profile.source.text[context.profile.lines.offsetAt(range)];
  return first === '"' || first === "'" ? { ...range, column: range.column + 1, endColumn: range.endColumn - 1 } : range;
}
