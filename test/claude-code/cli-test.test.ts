import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEEP_JSON_PLACEHOLDER } from '../../src/text/json-safe.js';
import type { TestJson } from '../../src/cli/test.js';
import { needsSandbox, sandboxMissing } from '../executor/helpers.js';
import { cliRunHelpers } from './cli-run-helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'fixtures', 'claude-code');

const { project, cli } = cliRunHelpers('vah-cc-test-');

const guardSettings = (command: string) =>
  JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }, null, 2);

const TABLE = `target: project/.claude/settings.json
cases:
  - name: blocks recursive deletion
    event: PreToolUse
    tool: Bash
    toolInput: { command: "rm -rf /" }
    blocked: true
    decision: deny
    reasonMatches: "rm -rf"
  - name: lets ls through
    event: PreToolUse
    tool: Bash
    toolInput: { command: "ls -la" }
    blocked: false
`;

describe.skipIf(sandboxMissing)('test FILE.yaml through the CLI', () => {
  const good = project('good', {
    'project/.claude/settings.json': guardSettings('"$CLAUDE_PROJECT_DIR"/guard.sh'),
    'project/guard.sh': '#!/bin/sh\nif grep -q "rm -rf"; then echo "refusing rm -rf" >&2; exit 2; fi\n',
    'cases.yaml': TABLE,
  });
  const bad = project('bad', {
    'project/.claude/settings.json': guardSettings('grep -q "rm -rf" && { echo "refusing rm -rf" >&2; exit 1; }; exit 0'),
    'cases.yaml': TABLE,
  });

  it(needsSandbox('reports a handler that prints JSON nested 150,000 levels deep, in JSON (no stack overflow)'), async () => {
    const deep = project('deep', {
      'project/.claude/settings.json': guardSettings(`perl -e 'print q({"a":) x 150000, 1, q(}) x 150000'`),
      'cases.yaml': TABLE,
    });
    const { code, out, err } = await cli(['test', 'cases.yaml', '--format', 'json'], deep);
    expect(err).not.toContain('internal error');
    expect(code).toBe(1);
    const report = JSON.parse(out) as {
      cases: Array<{ report: { handlers: Array<{ json: unknown; problems: Array<{ ruleId: string }> }> } }>;
    };
    const handler = report.cases[1]!.report.handlers[0]!;
    expect(JSON.stringify(handler.json)).toContain(DEEP_JSON_PLACEHOLDER);
    expect(handler.problems.map((p) => p.ruleId)).toContain('claude-code-output/json-too-deep');
  });

  it(needsSandbox("passes a correct guard's table: exit 0, one line per case"), async () => {
    const { code, out } = await cli(['test', 'cases.yaml'], good);
    expect(code).toBe(0);
    expect(out).toMatch(/^PASS {2}blocks recursive deletion {2}blocked \(deny\): "refusing rm -rf"$/m);
    expect(out).toMatch(/^PASS {2}lets ls through {2}not blocked \(none\)$/m);
    expect(out).toContain('2 passed, 0 failed');
  });

  it(needsSandbox("fails the exit-1 guard's table: exit 1, saying that only exit 2 blocks"), async () => {
    const { code, out } = await cli(['test', 'cases.yaml'], bad);
    expect(code).toBe(1);
    expect(out).toMatch(
      /^FAIL {2}blocks recursive deletion {2}cases\.yaml:3 {2}not blocked \(none\), expected blocked: the handler exited 1; only exit 2 or a deny decision blocks$/m,
    );
    expect(out).toMatch(/^PASS {2}lets ls through/m);
    expect(out).toContain('1 passed, 1 failed');
  });

  it(needsSandbox('fails a case whose decision or reason differs, saying what it got'), async () => {
    const dir = project('ask', {
      'project/.claude/settings.json': guardSettings(
        `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'confirm first' } })}'`,
      ),
      'cases.yaml': `target: project/.claude/settings.json
cases:
  - { name: asks, event: PreToolUse, toolInput: { command: ls }, blocked: false, decision: allow }
  - { name: reason, event: PreToolUse, toolInput: { command: ls }, blocked: false, reasonMatches: "^deny" }
`,
    });
    const { code, out } = await cli(['test', 'cases.yaml', '--format', 'json'], dir);
    expect(code).toBe(1);
    const json = JSON.parse(out) as TestJson;
    expect(json.cases.map((c) => c.message)).toEqual([
      'decision ask, expected allow: its JSON says ask',
      'reason "confirm first" does not match /^deny/',
    ]);
    expect(json.cases[0]!.report.handlers[0]).toMatchObject({ ran: true, decision: 'ask' });
  });

  // Red-teaming: `^(a+)+$` against 40 `a`s the hook printed held the host 80 s (2,000: past 400 s).
  it(needsSandbox("a reasonMatches that backtracks exponentially on the hook's stderr does not hold the host"), async () => {
    const dir = project('redos', {
      'project/.claude/settings.json': guardSettings(`printf '%s!' "$(head -c 2000 /dev/zero | tr '\\0' a)" >&2; exit 2`),
      'cases.yaml': `target: project/.claude/settings.json
cases:
  - { name: linear, event: PreToolUse, toolInput: { command: ls }, blocked: true, reasonMatches: "^(a+)+$" }
  - { name: backref, event: PreToolUse, toolInput: { command: ls }, blocked: true, reasonMatches: "^(a+)+\\\\1$" }
`,
    });
    const { code, out } = await cli(['test', 'cases.yaml', '--format', 'json'], dir);
    expect(code).toBe(1);
    expect((JSON.parse(out) as TestJson).cases.map((c) => c.message)).toEqual([
      expect.stringMatching(/^reason "a+…" does not match \/\^\(a\+\)\+\$\/$/),
      'reasonMatches /^(a+)+\\1$/ took over 1 s on the reason (a pattern that backtracks exponentially on it) and was stopped: not decided',
    ]);
  });

  it(needsSandbox('runs the shipped starter attack table: it passes the good guard and fails the exit-1 guard'), async () => {
    const table = join(FIXTURES, 'bash-guard-attacks.yaml');
    const passing = await cli(['test', table, '--format', 'json'], ROOT);
    expect(passing.code).toBe(0);
    const json = JSON.parse(passing.out) as TestJson;
    expect(json.failed).toBe(0);
    // Every category the issue names is in the table.
    const names = readFileSync(table, 'utf8');
    for (const category of ['Recursive deletion', 'Pipe to a shell', 'Secrets files', 'History rewrites', 'Disk tools'])
      expect(names).toContain(`# ${category}`);
    const failing = await cli(['test', table, '--target', 'fixtures/claude-code/bad-guard/.claude/settings.json'], ROOT);
    expect(failing.code).toBe(1);
    const blockedCases = json.cases.filter((c) => c.expected.blocked).length;
    expect(failing.out).toContain(`${json.cases.length - blockedCases} passed, ${blockedCases} failed`);
    expect(failing.out).toContain('(claude-code-output/exit-1-refusal)');
  });

  it(needsSandbox('reports failed cases as GitHub annotations and SARIF results at the case'), async () => {
    const github = await cli(['test', 'cases.yaml', '--format', 'github'], bad);
    expect(github.code).toBe(1);
    expect(github.out).toMatch(
      /^::error file=cases\.yaml,line=3,endLine=3,col=11,endColumn=36,title=claude-code-test-failed::blocks recursive deletion: not blocked/m,
    );
    expect(github.out).toMatch(/^::error file=project\/\.claude\/settings\.json,line=9,.*title=claude-code-output\/exit-1-refusal::/m);
    const sarif = await cli(['test', 'cases.yaml', '--format', 'sarif'], bad);
    const log = JSON.parse(sarif.out);
    expect(log.runs[0].tool.driver.rules).toHaveLength(2);
    for (const rule of log.runs[0].tool.driver.rules as Array<{ helpUri: string }>)
      expect(rule.helpUri).toMatch(/README\.md#running-and-testing-claude-code-hooks$/);
    const results = log.runs[0].results as Array<{
      ruleId: string;
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
    }>;
    expect(
      results.map((r) => [
        r.ruleId,
        r.locations[0]!.physicalLocation.artifactLocation.uri,
        r.locations[0]!.physicalLocation.region.startLine,
      ]),
    ).toEqual([
      ['claude-code-test-failed', 'cases.yaml', 3],
      ['claude-code-output/exit-1-refusal', 'project/.claude/settings.json', 9],
    ]);
  });
});

describe('test FILE.yaml: invalid tables', () => {
  const dir = project('invalid', { 'project/.claude/settings.json': guardSettings('true') });
  it.each([
    [
      'target: project/.claude/settings.json\ncases:\n  - name: x\n    event: PreToolUse\n',
      /^cases\.yaml:3:5: error: Expected `blocked` in cases\.0\.$/m,
    ],
    [
      'target: project/.claude/settings.json\ncases:\n  - name: x\n    event: preToolUse\n    blocked: true\n',
      /^cases\.yaml:4:12: error: Unknown event `preToolUse`: did you mean `PreToolUse`\?$/m,
    ],
    [
      'target: project/.claude/settings.json\ncases:\n  - name: x\n    event: Stop\n    tool: Bash\n    blocked: true\n',
      /^cases\.yaml:5:11: error: Unexpected `tool`: Stop is not a tool event\.$/m,
    ],
    [
      'target: project/.claude/settings.json\ncases:\n  - name: x\n    event: PreToolUse\n    blocked: true\n    reasonMatches: "("\n',
      /^cases\.yaml:6:20: error: Invalid `reasonMatches`: /m,
    ],
    [
      'target: project/.claude/settings.json\ncases:\n  - name: x\n    event: PreToolUse\n    blocked: true\n    expect: deny\n',
      /^cases\.yaml:6:5: error: Unexpected key `expect` in cases\.0\.$/m,
    ],
    [
      'target: project/.claude/settings.json\ncases:\n  - name: x\n    event: PreToolUse\n    blocked: false\n    decision: deny\n',
      /^cases\.yaml:5:14: error: Unexpected `blocked: false` with `decision: deny`/m,
    ],
    [
      'target: project/.claude/settings.json\ncases:\n  - name: x\n    event: Notification\n    blocked: true\n',
      /^cases\.yaml:5:14: error: Unexpected `blocked: true`: Notification cannot block\.$/m,
    ],
    [
      'target: nowhere.json\ncases:\n  - { name: x, event: PreToolUse, blocked: true }\n',
      /^cases\.yaml:1:9: error: Invalid `target` nowhere\.json: no such file/m,
    ],
    ['target: [unclosed\n', /^cases\.yaml:\d+:\d+: error: Invalid YAML/m],
  ])('%j', async (text, message) => {
    writeFileSync(join(dir, 'cases.yaml'), text);
    const { code, err } = await cli(['test', 'cases.yaml'], dir);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('documents the case format and its options', async () => {
    const { code, out } = await cli(['test', '--help'], dir);
    expect(code).toBe(0);
    for (const word of [
      'reasonMatches',
      'blocked: true',
      '--format',
      '--target',
      'github',
      'sarif',
      'schemas/claude-code-test.schema.json',
    ])
      expect(out).toContain(word);
  });
});

describe.skipIf(sandboxMissing)('test FILE.yaml: hostile text in a failed case', () => {
  it('prints a failed case whose clause quotes a matcher with C1 and bidi controls escaped', async () => {
    const dir = project('hostile-matcher', {
      'project/.claude/settings.json': JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Edit\u009b2J\u202e', hooks: [{ type: 'command', command: 'exit 2' }] }] },
      }),
      'cases.yaml':
        'target: project/.claude/settings.json\ncases:\n  - name: blocks\n    event: PreToolUse\n    tool: Bash\n    toolInput: { command: "ls" }\n    blocked: true\n',
    });
    const { out } = await cli(['test', 'cases.yaml'], dir);
    expect(out).toMatch(/FAIL/);
    expect(out).toContain('\\x9b');
    expect(out).not.toMatch(/[\u0080-\u009f\u202e]/);
  });
});
