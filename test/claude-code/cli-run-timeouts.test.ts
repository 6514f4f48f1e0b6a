import { describe, expect, it } from 'vitest';
import { needsSandbox, sandboxMissing } from '../executor/helpers.js';
import { cliRunHelpers } from './cli-run-helpers.js';

/**
 * `run TARGET --event …` end to end: how long Claude Code lets each handler
 * run (its `timeout`, an event's default, the budget SessionEnd handlers
 * share) and what a timeout decides.
 */

const { project, runJson } = cliRunHelpers('vah-cc-timeouts-');

describe.skipIf(sandboxMissing)('run --event: timeouts and budgets', () => {
  it(needsSandbox('stops a handler at its own timeout in seconds: it renders no decision, and the guard fails open'), async () => {
    const dir = project('slow', {
      '.claude/settings.json': JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sleep 20; echo late >&2; exit 2', timeout: 1 }] }] },
      }),
    });
    const report = await runJson(['run', '.claude/settings.json', '--event', 'PreToolUse', '--tool-input', '{"command":"rm -rf /"}'], dir);
    expect(report).toMatchObject({ blocked: false, decision: 'none' });
    expect(report.handlers[0]).toMatchObject({ ran: true, timedOut: true, timeoutSeconds: 1, exitCode: null });
    expect(report.problems.map((p) => p.ruleId)).toEqual(['claude-code-output/timed-out']);
  });

  it(needsSandbox('blocks a model switch when its PreModelSwitch handler times out'), async () => {
    const dir = project('model-switch', {
      '.claude/settings.json': JSON.stringify({
        hooks: { PreModelSwitch: [{ hooks: [{ type: 'command', command: 'sleep 20', timeout: 1 }] }] },
      }),
    });
    const report = await runJson(['run', '.claude/settings.json', '--event', 'PreModelSwitch'], dir);
    expect(report).toMatchObject({ blocked: true, decision: 'block' });
    expect(report.input).toMatchObject({ hook_event_name: 'PreModelSwitch', requested_model: 'opus', source: 'command' });
    expect(report.handlers[0]).toMatchObject({ ran: true, timedOut: true, timeoutSeconds: 1 });
  });

  it(needsSandbox('gives SessionEnd handlers the shared budget, and runs identical handlers once'), async () => {
    const dir = project('end', {
      '.claude/settings.json': JSON.stringify({
        hooks: {
          SessionEnd: [
            { hooks: [{ type: 'command', command: 'echo bye' }] },
            { matcher: 'other', hooks: [{ type: 'command', command: 'echo bye' }] },
          ],
          SessionStart: [{ hooks: [{ type: 'command', command: 'true', timeout: 5 }] }],
        },
      }),
    });
    const report = await runJson(['run', '.claude/settings.json', '--event', 'SessionEnd'], dir);
    expect(report.handlers).toHaveLength(1);
    expect(report.handlers[0]).toMatchObject({ ran: true, timeoutSeconds: 1.5, stdout: 'bye\n' });
    expect(report.notRun).toEqual([
      expect.objectContaining({ ran: false, why: expect.stringContaining('identical to SessionEnd[0].hooks[0]') }),
    ]);
    // The environment's CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS sets the budget instead, as Claude Code started there reads it.
    const set = await runJson(['run', '.claude/settings.json', '--event', 'SessionEnd'], dir, {
      CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '4000',
    });
    expect(set.handlers[0]).toMatchObject({ ran: true, timeoutSeconds: 4 });
  });
});
