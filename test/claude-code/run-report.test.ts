import { describe, expect, it } from 'vitest';
import { formatClaudeCodeRunHuman, type ClaudeCodeRunJson } from '../../src/executor/claude-code-report.js';
import { hasRawControl } from '../../src/text/control-chars.js';

const report = (input: Record<string, unknown>): ClaudeCodeRunJson => ({
  target: '.claude/settings.json',
  event: 'PreToolUse',
  matcherValue: null,
  blocked: false,
  decision: 'none',
  continue: true,
  input,
  handlers: [],
  notRun: [],
  unmatched: [],
  problems: [],
  sandbox: null,
});

describe('the human run report', () => {
  it('escapes a tool name given with control characters (--tool, a test table)', () => {
    const text = formatClaudeCodeRunHuman(report({ tool_name: 'Bash\u001b[2J\u009b2J', tool_input: { command: 'ls' } }));
    expect(hasRawControl(text.replace(/\n/g, ''))).toBe(false);
    expect(text).toContain('Bash\\x1b[2J');
  });
});
