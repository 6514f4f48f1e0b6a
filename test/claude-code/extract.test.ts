import { describe, expect, it } from 'vitest';
import { hookEntries } from '../../src/hooks/extract.js';
import { ScriptSourceMap } from '../../src/hooks/source-map.js';
import { MAX_JSON_DEPTH, profileFromText } from '../../src/profile/profile.js';
import { configScripts } from '../../src/runtimes/claude-code/config.js';
import { claudeCodeConfig } from '../../src/runtimes/claude-code/read.js';

/** File line and column of a script offset, through the hook's source map. */
function filePositionOf(text: string, path: string, needle: string, which = 0) {
  const profile = profileFromText(path, text);
  const scripts = configScripts(claudeCodeConfig(profile, { exists: () => false }));
  const script = scripts[which]!;
  const map = new ScriptSourceMap(script, profile.lines);
  const start = script.text.indexOf(needle);
  expect(start, `${needle} in ${JSON.stringify(script.text)}`).toBeGreaterThanOrEqual(0);
  const range = map.mapRange(map.scriptLines.rangeOf(start, start + needle.length));
  return { ...range, script };
}

/** Line and column of the n-th occurrence of a needle in the raw file text. */
function rawPosition(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

describe('Claude Code extraction', () => {
  it('maps JSON strings through \\", \\n, \\u00e9 and surrogate pairs to exact file columns', () => {
    const text = [
      '{',
      '  "hooks": {',
      '    "PreToolUse": [',
      '      {',
      '        "matcher": "Bash",',
      '        "hooks": [',
      '          { "type": "command", "command": "echo \\"caf\\u00e9 \\uD83D\\uDE00\\"\\nsudo rm -rf \\"$X\\"", "timeout": 5 }',
      '        ]',
      '      }',
      '    ]',
      '  }',
      '}',
    ].join('\n');
    const sudo = filePositionOf(text, '/p/.claude/settings.json', 'sudo rm -rf');
    expect(sudo.exact).toBe(true);
    expect(sudo.range).toMatchObject({ ...rawPosition(text, 'sudo rm'), endLine: 7 });
    expect(sudo.range.endColumn - sudo.range.column).toBe('sudo rm -rf'.length);
    expect(sudo.script.text).toBe('echo "café 😀"\nsudo rm -rf "$X"');
    expect(sudo.script.claudeCode).toMatchObject({
      event: 'PreToolUse',
      matcher: 'Bash',
      timeout: 5,
      form: 'shell',
      groupIndex: 0,
      handlerIndex: 0,
    });
    expect(sudo.script.runtime).toBe('claude-code');
    // A range across escapes is exact too: `"$X"` is `\"$X\"` in the file.
    const quoted = filePositionOf(text, '/p/.claude/settings.json', '"$X"');
    expect(quoted.exact).toBe(true);
    expect(quoted.range.column).toBe(rawPosition(text, '\\"$X').column);
    expect(quoted.range.endColumn).toBe(rawPosition(text, '$X\\"').column + 4);
    // After the surrogate pair (2 units, 12 file characters) columns still line up.
    const after = filePositionOf(text, '/p/.claude/settings.json', 'sudo');
    expect(after.range.column).toBe(rawPosition(text, 'sudo').column);
  });

  it('maps YAML plain, quoted and block scalars in agent frontmatter', () => {
    const text = [
      '---',
      'name: reviewer',
      'description: Reviews',
      'hooks:',
      '  PreToolUse:',
      '    - matcher: Bash',
      '      hooks:',
      '        - type: command',
      '          command: eval "$(jq -r .tool_input.command)"',
      '        - type: command',
      "          command: 'sudo ls'",
      '        - type: command',
      '          command: |',
      '            set -e',
      '            rm -rf $TMPDIR/x',
      '  on_blocking_start: |',
      '    echo hi',
      '---',
      '',
    ].join('\n');
    const path = '/p/.claude/agents/r.md';
    expect(filePositionOf(text, path, 'eval', 0).range).toMatchObject({ line: 9, column: 20 });
    expect(filePositionOf(text, path, 'sudo', 1).range).toMatchObject({ line: 11, column: 21 });
    expect(filePositionOf(text, path, 'rm -rf', 2).range).toMatchObject({ line: 15, column: 13 });
    // The same map holds a claude-flow hook: each runtime takes its own entries.
    const profile = profileFromText(path, text);
    expect(hookEntries(profile).map((e) => e.name)).toEqual(['on_blocking_start']);
    expect(claudeCodeConfig(profile)!.events.map((e) => e.name)).toEqual(['PreToolUse']);
  });

  it('decides the dialect per entry from its shape', () => {
    const text = '---\nname: a\nhooks:\n  pre_tool_use:\n    - hooks: []\n  pre: |\n    echo\n  PreToolUsage: []\n---\n';
    const profile = profileFromText('/p/a.md', text);
    expect(hookEntries(profile).map((e) => e.name)).toEqual(['pre']);
    expect(claudeCodeConfig(profile)!.events.map((e) => e.name)).toEqual(['pre_tool_use', 'PreToolUsage']);
  });

  it('knows exec form, the source kind and Stop in agent frontmatter', () => {
    const json = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"node","args":["x.js"]}]}]}}';
    const [script] = configScripts(claudeCodeConfig(profileFromText('/p/.claude/settings.local.json', json)));
    expect(script!.claudeCode).toMatchObject({
      form: 'exec',
      args: ['x.js'],
      source: 'settings-local',
      effectiveEvent: 'Stop',
      projectDir: '/p',
    });
    const md = '---\nname: a\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ./check.sh\n---\n';
    const [agent] = configScripts(claudeCodeConfig(profileFromText('/p/.claude/agents/a.md', md)));
    expect(agent!.claudeCode).toMatchObject({ source: 'agent', effectiveEvent: 'SubagentStop' });
  });

  it('reports bad JSON as a positioned finding, never a crash', () => {
    const profile = profileFromText('/p/.claude/settings.json', '{\n  "hooks": {,\n}');
    expect(profile.problems[0]).toMatchObject({ ruleId: 'json-syntax', line: 2, severity: 'error' });
  });

  it('places a trailing comma at the comma, not at the bracket lines below it, comments between or not', () => {
    const text = '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [] },\n\n    ]\n  }, /* note */\n  // end\n}';
    const profile = profileFromText('/p/.claude/settings.json', text);
    expect(profile.problems.map(({ line, column, endColumn, message }) => ({ line, column, endColumn, message }))).toEqual([
      { line: 4, column: 22, endColumn: 23, message: 'Invalid JSON: trailing comma (JSON.parse, which reads this file, rejects it).' },
      { line: 7, column: 4, endColumn: 5, message: 'Invalid JSON: trailing comma (JSON.parse, which reads this file, rejects it).' },
    ]);
    // A comma followed by another comma is not trailing: the parser's own words stay.
    const doubled = profileFromText('/p/.claude/settings.json', '{"hooks": {"Stop": [{"hooks": []},,{"hooks": []}]}}');
    expect(doubled.problems[0]).toMatchObject({ line: 1, column: 35, message: 'Invalid JSON: value expected.' });
  });

  it('reads a key written twice as JSON.parse does (the last wins) and reports the one it drops', () => {
    const text =
      '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[\n  {"type":"command","command":"echo a",\n   "command":"sudo rm -rf /"}]}]}}';
    const profile = profileFromText('/p/.claude/settings.json', text);
    expect(profile.problems).toEqual([
      expect.objectContaining({ ruleId: 'json-syntax', severity: 'error', line: 2, column: 21, endColumn: 30 }),
    ]);
    expect(profile.problems[0]!.message).toContain('Claude Code reads the last one (3:4)');
    const scripts = configScripts(claudeCodeConfig(profile, { exists: () => false }));
    expect(scripts.map((s) => s.text)).toEqual(['sudo rm -rf /']);
    // The same for a whole event list written twice.
    const twice = profileFromText(
      '/p/.claude/settings.json',
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo 1"}]}]},\n "hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo 2"}]}]}}',
    );
    expect(twice.problems.map((p) => [p.ruleId, p.line])).toEqual([['json-syntax', 1]]);
    expect(configScripts(claudeCodeConfig(twice, { exists: () => false })).map((s) => s.text)).toEqual(['echo 2']);
  });

  it('refuses JSON nested past the depth limit with a positioned finding, and reads nothing of it', () => {
    const deep = '{"x":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const profile = profileFromText('/p/.claude/settings.json', deep);
    expect(profile.problems).toEqual([expect.objectContaining({ ruleId: 'json-syntax', line: 1, column: 6 + MAX_JSON_DEPTH - 1 })]);
    expect(profile.json).toBeUndefined();
    // Brackets inside strings do not count.
    const quoted = profileFromText('/p/.claude/settings.json', JSON.stringify({ hooks: {}, note: '['.repeat(500) }));
    expect(quoted.problems).toEqual([]);
  });
});

describe('YAML quoted scalars map through their escapes', () => {
  it('a range across \\" in a double-quoted command is exact, and so is text after \\u00e9', () => {
    const text =
      '---\nname: a\ndescription: d\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: "echo \\"caf\\u00e9\\"; sudo rm -rf \\"$X\\""\n---\n';
    const quoted = filePositionOf(text, '/p/.claude/agents/a.md', '"$X"');
    expect(quoted.exact).toBe(true);
    expect(quoted.range).toMatchObject({ line: 8, column: rawPosition(text, '\\"$X').column - 0 });
    expect(quoted.range.endColumn).toBe(rawPosition(text, '$X\\"').column + 4);
    expect(filePositionOf(text, '/p/.claude/agents/a.md', 'sudo').range).toMatchObject({
      line: 8,
      column: rawPosition(text, 'sudo').column,
    });
  });

  it("a single-quoted command's '' is one quote", () => {
    const text =
      "---\nname: a\ndescription: d\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: 'echo ''a''; sudo ls'\n---\n";
    const sudo = filePositionOf(text, '/p/.claude/agents/a.md', "'a'; sudo");
    expect(sudo.exact).toBe(true);
    expect(sudo.range.column).toBe(rawPosition(text, "''a''").column);
  });
});
