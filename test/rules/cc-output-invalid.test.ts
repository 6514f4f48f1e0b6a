// cc-output-invalid reads the JSON a Claude Code hook prints as the shell prints it and places each
// finding on its key or value in the file: here in `.claude/settings.json`, where the command is a JSON
// string, so every position also crosses the JSON string's escapes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import rule from '../../rules/cc-output-invalid/index.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';
import { withReferencedScripts } from '../../src/runtimes/claude-code/expand.js';
import { MESSAGE_STYLE } from '../helpers/rule-tester.js';
import { accept, type Handler, reject } from './cc-output-invalid.cases.js';

/** A settings file on one line: a finding's column is where its needle first occurs in it. */
function settings(handlers: Handler[]): string {
  const hooks: Record<string, unknown[]> = {};
  for (const { event, command, ...flags } of handlers)
    (hooks[event] ??= []).push({ matcher: '*', hooks: [{ type: 'command', command, ...flags }] });
  return JSON.stringify({ hooks });
}

async function findings(text: string) {
  const config = defaultConfig();
  const [result] = await lintInputs([{ filePath: '/virtual/project/.claude/settings.json', text }], { rules: [rule], config });
  return result!.diagnostics.filter((d) => d.ruleId === rule.id);
}

/** The 1-based column of `needle` in the one-line file (after `from`, when the same text occurs earlier). */
function columnOf(text: string, needle: string, from = ''): number {
  const index = text.indexOf(needle, from ? text.indexOf(from) : 0);
  if (index < 0) throw new Error(`no ${needle} in ${text}`);
  return index + 1;
}

describe('cc-output-invalid', () => {
  it.each(reject)('rejects $name', async ({ handlers, expected }) => {
    const text = settings(handlers);
    const found = await findings(text);
    expect(found.map((d) => `${d.column} ${d.message}`)).toHaveLength(expected.length);
    expected.forEach((want, i) => {
      const d = found[i]!;
      expect(d.message).toMatch(want.message);
      expect(d.message).toMatch(MESSAGE_STYLE);
      expect(d.line).toBe(1);
      const column = columnOf(text, want.at, want.after);
      expect({ column: d.column, endColumn: d.endColumn }).toEqual({ column, endColumn: column + want.at.length });
      expect(d.severity).toBe(want.severity ?? 'error');
    });
  });

  it.each(accept)('accepts $name', async ({ handlers }) => {
    expect((await findings(settings(handlers))).map((d) => d.message)).toEqual([]);
  });

  it('judges a script several events run as the event its output names, else by what is wrong for every one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-cc-output-'));
    try {
      mkdirSync(join(dir, '.claude', 'hooks'), { recursive: true });
      const script = [
        'if [ "$(jq -r .hook_event_name)" = PreToolUse ]; then',
        `  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'`,
        // Judged as PreToolUse's output only: wrong there (PostToolUse would reject it for its name anyway).
        `  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "block"}}'`,
        'else',
        // Deprecated on PreToolUse, right on PostToolUse: not wrong for both.
        `  echo '{"decision": "block", "reason": "no"}'`,
        'fi',
        `echo '{"permissionDecision": "deny"}'`,
        // A branch for an event other settings may run the script on (user settings this lint does not see).
        `[ "$e" = PermissionRequest ] && echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}'`,
      ].join('\n');
      writeFileSync(join(dir, '.claude', 'hooks', 'guard.sh'), script);
      const command = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh';
      const path = join(dir, '.claude', 'settings.json');
      writeFileSync(
        path,
        settings([
          { event: 'PreToolUse', command },
          { event: 'PostToolUse', command },
        ]),
      );
      const inputs = await withReferencedScripts([{ filePath: path, bytes: readFileSync(path) }]);
      const results = await lintInputs(inputs, { rules: [rule], config: defaultConfig() });
      const guard = results.find((r) => r.filePath.endsWith('guard.sh'));
      expect(guard?.diagnostics.map((d) => `${d.line}:${d.column}-${d.endColumn} ${d.message.slice(0, 45)}`)).toEqual([
        '3:86-93 Invalid `permissionDecision` "block": expecte',
        '7:8-28 Unexpected `permissionDecision` at the top le',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves alone a script that every hook running it runs in the background', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-cc-output-'));
    try {
      mkdirSync(join(dir, '.claude', 'hooks'), { recursive: true });
      writeFileSync(join(dir, '.claude', 'hooks', 'notify.sh'), `echo '{"decision": "deny"}'\n`);
      const command = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/notify.sh';
      const path = join(dir, '.claude', 'settings.json');
      const lint = async (handlers: Handler[]) => {
        writeFileSync(path, settings(handlers));
        const inputs = await withReferencedScripts([{ filePath: path, bytes: readFileSync(path) }]);
        const results = await lintInputs(inputs, { rules: [rule], config: defaultConfig() });
        return results.find((r) => r.filePath.endsWith('notify.sh'))?.diagnostics.map((d) => d.message.slice(0, 40));
      };
      expect(
        await lint([
          { event: 'PreToolUse', command, async: true },
          { event: 'PreToolUse', command, asyncRewake: true },
        ]),
      ).toEqual([]);
      // Once one hook runs it in the foreground, its output is that hook's decision.
      expect(
        await lint([
          { event: 'PreToolUse', command, async: true },
          { event: 'PreToolUse', command },
        ]),
      ).toEqual(['Invalid `decision` "deny": PreToolUse de']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
