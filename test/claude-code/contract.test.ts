import { describe, expect, it } from 'vitest';
import {
  defaultTimeoutSeconds,
  EVENT_NAMES,
  eventSpec,
  exactMatcherNames,
  handlerFields,
  handlerTimeoutSeconds,
  isMcpServerOnly,
  matcherForm,
  sessionEndOverrideMs,
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
    // PreModelSwitch: 30 s by default (§9).
    expect(defaultTimeoutSeconds('command', 'PreModelSwitch')).toBe(30);
  });

  it('shares one SessionEnd budget: 1.5 s, raised by settings-file timeouts to 60 s, or what the environment sets (§2.4, §9)', () => {
    const settings = { source: 'settings' as const };
    const plugin = { source: 'plugin-hooks' as const };
    expect(handlerTimeoutSeconds(settings, 'SessionEnd')).toBe(1.5);
    expect(handlerTimeoutSeconds(settings, 'SessionEnd', [settings, { ...settings, timeout: 20 }])).toBe(20);
    expect(handlerTimeoutSeconds(settings, 'SessionEnd', [{ ...settings, timeout: 600 }])).toBe(60);
    expect(handlerTimeoutSeconds(plugin, 'SessionEnd', [{ ...plugin, timeout: 20 }])).toBe(1.5);
    // CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS wins, for handlers with a timeout and without one (v2.1.268), with no ceiling.
    expect(handlerTimeoutSeconds(settings, 'SessionEnd', [settings], 5000)).toBe(5);
    expect(handlerTimeoutSeconds({ ...settings, timeout: 20 }, 'SessionEnd', [{ ...settings, timeout: 20 }], 90_000)).toBe(90);
    // Other events keep their own timeouts.
    expect(handlerTimeoutSeconds({ ...settings, timeout: 7 }, 'Stop', undefined, 5000)).toBe(7);
    expect(sessionEndOverrideMs({ CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: ' 2500 ' })).toBe(2500);
    for (const value of [undefined, '', '0', '-5', '1e3', 'ten', '10s'])
      expect(sessionEndOverrideMs({ CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: value })).toBeUndefined();
  });

  it('keeps claude-flow facts reachable beside it', () => {
    expect(claudeFlow.RUNTIME_ID).toBe('claude-flow');
    expect(claudeFlow.BLOCKING_HOOKS).toContain('on_blocking_start');
  });
});

describe('the profile schema', () => {
  it('describes every Claude Code event and handler type of the contract, for editor completion', async () => {
    const { readFileSync } = await import('node:fs');
    const schema = JSON.parse(readFileSync(new URL('../../schemas/profile.schema.json', import.meta.url), 'utf8'));
    for (const name of EVENT_NAMES) expect(schema.properties.hooks.properties[name]?.$ref).toBe('#/definitions/claudeCodeGroups');
    const { HANDLER_TYPES } = await import('../../src/runtimes/claude-code/contract.js');
    expect(schema.definitions.claudeCodeHandler.properties.type.enum).toEqual(HANDLER_TYPES);
  });
});

describe('cc-exit-not-blocking decides what a refusal is', () => {
  it('reports conditional exits, not a script giving up unconditionally or a background hook', async () => {
    const { lintInputs } = await import('../../src/engine/lint.js');
    const { rules } = await import('../../rules/index.js');
    const { defaultConfig } = await import('../../src/engine/config.js');
    const lint = async (text: string, calledBy: string[]) => {
      const [r] = await lintInputs([{ filePath: '/p/.claude/hooks/x.sh', text, calledBy }], { rules, config: defaultConfig() });
      return r!.diagnostics.filter((d) => d.ruleId === 'cc-exit-not-blocking').map((d) => d.line);
    };
    const script = '#!/bin/bash\nif grep -q x; then\n  exit 1\nfi\ncase "$1" in a) exit 4 ;; esac\necho "no python" >&2\nexit 1\n';
    expect(await lint(script, ['PreToolUse'])).toEqual([3, 5]);
    expect(await lint(script, ['PostToolUse'])).toEqual([]);
    expect(await lint('if true; then exit 2; fi\n', ['PermissionRequest'])).toEqual([1]);
  });
});

describe('cc-once-ignored (§1.3, §2.4: `once` is honoured only in skill frontmatter)', () => {
  // A test, not a file under fixtures/: a new fixture shifts the seeded edits of test/lsp-incremental.test.ts.
  it('reports `once` in slash-command and agent frontmatter, not in a skill', async () => {
    const { lintInputs } = await import('../../src/engine/lint.js');
    const { rules } = await import('../../rules/index.js');
    const { defaultConfig } = await import('../../src/engine/config.js');
    const text =
      '---\nname: deploy\ndescription: Deploy.\nhooks:\n  PostToolUse:\n    - hooks:\n        - type: command\n          command: echo done\n          once: true\n---\nBody.\n';
    const lint = async (filePath: string) => {
      const [r] = await lintInputs([{ filePath, text }], { rules, config: defaultConfig() });
      return r!.diagnostics.filter((d) => d.ruleId === 'cc-once-ignored').map((d) => `${d.line} ${d.message}`);
    };
    expect(await lint('/p/.claude/commands/deploy.md')).toEqual([
      '9 Unexpected `once` in slash-command frontmatter: Claude Code honours it only in skill frontmatter, so this hook runs every time.',
    ]);
    expect(await lint('/p/.claude/agents/deploy.md')).toHaveLength(1);
    expect(await lint('/p/.claude/skills/deploy/SKILL.md')).toEqual([]);
  });
});
