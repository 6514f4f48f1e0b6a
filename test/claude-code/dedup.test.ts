import { describe, expect, it } from 'vitest';
import { selectHandlers } from '../../src/executor/claude-code.js';
import type { ClaudeCodeHandler } from '../../src/runtimes/claude-code/handler.js';
import type { HookSourceKind } from '../../src/runtimes/claude-code/contract.js';

/**
 * Deduplication as the current docs frame it (../shared/runtimes/
 * claude-code-hooks.md §3.3, §10.5, since 2026-08-05): an identical handler
 * defined in settings files runs once; a plugin's or skill's copy stays
 * separate, even two copies in one plugin hooks.json.
 */
const handler = (source: HookSourceKind, file: string, groupIndex: number, command = 'echo hi'): ClaudeCodeHandler => ({
  file,
  range: { line: 1, column: 1, endLine: 1, endColumn: 2 },
  source,
  event: 'PreToolUse',
  groupIndex,
  handlerIndex: 0,
  type: 'command',
  command,
});
const select = (handlers: ClaudeCodeHandler[]) => selectHandlers(handlers, 'PreToolUse', { tool_name: 'Bash' }, 'Bash');

describe('identical handlers (§3.3)', () => {
  it('run once when settings files define them, whichever settings file', () => {
    const { selected, notRun } = select([
      handler('settings', '/p/.claude/settings.json', 0),
      handler('settings-local', '/p/.claude/settings.local.json', 0),
      handler('settings', '/p/.claude/settings.json', 1),
    ]);
    expect(selected).toHaveLength(1);
    expect(notRun.map((n) => n.why)).toEqual([
      'identical to PreToolUse[0].hooks[0] in settings, which Claude Code runs once',
      'identical to PreToolUse[0].hooks[0] in settings, which Claude Code runs once',
    ]);
  });

  it("keep a plugin's, a skill's and an agent's copies separate, also two groups of one plugin hooks.json", () => {
    const { selected, notRun } = select([
      handler('plugin-hooks', '/p/hooks/hooks.json', 0),
      handler('plugin-hooks', '/p/hooks/hooks.json', 1),
      handler('skill', '/p/.claude/skills/x/SKILL.md', 0),
      handler('agent', '/p/.claude/agents/x.md', 0),
      handler('settings', '/p/.claude/settings.json', 0),
    ]);
    expect(selected).toHaveLength(5);
    expect(notRun).toEqual([]);
  });

  it('are not identical when the command differs', () => {
    const { selected } = select([handler('settings', '/a', 0), handler('settings', '/b', 0, 'echo other')]);
    expect(selected).toHaveLength(2);
  });
});
