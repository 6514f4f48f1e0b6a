import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClaudeCodeEvent } from '../../src/executor/claude-code.js';
import { createExecutorSession, type ExecutorSession } from '../../src/executor/session.js';
import type { ClaudeCodeHandler } from '../../src/runtimes/claude-code/handler.js';
import { buildEventInput } from '../../src/runtimes/claude-code/event-input.js';
import { needsSandbox, sandboxMissing, tempDir } from '../executor/helpers.js';

const range = { line: 3, column: 5, endLine: 3, endColumn: 20 };
let n = 0;
function handler(fields: Partial<ClaudeCodeHandler>, file = '/p/.claude/settings.json'): ClaudeCodeHandler {
  return { file, range, source: 'settings', event: 'PreToolUse', groupIndex: 0, handlerIndex: n++, type: 'command', ...fields };
}

describe.skipIf(sandboxMissing)('Claude Code handlers in the sandbox', () => {
  const { dir, remove } = tempDir('vah-cc-exec-');
  let session: ExecutorSession;
  beforeAll(async () => {
    mkdirSync(join(dir, '.claude', 'hooks'), { recursive: true });
    writeFileSync(
      join(dir, '.claude', 'hooks', 'guard.sh'),
      '#!/bin/sh\nread -r json\ncase "$json" in *"rm -rf"*) echo "refused: $json" >&2; exit 2;; esac\nexit 0\n',
      { mode: 0o755 },
    );
    session = await createExecutorSession({ workspaceSeed: dir });
  });
  afterAll(async () => {
    await session.close();
    remove();
  });
  const input = (command: string) =>
    buildEventInput({ event: 'PreToolUse', tool: 'Bash', toolInput: { command }, projectDir: '/workspace', homeDir: '/home/agent' });

  it(needsSandbox('gives the event JSON on stdin and CLAUDE_PROJECT_DIR at the sandbox copy, via sh -c'), async () => {
    const handlers = [
      handler({ matcher: 'Bash', command: 'cat; echo "dir=$CLAUDE_PROJECT_DIR $0" >&2; ls "$CLAUDE_PROJECT_DIR/.claude/hooks" >&2' }),
    ];
    const { input: stdin, matcherValue } = input('ls');
    const report = await runClaudeCodeEvent(session, handlers, { event: 'PreToolUse', input: stdin, matcherValue, projectRoot: dir });
    const run = report.handlers[0]!;
    expect(run.ran).toBe(true);
    if (!run.ran) return;
    expect(JSON.parse(run.result.stdout)).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: '/workspace',
    });
    expect(run.result.stderr).toContain('dir=/workspace /bin/sh');
    expect(run.result.stderr).toContain('guard.sh');
    expect(run.result.sandbox.mode).toBe('bwrap');
  });

  it(needsSandbox('runs exec form without a shell, placeholders substituted'), async () => {
    const handlers = [handler({ command: '${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh', args: [] })];
    const { input: stdin, matcherValue } = input('rm -rf /');
    const report = await runClaudeCodeEvent(session, handlers, { event: 'PreToolUse', input: stdin, matcherValue, projectRoot: dir });
    expect(report).toMatchObject({ blocked: true, decision: 'deny' });
    expect(report.reason).toMatch(/^refused: /);
  });

  it(needsSandbox('runs the handlers of an event in parallel and merges deny over allow'), async () => {
    const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    const handlers = [handler({ command: `sleep 1; echo '${allow}'` }), handler({ command: 'sleep 1; echo nope >&2; exit 2' })];
    const { input: stdin, matcherValue } = input('ls');
    const report = await runClaudeCodeEvent(session, handlers, { event: 'PreToolUse', input: stdin, matcherValue, projectRoot: dir });
    expect(report.decision).toBe('deny');
    const runs = report.handlers.flatMap((h) => (h.ran ? [h.result] : []));
    // Each started before the other ended.
    expect(runs[0]!.startedAt).toBeLessThan(runs[1]!.startedAt + runs[1]!.durationMs);
    expect(runs[1]!.startedAt).toBeLessThan(runs[0]!.startedAt + runs[0]!.durationMs);
  });

  it(needsSandbox('says when it judged a cut-off stdout: a 2 MB deny is past the output cap'), async () => {
    const pad = 'x'.repeat(64);
    const command = `printf '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "'; yes ${pad} | head -c 2000000 | tr -d '\\n'; printf '"}}'`;
    const { input: stdin, matcherValue } = input('rm -rf /');
    const report = await runClaudeCodeEvent(session, [handler({ command })], {
      event: 'PreToolUse',
      input: stdin,
      matcherValue,
      projectRoot: dir,
    });
    const run = report.handlers[0]!;
    expect(run.ran).toBe(true);
    if (!run.ran) return;
    expect(run.result.limitsHit).toContain('output');
    const cut = run.verdict.problems.find((p) => p.id === 'output-cut');
    expect(cut?.message).toMatch(
      /^Unexpected stdout of \d+ bytes: this tool keeps the first \d+ and judged those; Claude Code reads the whole output/,
    );
  });

  it(needsSandbox('stops a handler at its timeout in seconds; it renders no decision'), async () => {
    const handlers = [handler({ command: 'sleep 30; exit 2', timeout: 1 })];
    const { input: stdin, matcherValue } = input('rm -rf /');
    const report = await runClaudeCodeEvent(session, handlers, { event: 'PreToolUse', input: stdin, matcherValue, projectRoot: dir });
    const run = report.handlers[0]!;
    expect(run.ran && run.result.timedOut).toBe(true);
    expect(report).toMatchObject({ blocked: false, decision: 'none' });
  });
});
