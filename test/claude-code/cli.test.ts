import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';
import type { LintResult } from '../../src/diagnostics.js';

/**
 * Claude Code projects end to end through the CLI, as a user runs it
 * (`--all --root DIR`): what is found, where findings land (exact file line
 * and column, also inside JSON strings), exit codes, and the exact output of
 * every format (`UPDATE_GOLDEN=1` rewrites test/golden/claude-code-*; review
 * the diff). ShellCheck is off so the outputs do not depend on its version.
 */
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-code');
const GOLDEN = join(import.meta.dirname, '..', 'golden');

async function lint(root: string, ...extra: string[]): Promise<{ code: number; out: string; err: string }> {
  // Outside any repository (git stops at the ceiling), SARIF and annotation paths are from the fixtures' directory wherever the checkout is.
  const io = memoryIO({ cwd: FIXTURES, env: { NO_COLOR: '1', GIT_CEILING_DIRECTORIES: dirname(FIXTURES) } });
  const code = await main(['--all', '--root', root, '--no-shellcheck', ...extra], io);
  return { code, out: io.out(), err: io.err() };
}

async function results(root: string): Promise<LintResult[]> {
  const { out } = await lint(root, '-f', 'json');
  return JSON.parse(out).map((r: { filePath: string; messages: LintResult['diagnostics'] }) => ({
    filePath: r.filePath.slice(FIXTURES.length + 1),
    // The json format is ESLint's: severity 2 is an error, 1 a warning.
    diagnostics: r.messages,
  }));
}

/** 1-based line and column of the first occurrence of `needle` in a fixture file. */
function at(file: string, needle: string, occurrence = 0): { line: number; column: number } {
  const text = readFileSync(join(FIXTURES, file), 'utf8');
  let offset = -1;
  for (let i = 0; i <= occurrence; i++) offset = text.indexOf(needle, offset + 1);
  expect(offset, `${needle} in ${file}`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

function finding(all: LintResult[], file: string, ruleId: string) {
  const found = all.find((r) => r.filePath === file)?.diagnostics.filter((d) => d.ruleId === ruleId) ?? [];
  expect(found.length, `${ruleId} in ${file}`).toBeGreaterThan(0);
  return found;
}

describe('a Claude Code project through the CLI', () => {
  it('--all finds settings, local settings, agents, skills and the scripts hooks run', async () => {
    const { out } = await lint('project', '-f', 'json');
    const files = JSON.parse(out).map((r: { filePath: string }) => r.filePath.slice(FIXTURES.length + 1));
    expect(files).toEqual([
      'project/.claude/agents/reviewer.md',
      'project/.claude/settings.json',
      'project/.claude/skills/format/SKILL.md',
      'project/.claude/hooks/guard.sh',
    ]);
  });

  it('puts each finding at its exact file line and column, inside JSON strings and YAML scalars', async () => {
    const all = await results('project');
    const settings = 'project/.claude/settings.json';
    expect(finding(all, settings, 'cc-stdin-untrusted')[0]).toMatchObject({ ...at(settings, '\\"$(jq'), severity: 2 });
    expect(finding(all, settings, 'command-sudo')[0]).toMatchObject({ ...at(settings, 'sudo rm'), severity: 2 });
    const rm = finding(all, settings, 'command-rm-rf')[0]!;
    expect(rm).toMatchObject({ ...at(settings, 'rm -rf'), severity: 2 });
    // The range ends where the command does in the file: past `\"$TMPDIR\"/build`, escapes included.
    expect(rm.endColumn).toBe(at(settings, '/build').column + '/build'.length);
    expect(finding(all, settings, 'cc-event-unknown')[0]).toMatchObject({ ...at(settings, '"PostToolUsage"'), severity: 2 });
    expect(finding(all, settings, 'cc-event-unknown')[0]!.message).toContain('Did you mean `PostToolUse`?');
    expect(finding(all, settings, 'cc-handler-type-unknown')[0]).toMatchObject({ ...at(settings, '"comand"'), severity: 2 });
    expect(finding(all, settings, 'cc-handler-field-type')[0]).toMatchObject({ ...at(settings, '"30"'), severity: 2 });
    expect(finding(all, settings, 'cc-timeout-milliseconds')[0]).toMatchObject({ ...at(settings, '5000'), severity: 1 });
    expect(finding(all, settings, 'cc-matcher-mcp-server')[0]).toMatchObject({ ...at(settings, '"mcp__memory"'), severity: 1 });
    expect(finding(all, settings, 'cc-script-missing')[0]).toMatchObject({
      ...at(settings, '\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/no-such'),
      severity: 2,
    });
    const agent = 'project/.claude/agents/reviewer.md';
    expect(finding(all, agent, 'cc-stdin-untrusted')[0]).toMatchObject({ ...at(agent, '"$cmd --dry-run"'), severity: 2 });
    const guard = 'project/.claude/hooks/guard.sh';
    expect(finding(all, guard, 'cc-exit-not-blocking')[0]).toMatchObject({ ...at(guard, 'exit 1', 1), severity: 1 });
  });

  it('gives no claude-flow advice about Claude Code hooks', async () => {
    const { out } = await lint('project');
    expect(out).not.toMatch(/on_blocking_start|hook-not-script|hook-name-unknown|swarm|5-second/);
  });

  it('exits 1 on errors, and 0 with no finding at all on a clean project', async () => {
    expect((await lint('project')).code).toBe(1);
    const clean = await lint('clean');
    expect(clean).toMatchObject({ code: 0, out: '' });
    const { out } = await lint('clean', '-f', 'json');
    expect(JSON.parse(out).map((r: { filePath: string }) => r.filePath.slice(FIXTURES.length + 1))).toEqual([
      'clean/.claude/agents/tester.md',
      'clean/.claude/settings.json',
      'clean/.claude/settings.local.json',
      'clean/.claude/skills/lint/SKILL.md',
      'clean/.claude/hooks/block-force-push.sh',
    ]);
  });

  it('reads a plugin: manifest, hooks file, agents, and the scripts its hooks run', async () => {
    const all = await results('plugin');
    expect(all.map((r) => r.filePath)).toEqual([
      'plugin/agents/helper.md',
      'plugin/hooks/hooks.json',
      'plugin/.claude-plugin/plugin.json',
      'plugin/scripts/lockfile-guard.sh',
      // The exec-form handler's Node program, read for its fields, exits and outputs: it has none.
      'plugin/scripts/audit.js',
    ]);
    expect(all.find((r) => r.filePath === 'plugin/scripts/audit.js')!.diagnostics).toEqual([]);
    expect(finding(all, 'plugin/agents/helper.md', 'cc-plugin-agent-hooks')).toHaveLength(1);
    expect(finding(all, 'plugin/.claude-plugin/plugin.json', 'cc-handler-type-unsupported')).toHaveLength(1);
    expect(finding(all, 'plugin/scripts/lockfile-guard.sh', 'cc-stdout-before-json')[0]).toMatchObject(
      at('plugin/scripts/lockfile-guard.sh', 'echo "checking'),
    );
    // Exec form: `node` with an existing script is not a shell command and not missing.
    expect(
      all
        .find((r) => r.filePath === 'plugin/hooks/hooks.json')!
        .diagnostics.map((d) => d.ruleId)
        .sort(),
    ).toEqual(['cc-path-unquoted', 'cc-script-missing']);
  });

  it('names the file for bad JSON with a position, and never crashes', async () => {
    const io = memoryIO({ cwd: FIXTURES, env: { NO_COLOR: '1' } });
    const code = await main(['--no-shellcheck', '../rules/json-syntax/invalid.json'], io);
    expect(code).toBe(1);
    expect(io.out()).toMatch(/5:\d+\s+error\s+Invalid JSON/);
  });

  for (const [format, suffix] of [
    ['stylish', 'txt'],
    ['json', 'json'],
    ['sarif', 'sarif.json'],
    ['github', 'github.txt'],
    ['lsp', 'lsp.json'],
  ] as const) {
    it(`golden ${format} output`, async () => {
      const { out } = await lint('project', '-f', format);
      const normalised = out
        .split(FIXTURES)
        .join('<fixtures>')
        .replace(/"version": "[^"]+"/g, '"version": "<version>"');
      const golden = join(GOLDEN, `claude-code-project.${suffix}`);
      if (process.env.UPDATE_GOLDEN || !existsSync(golden)) writeFileSync(golden, normalised);
      expect(normalised).toBe(readFileSync(golden, 'utf8'));
    });
  }
});
