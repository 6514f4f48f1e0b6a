// A script file that hooks run reads its callers' tool_input: the fields of the tools their matchers name.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintFiles } from '../../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'vah-caller-tools-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project whose settings run `.claude/hooks/guard.sh` from PreToolUse groups with these matchers; the findings in the script. */
async function scriptFindings(name: string, matchers: (string | undefined)[], commands: string[] = []): Promise<string[]> {
  const project = join(root, name);
  mkdirSync(join(project, '.claude', 'hooks'), { recursive: true });
  const groups = matchers.map((matcher, i) => ({
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: 'command', command: commands[i] ?? '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }],
  }));
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: groups } }, null, 2));
  const script = ['#!/bin/bash', "CMD=$(jq -r '.tool_input.cmd')", 'case "$CMD" in *rm*) exit 2 ;; esac', 'exit 0', ''].join('\n');
  writeFileSync(join(project, '.claude', 'hooks', 'guard.sh'), script, { mode: 0o755 });
  const results = await lintFiles([project], { shellcheck: false, cwd: project });
  const guard = results.find((r) => r.filePath.endsWith('guard.sh'));
  return (guard?.diagnostics ?? []).filter((d) => d.ruleId === 'cc-input-field-unknown').map((d) => `${d.line}:${d.column} ${d.message}`);
}

describe('tool_input fields of a script file, from the matchers of the hooks that run it', () => {
  it('a script run for Bash only: `.tool_input.cmd` is no field of a Bash call', async () => {
    const found = await scriptFindings('bash', ['Bash']);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^2:14 Unexpected `\.tool_input\.cmd`: `Bash` calls have no `cmd` in `tool_input`/);
  });

  it('run for Bash and for Edit: the fields of both', async () => {
    expect((await scriptFindings('two', ['Bash', 'Edit|Write']))[0]).toMatch(/`Bash`\/`Edit`\/`Write` calls have no `cmd`/);
  });

  it('given something else on stdin by every hook that runs it (a pipe, a redirection): not checked', async () => {
    const piped = 'jq -c \'.tool_input\' | "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh';
    const redirected = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh < .claude/sample.json';
    expect(await scriptFindings('piped', ['Bash'], [piped])).toEqual([]);
    expect(await scriptFindings('piped-both', ['Bash', 'Bash'], [piped, redirected])).toEqual([]);
    // One hook that hands it its own stdin is enough for the hook's input to be read there.
    expect(await scriptFindings('piped-one', ['Bash', 'Bash'], [piped])).toHaveLength(1);
    // `||` is no pipe.
    expect(await scriptFindings('or', ['Bash'], ['true || "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'])).toHaveLength(1);
  });

  it('run by a group that may call it for any tool: not checked', async () => {
    expect(await scriptFindings('any', ['Bash', undefined])).toEqual([]);
    expect(await scriptFindings('pattern', ['Bash', 'mcp__.*'])).toEqual([]);
  });
});
