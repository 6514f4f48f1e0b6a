import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEEP_JSON_PLACEHOLDER } from '../../src/text/json-safe.js';
import type { ClaudeCodeRunJson } from '../../src/executor/claude-code-report.js';
import { needsSandbox, sandboxMissing } from '../executor/helpers.js';
import { cliRunHelpers } from './cli-run-helpers.js';

/**
 * `run TARGET --event …` end to end through the CLI, on projects written
 * here (not the shipped fixtures): settings, agent frontmatter, SKILL.md and
 * a plugin's hooks.json.
 */

const { root, project, cli, runJson } = cliRunHelpers('vah-cc-run-');

// A guard written the way users write them: jq-free POSIX sh reading the event from stdin.
const GUARD = `#!/bin/sh
input=$(cat)
case "$input" in
  *'"command":"rm -rf'*|*'"command":"sudo rm -rf'*) echo "no recursive deletion" >&2; exit 2 ;;
esac
exit 0
`;

describe.skipIf(sandboxMissing)('run --event through the CLI', () => {
  const guarded = project('guarded', {
    '.claude/settings.json': JSON.stringify(
      {
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/scripts/guard.sh' }] }],
          PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'echo "formatted" >&2; exit 2' }] }],
        },
      },
      null,
      2,
    ),
    'scripts/guard.sh': GUARD,
  });
  const settings = join(guarded, '.claude', 'settings.json');

  it(needsSandbox('reports a guard that exits 2 for rm -rf / as blocked: true, decision: deny, with stderr as the reason'), async () => {
    const report = await runJson(
      ['run', settings, '--event', 'PreToolUse', '--tool', 'Bash', '--tool-input', '{"command":"rm -rf /"}'],
      root,
    );
    expect(report).toMatchObject({ blocked: true, decision: 'deny', reason: 'no recursive deletion' });
    expect(report.handlers).toHaveLength(1);
    // No `timeout` in the handler: Claude Code's default for a command handler, 600 s.
    expect(report.handlers[0]).toMatchObject({
      ran: true,
      exitCode: 2,
      timedOut: false,
      timeoutSeconds: 600,
      position: { line: 9, column: 24 },
    });
  });

  it(
    needsSandbox('reports a handler whose stdout nests JSON 150,000 levels deep: the report is produced, deeper levels replaced'),
    async () => {
      const deep = project('deep', {
        '.claude/settings.json': JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `perl -e 'print q({"a":) x 150000, 1, q(}) x 150000'` }] }],
          },
        }),
      });
      const report = await runJson(
        ['run', join(deep, '.claude', 'settings.json'), '--event', 'PreToolUse', '--tool', 'Bash', '--tool-input', '{"command":"ls"}'],
        root,
      );
      expect(report).toMatchObject({ blocked: false, decision: 'none' });
      const handler = report.handlers[0]!;
      expect(handler.ran && JSON.stringify(handler.json)).toContain(DEEP_JSON_PLACEHOLDER);
      expect(handler.ran && handler.problems.map((p) => p.ruleId)).toContain('claude-code-output/json-too-deep');
    },
  );

  it(needsSandbox('lets ls through: not blocked, no decision'), async () => {
    const report = await runJson(['run', settings, '--event', 'PreToolUse', '--tool', 'Bash', '--tool-input', '{"command":"ls"}'], root);
    expect(report).toMatchObject({ blocked: false, decision: 'none' });
    expect(report.handlers[0]).toMatchObject({ ran: true, exitCode: 0 });
  });

  it(needsSandbox('does not run a PostToolUse handler with matcher Edit|Write for Bash, and runs it for Write'), async () => {
    const bash = await runJson(['run', settings, '--event', 'PostToolUse', '--tool', 'Bash'], root);
    expect(bash.handlers).toEqual([]);
    expect(bash.unmatched).toHaveLength(1);
    expect(bash.unmatched[0]!.why).toContain('"Edit|Write" does not match "Bash"');
    const write = await runJson(['run', settings, '--event', 'PostToolUse', '--tool', 'Write'], root);
    expect(write.handlers).toHaveLength(1);
    expect(write.handlers[0]).toMatchObject({ ran: true, exitCode: 2, stderr: 'formatted\n' });
    // Exit 2 after the tool ran feeds stderr back to Claude; it blocks nothing.
    expect(write).toMatchObject({ blocked: false, decision: 'block', reason: 'formatted' });
  });

  it(
    needsSandbox('reports a settings guard that exits 1 as not blocked, by exactly one handler, with the refusal as a problem'),
    async () => {
      const dir = project('exit-one', {
        '.claude/settings.json': JSON.stringify({
          hooks: {
            PreToolUse: [
              { matcher: 'Bash', hooks: [{ type: 'command', command: 'grep -q "rm -rf" && { echo "refused" >&2; exit 1; }; exit 0' }] },
            ],
          },
        }),
      });
      const report = await runJson(
        ['run', '.claude/settings.json', '--event', 'PreToolUse', '--tool-input', '{"command":"rm -rf /"}'],
        dir,
      );
      expect(report).toMatchObject({ blocked: false, decision: 'none' });
      expect(report.handlers).toHaveLength(1);
      expect(report.handlers[0]).toMatchObject({ ran: true, exitCode: 1, stderr: 'refused\n' });
      expect(report.problems.map((p) => p.ruleId)).toEqual(['claude-code-output/exit-1-refusal']);
      expect(report.problems[0]).toMatchObject({ file: '.claude/settings.json', line: 1 });
    },
  );

  it(needsSandbox('finds output problems: text before the JSON, the wrong level, a hookEventName that is not the event'), async () => {
    const deny = (name: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: name, permissionDecision: 'deny' } });
    const dir = project('noisy', {
      '.claude/settings.json': JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: 'command', command: `echo checking; echo '${deny('PreToolUse')}'` },
                { type: 'command', command: `echo '${JSON.stringify({ permissionDecision: 'deny' })}'` },
                { type: 'command', command: `echo '${deny('PostToolUse')}'` },
                { type: 'command', command: `echo '${JSON.stringify({ decision: 'approve' })}'` },
              ],
            },
          ],
        },
      }),
    });
    const report = await runJson(['run', '.claude/settings.json', '--event', 'PreToolUse'], dir);
    // None of the four denies: Claude Code would let the call through the normal flow, bar the deprecated approve.
    expect(report).toMatchObject({ blocked: false, decision: 'allow' });
    expect(report.problems.map((p) => p.ruleId.replace('claude-code-output/', ''))).toEqual([
      'text-before-json',
      'wrong-level',
      'event-name-mismatch',
      'deprecated-decision',
    ]);
  });

  it(needsSandbox('merges decisions across parallel handlers, deny over ask over allow'), async () => {
    const out = (decision: string) =>
      JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: decision },
      });
    const dir = project('merge', {
      '.claude/settings.json': JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${out('allow')}'` }] },
            { matcher: '*', hooks: [{ type: 'command', command: `echo '${out('ask')}'` }] },
            { matcher: 'Edit|Write', hooks: [{ type: 'command', command: `echo '${out('deny')}'` }] },
          ],
        },
      }),
    });
    const bash = await runJson(['run', '.claude/settings.json', '--event', 'PreToolUse'], dir);
    expect(bash).toMatchObject({ decision: 'ask', reason: 'ask', blocked: false });
    const edit = await runJson(['run', '.claude/settings.json', '--event', 'PreToolUse', '--tool', 'Edit'], dir);
    expect(edit).toMatchObject({ decision: 'deny', reason: 'deny', blocked: true });
  });

  it(needsSandbox('runs agent frontmatter hooks (Stop arrives as SubagentStop) and skill hooks'), async () => {
    const dir = project('frontmatter', {
      '.claude/agents/reviewer.md': `---
name: reviewer
description: Reviews
hooks:
  PreToolUse:
    - matcher: "Bash"
      hooks:
        - type: command
          command: "echo \\"agent guard\\" >&2; exit 2"
  Stop:
    - hooks:
        - type: command
          command: "cat"
---
Body.
`,
      '.claude/skills/deploy/SKILL.md': `---
name: deploy
description: Deploys
hooks:
  UserPromptSubmit:
    - hooks:
        - type: command
          command: 'printf "%s" "{\\"decision\\":\\"block\\",\\"reason\\":\\"not now\\"}"'
---
Skill.
`,
    });
    const agent = await runJson(['run', '.claude/agents/reviewer.md', '--event', 'PreToolUse'], dir);
    expect(agent).toMatchObject({ blocked: true, decision: 'deny', reason: 'agent guard' });
    expect(agent.handlers[0]!.position).toMatchObject({ file: '.claude/agents/reviewer.md', line: 9 });
    const stop = await runJson(['run', '.claude/agents/reviewer.md', '--event', 'SubagentStop'], dir);
    expect(stop.handlers).toHaveLength(1);
    const handler = stop.handlers[0]!;
    expect(handler.ran && JSON.parse(handler.stdout)).toMatchObject({ hook_event_name: 'SubagentStop', agent_type: 'reviewer' });
    const asStop = await cli(['run', '.claude/agents/reviewer.md', '--event', 'Stop', '--format', 'json'], dir);
    expect(asStop.err).toContain('Stop hooks in agent frontmatter run as SubagentStop');
    expect((JSON.parse(asStop.out) as ClaudeCodeRunJson).handlers).toHaveLength(1);
    const skill = await runJson(['run', '.claude/skills/deploy/SKILL.md', '--event', 'UserPromptSubmit'], dir);
    expect(skill).toMatchObject({ blocked: true, decision: 'block', reason: 'not now' });
    // UserPromptSubmit lowers the default to 30 s.
    expect(skill.handlers[0]).toMatchObject({ timeoutSeconds: 30 });
  });

  it(needsSandbox('gives plugin hooks CLAUDE_PLUGIN_ROOT and a writable CLAUDE_PLUGIN_DATA inside the sandbox'), async () => {
    const dir = project('plugin', {
      '.claude-plugin/plugin.json': '{"name":"my-plugin"}',
      'hooks/hooks.json': JSON.stringify({
        hooks: {
          SessionStart: [
            {
              matcher: 'startup',
              hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/bin/start.sh', args: ['${CLAUDE_PLUGIN_DATA}'] }],
            },
          ],
        },
      }),
      'bin/start.sh': '#!/bin/sh\necho ok > "$1/state" && echo "root=$CLAUDE_PLUGIN_ROOT data=$CLAUDE_PLUGIN_DATA $(cat "$1/state")"\n',
    });
    const report = await runJson(['run', 'hooks/hooks.json', '--event', 'SessionStart'], dir);
    const handler = report.handlers[0]!;
    expect(handler.ran).toBe(true);
    if (!handler.ran) return;
    expect(handler.argv).toContain('/workspace/bin/start.sh');
    expect(handler.stdout).toMatch(/^root=\/workspace data=\/home\/agent\/\.claude\/plugins\/data\/\S+ ok\n$/);
    const resume = await runJson(['run', 'hooks/hooks.json', '--event', 'SessionStart', '--matcher-value', 'resume'], dir);
    expect(resume.handlers).toEqual([]);
  });

  it(
    needsSandbox("gives every handler Claude Code's variables: the input's session id, CLAUDECODE, CLAUDE_CODE_CHILD_SESSION, CLAUDE_PID"),
    async () => {
      const dir = project('env', {
        '.claude/settings.json': JSON.stringify({
          hooks: {
            Stop: [
              {
                hooks: [
                  {
                    type: 'command',
                    command:
                      'echo "sid=$CLAUDE_CODE_SESSION_ID cc=$CLAUDECODE child=$CLAUDE_CODE_CHILD_SESSION pid=$CLAUDE_PID entry=${CLAUDE_CODE_ENTRYPOINT-unset}"; kill -0 "$CLAUDE_PID" && echo alive',
                  },
                ],
              },
            ],
          },
        }),
      });
      const report = await runJson(['run', '.claude/settings.json', '--event', 'Stop', '--input', '{"session_id":"abc-123"}'], dir);
      expect(report.input.session_id).toBe('abc-123');
      expect(report.handlers[0]).toMatchObject({ ran: true, stdout: 'sid=abc-123 cc=1 child=1 pid=1 entry=unset\nalive\n' });
    },
  );

  it(needsSandbox('gives hooks the ~/.claude and the transcript file Claude Code always has'), async () => {
    // Written the way users write them: a log under ~/.claude, a look at the transcript. A missing
    // directory or file fails with exit 2 (sh's redirection error, jq's file error): a block that
    // Claude Code would never see.
    const transcript = `tp=$(sed -n 's/.*"transcript_path":"\\([^"]*\\)".*/\\1/p'); test -f "$tp" || { echo "no $tp" >&2; exit 2; }`;
    const dir = project('home', {
      '.claude/settings.json': JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'cat >/dev/null; echo ran >> ~/.claude/bash-log.txt' }] },
            { matcher: 'Bash', hooks: [{ type: 'command', command: transcript }] },
          ],
        },
      }),
    });
    const report = await runJson(['run', '.claude/settings.json', '--event', 'PreToolUse', '--tool-input', '{"command":"ls"}'], dir);
    expect(report.handlers.map((h) => [h.exitCode, h.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    expect(report).toMatchObject({ blocked: false });
  });

  it(needsSandbox('lists http, prompt, agent and mcp_tool handlers as not run, with why'), async () => {
    const dir = project('kinds', {
      '.claude/settings.json': JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                { type: 'http', url: 'http://localhost:8080/hook' },
                { type: 'prompt', prompt: 'Is the work done? $ARGUMENTS' },
                { type: 'agent', prompt: 'Verify the tests pass' },
                { type: 'mcp_tool', server: 'memory', tool: 'save' },
              ],
            },
          ],
        },
      }),
    });
    const report = await runJson(['run', '.claude/settings.json', '--event', 'Stop'], dir);
    expect(report.handlers).toEqual([]);
    expect(report.notRun.map((h) => [h.type, h.ran])).toEqual([
      ['http', false],
      ['prompt', false],
      ['agent', false],
      ['mcp_tool', false],
    ]);
    for (const h of report.notRun) expect(h.why).toMatch(/network|model|MCP server/);
    // The human report names each of them and why, too.
    const human = (await cli(['run', '.claude/settings.json', '--event', 'Stop'], dir)).out;
    expect(human.match(/not run: .*(network|model|MCP server)/g)).toHaveLength(4);
  });

  it(needsSandbox('runs the handlers on a copy of the project: the original is untouched, and the trace records redis-cli'), async () => {
    const dir = project('untouched', {
      '.claude/settings.json': JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              hooks: [
                {
                  type: 'command',
                  command:
                    'rm -rf "$CLAUDE_PROJECT_DIR/src"; echo pwned > "$CLAUDE_PROJECT_DIR/marker"; redis-cli SET last-tool "$(cat | head -c 20)" >/dev/null; ls "$CLAUDE_PROJECT_DIR"',
                },
              ],
            },
          ],
        },
      }),
      'src/keep.txt': 'keep\n',
    });
    const report = await runJson(['run', '.claude/settings.json', '--event', 'PostToolUse'], dir);
    const handler = report.handlers[0]!;
    expect(handler.ran && handler.stdout).toBe('marker\n');
    expect(handler.ran && handler.operations.map((o) => o.kind)).toEqual(['redis']);
    expect(readFileSync(join(dir, 'src', 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(existsSync(join(dir, 'marker'))).toBe(false);
  });

  it(needsSandbox('runs user settings (~/.claude/settings.json) in the current project, not a copy of the home directory'), async () => {
    const home = project('home', {
      '.claude/settings.json': JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'ls "$CLAUDE_PROJECT_DIR"' }] }] },
      }),
      'private.txt': 'not for the sandbox\n',
    });
    const work = project('work', { 'app.js': '' });
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const report = await runJson(['run', join(home, '.claude', 'settings.json'), '--event', 'PreToolUse'], work);
      expect(report.handlers[0]).toMatchObject({ ran: true, stdout: 'app.js\n' });
    } finally {
      process.env.HOME = saved;
    }
  });

  it(needsSandbox('escapes control characters of hook output in the human format'), async () => {
    const dir = project('ansi', {
      '.claude/settings.json': JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: "printf '\\033[2J\\033]0;pwned\\007denied\\n' >&2; exit 2" }] }] },
      }),
    });
    const { code, out } = await cli(['run', '.claude/settings.json', '--event', 'PreToolUse'], dir);
    expect(code).toBe(0);
    expect(out.includes('\u001b') || out.includes('\u0007')).toBe(false);
    expect(out).toContain('\\x1b[2J\\x1b]0;pwned\\x07denied');
    expect(out).toMatch(/^BLOCKED {2}decision: deny$/m);
  });

  // Red-teaming: 100 handlers each printing 1 MiB of control bytes to stdout and to stderr took 3.1 GB and
  // 43 s to print the human report, and the JSON one ended in an internal error (past V8's longest string).
  it(needsSandbox('keeps the output of many handlers within one budget; the verdict still reads each handler'), async () => {
    const flood = "head -c 262144 /dev/zero | tr '\\0' '\\1'; head -c 262144 /dev/zero | tr '\\0' '\\1' >&2";
    const hooks = Array.from({ length: 40 }, (_, i) => ({
      type: 'command',
      command: `${flood}; ${i === 39 ? 'exit 2' : 'exit 0'} # ${i}`,
    }));
    const dir = project('flood', { '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } }) });
    const args = [
      'run',
      join(dir, '.claude', 'settings.json'),
      '--event',
      'PreToolUse',
      '--tool',
      'Bash',
      '--tool-input',
      '{"command":"ls"}',
    ];
    const json = await cli([...args, '--format', 'json'], root);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out) as ClaudeCodeRunJson;
    expect(report).toMatchObject({ blocked: true, decision: 'deny' });
    const ran = report.handlers.flatMap((h) => (h.ran ? [h] : []));
    expect(ran).toHaveLength(40);
    // Each handler keeps its share of the 4 MiB budget (4 MiB / 2 streams / 40 handlers), not 256 KiB.
    for (const handler of ran) expect([handler.stdout.length, handler.stderr.length]).toEqual([52_428, 52_428]);
    const human = await cli(args, root);
    expect(human.out).toMatch(/^BLOCKED {2}decision: deny$/m);
    expect(human.out.length).toBeLessThan(200_000);
  });
});
