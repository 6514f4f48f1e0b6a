import { describe, expect, it } from 'vitest';
import {
  defaultTimeoutSeconds,
  EVENT_NAMES,
  eventSpec,
  exactMatcherNames,
  handlerFields,
  isMcpServerOnly,
  matcherForm,
} from '../../src/runtimes/claude-code/contract.js';
import * as claudeFlow from '../../src/runtimes/claude-flow/contract.js';

describe('Claude Code contract', () => {
  it('lists the 31 documented events plus the two model-switch events, case-sensitive', () => {
    expect(EVENT_NAMES).toHaveLength(33);
    expect(eventSpec('PreToolUse')).toMatchObject({ matcherField: 'tool_name', block: 'exit2-or-json', toolEvent: true });
    expect(eventSpec('preToolUse')).toBeUndefined();
    expect(eventSpec('PermissionRequest')!.block).toBe('json-only');
    expect(eventSpec('Stop')!.matcherField).toBeUndefined();
    expect(eventSpec('SessionStart')!.types).toEqual(['command', 'mcp_tool']);
    expect(eventSpec('Notification')!.types).not.toContain('prompt');
  });

  it('evaluates matchers as the docs say: all, exact lists, or unanchored regexes', () => {
    expect(matcherForm(undefined, 'PreToolUse')).toBe('all');
    expect(matcherForm('*', 'PreToolUse')).toBe('all');
    expect(matcherForm('Edit|Write', 'PreToolUse')).toBe('exact');
    expect(exactMatcherNames('Edit, Write', 'PreToolUse')).toEqual(['Edit', 'Write']);
    expect(matcherForm('mcp__memory__.*', 'PreToolUse')).toBe('regex');
    expect(matcherForm('code-reviewer', 'SubagentStart')).toBe('exact');
    expect(matcherForm('a-b', 'FileChanged')).toBe('regex');
    expect(isMcpServerOnly('mcp__memory')).toBe(true);
    expect(isMcpServerOnly('mcp__memory__read')).toBe(false);
  });

  it('gives handler fields and default timeouts in seconds', () => {
    expect(handlerFields('command').command).toEqual({ type: 'string', required: true });
    expect(handlerFields('mcp_tool').server!.required).toBe(true);
    expect(defaultTimeoutSeconds('command', 'PreToolUse')).toBe(600);
    expect(defaultTimeoutSeconds('command', 'UserPromptSubmit')).toBe(30);
    expect(defaultTimeoutSeconds('prompt', 'Stop')).toBe(30);
  });

  it('keeps claude-flow facts reachable beside it', () => {
    expect(claudeFlow.RUNTIME_ID).toBe('claude-flow');
    expect(claudeFlow.BLOCKING_HOOKS).toContain('on_blocking_start');
  });
});
