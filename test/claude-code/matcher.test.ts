import { describe, expect, it } from 'vitest';
import { selectHandlers } from '../../src/executor/claude-code.js';
import { matcherForm, matcherMatches } from '../../src/runtimes/claude-code/matcher.js';

describe('Claude Code matchers (§2.3)', () => {
  it.each([
    [undefined, 'Bash', true],
    ['', 'Bash', true],
    ['*', 'mcp__memory__create', true],
    ['Bash', 'Bash', true],
    ['Bash', 'bash', false],
    ['Bash', 'BashOutput', false],
    ['Edit|Write', 'Edit', true],
    ['Edit|Write', 'Write', true],
    ['Edit|Write', 'Bash', false],
    ['Edit|Write', 'NotebookEdit', false],
    ['Edit, Write', 'Write', true],
    [' Edit | Write ', 'Edit', true],
    ['Edit.*', 'NotebookEdit', true],
    ['^Edit$', 'NotebookEdit', false],
    ['^Edit$', 'Edit', true],
    ['mcp__memory__.*', 'mcp__memory__create_entities', true],
    ['mcp__memory', 'mcp__memory__create_entities', false],
    ['mcp__brave-search', 'mcp__brave-search', true],
    ['code-reviewer', 'senior-code-reviewer', false],
    ['Notebook.*|Bash', 'Bash', true],
    ['(unclosed', 'Bash', false],
  ])('matcher %j against %j on PreToolUse: %s', (matcher, value, expected) => {
    expect(matcherMatches(matcher, 'PreToolUse', value)).toBe(expected);
  });

  it('ignores a matcher on an event that takes none', () => {
    expect(matcherMatches('Bash', 'Stop', undefined)).toBe(true);
    expect(matcherForm('Bash', 'UserPromptSubmit')).toEqual({ kind: 'all', why: 'event-takes-no-matcher' });
  });

  it('reads FileChanged and StopFailure with the narrower exact set', () => {
    expect(matcherForm('.envrc|.env', 'FileChanged').kind).toBe('regex');
    expect(matcherForm('rate_limit|overloaded', 'StopFailure')).toEqual({ kind: 'exact', names: ['rate_limit', 'overloaded'] });
    // A comma is a regex character there, not a separator.
    expect(matcherMatches('rate_limit,overloaded', 'StopFailure', 'overloaded')).toBe(false);
    expect(matcherMatches('rate_limit,overloaded', 'PreCompact', 'overloaded')).toBe(true);
  });
});

describe('selecting handlers', () => {
  const handler = (matcher: string) => ({
    file: '/p/.claude/settings.json',
    range: { line: 1, column: 1, endLine: 1, endColumn: 2 },
    source: 'settings' as const,
    event: 'PreToolUse',
    groupIndex: 0,
    handlerIndex: 0,
    type: 'command',
    command: 'true',
    matcher,
  });

  it('says how a matcher that did not match was read, and what a bare MCP server name should be', () => {
    const { selected, unmatched } = selectHandlers([handler('mcp__memory')], 'PreToolUse', {}, 'mcp__memory__create_entities');
    expect(selected).toEqual([]);
    expect(unmatched[0]!.why).toBe(
      'matcher "mcp__memory" does not match "mcp__memory__create_entities" (exact: mcp__memory); a bare MCP server name matches no tool: write mcp__memory__.*',
    );
  });
});
