import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';

/**
 * hook-slow-command on Claude Code hooks: the budget is the handler's
 * `timeout` (seconds), else the documented default of its event (600 s for
 * most, 30 s for UserPromptSubmit), not claude-flow's 5 s.
 */
const root = mkdtempSync(join(tmpdir(), 'vah-cc-budget-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function handler(command: string, timeout?: number): unknown {
  return { type: 'command', command, ...(timeout !== undefined ? { timeout } : {}) };
}

describe('hook-slow-command on Claude Code hooks', () => {
  it("measures each handler against its own timeout or its event's default", async () => {
    mkdirSync(join(root, '.claude'), { recursive: true });
    const settings = {
      hooks: {
        PostToolUse: [
          { matcher: 'Edit', hooks: [handler('npm test', 10)] },
          { matcher: 'Write', hooks: [handler('npm run test:unit')] },
        ],
        UserPromptSubmit: [{ hooks: [handler('pytest -q')] }],
        Stop: [{ hooks: [handler('cargo test', 120)] }],
      },
    };
    const text = `${JSON.stringify(settings, null, 2)}\n`;
    writeFileSync(join(root, '.claude', 'settings.json'), text);
    const io = memoryIO({ cwd: root, env: { NO_COLOR: '1' } });
    await main(['--all', '--root', root, '--no-shellcheck', '-f', 'json'], io);
    const messages = (JSON.parse(io.out()) as Array<{ messages: Array<{ ruleId: string; line: number; column: number; message: string }> }>)
      .flatMap((r) => r.messages)
      .filter((m) => m.ruleId === 'hook-slow-command');
    const lineOf = (needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;
    // `npm test` (~30 s) against a 10 s timeout, and pytest against UserPromptSubmit's 30 s default.
    expect(messages.map((m) => m.line).sort((a, b) => a - b)).toEqual([lineOf('npm test'), lineOf('pytest -q')].sort((a, b) => a - b));
    expect(messages.find((m) => m.line === lineOf('npm test'))?.message).toContain('after 10 s');
    expect(messages.find((m) => m.line === lineOf('pytest -q'))?.message).toContain('after 30 s');
    // The finding sits on the command inside the JSON string.
    expect(messages.find((m) => m.line === lineOf('npm test'))?.column).toBe(
      text.split('\n')[lineOf('npm test') - 1]!.indexOf('npm test') + 1,
    );
  });

  it('gives SessionEnd hooks the shared budget: 1.5 s, raised by a settings-file timeout up to 60 s (§2.4)', async () => {
    const dir = join(root, 'session-end');
    mkdirSync(join(dir, '.claude'), { recursive: true });
    const settings = {
      hooks: {
        SessionEnd: [{ hooks: [handler('npm test')] }, { matcher: 'logout', hooks: [handler('cargo test', 600)] }],
      },
    };
    const text = `${JSON.stringify(settings, null, 2)}\n`;
    writeFileSync(join(dir, '.claude', 'settings.json'), text);
    const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1' } });
    await main(['--all', '--root', dir, '--no-shellcheck', '-f', 'json'], io);
    const messages = (JSON.parse(io.out()) as Array<{ messages: Array<{ ruleId: string; line: number; message: string }> }>)
      .flatMap((r) => r.messages)
      .filter((m) => m.ruleId === 'hook-slow-command');
    const lineOf = (needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;
    // No timeout: the 1.5 s budget, not the 600 s default. A 600 s timeout raises it to 60 s only.
    expect(messages.find((m) => m.line === lineOf('npm test'))?.message).toContain('after 1.5 s');
    expect(messages.find((m) => m.line === lineOf('cargo test'))?.message).toContain('after 60 s');
  });
});
