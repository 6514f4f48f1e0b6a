// A Python program that Claude Code hooks run is read for the fields it takes from the hook's stdin JSON.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintFiles } from '../../src/index.js';
import { lintHookProject } from '../helpers/hook-project.js';

const root = mkdtempSync(join(tmpdir(), 'vah-python-hooks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const GUARD = [
  '#!/usr/bin/env python3',
  'import json, sys',
  '',
  'def blocked(tool_input):',
  "    return 'rm -rf' in tool_input.get('cmd', '')",
  '',
  'def main():',
  '    data = json.load(sys.stdin)',
  "    data['seen'] = True",
  "    out = data.get('tool_output', {})",
  "    # data['old'] was renamed",
  "    if blocked(data['tool_input']) or data['seen']:",
  '        sys.exit(2)',
  "    print(data['tool_input']['cmd'])",
  '',
  'main()',
  '',
].join('\n');

/** A project whose settings run `command` (for `event`, `matcher`) and hold `files`; the findings by file name. */
async function findings(name: string, event: string, matcher: string | undefined, command: string, files: Record<string, string>) {
  return (await lintHookProject(root, name, { event, ...(matcher === undefined ? {} : { matcher }), command, files })).byFile;
}

describe('Python programs that hooks run', () => {
  it('`uv run` of a .py file: its reads of the input, at their place in the file', async () => {
    const found = await findings('uv', 'PostToolUse', 'Bash', 'uv run "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py', { 'guard.py': GUARD });
    expect(found['.claude/settings.json']).toEqual([]);
    expect(found['.claude/hooks/guard.py']).toEqual([
      // blocked() is handed the input's tool_input.
      expect.stringMatching(/^5:40-43 cc-input-field-unknown Unexpected `\.tool_input\.cmd`: `Bash` calls have no `cmd`/),
      '10:21-32 cc-input-field-unknown Unexpected `.tool_output`: the stdin JSON of a `PostToolUse` hook has no `tool_output` (did you mean `tool_response`?), so Python raises KeyError (or `.get` gives its default) and a test of it never matches.',
      expect.stringMatching(
        /^14:31-34 cc-input-field-unknown Unexpected `\.tool_input\.cmd`: `Bash` calls have no `cmd` in `tool_input` \(did you mean `command`\?\); it has `command`/,
      ),
    ]);
  });

  it('python3 with a path relative to the project, and a file run by its #! line alone', async () => {
    const relative = await findings('py3', 'PreToolUse', 'Bash', 'python3 .claude/hooks/guard.py', { 'guard.py': GUARD });
    expect(relative['.claude/hooks/guard.py']?.map((f) => f.split(' ')[0])).toEqual(['5:40-43', '10:21-32', '14:31-34']);
    // After a command that runs no script file (`bash -c '…'`), the next one is still looked at.
    const after = await findings('after', 'PreToolUse', 'Bash', "bash -c 'echo hi'; uv run .claude/hooks/guard.py", { 'guard.py': GUARD });
    expect(after['.claude/hooks/guard.py']?.map((f) => f.split(' ')[0])).toEqual(['5:40-43', '10:21-32', '14:31-34']);
    const shebang = await findings('shebang', 'PreToolUse', 'Bash', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard', { guard: GUARD });
    expect(shebang['.claude/hooks/guard']?.map((f) => f.split(' ')[0])).toEqual(['5:40-43', '10:21-32', '14:31-34']);
  });

  it('for any tool, `tool_input` is not checked; a suppression comment holds', async () => {
    const any = await findings('any', 'PreToolUse', undefined, 'uv run .claude/hooks/guard.py', { 'guard.py': GUARD });
    expect(any['.claude/hooks/guard.py']?.map((f) => f.split(' ')[0])).toEqual(['10:21-32']); // blocked()'s `cmd` is of `tool_input`, not checked for any tool
    const suppressed = GUARD.replace(
      "    out = data.get('tool_output', {})",
      "    # validate-agent-hooks-disable-next-line cc-input-field-unknown -- our own runner adds it\n    out = data.get('tool_output', {})",
    );
    const quiet = await findings('quiet', 'PreToolUse', undefined, 'uv run .claude/hooks/guard.py', { 'guard.py': suppressed });
    expect(quiet['.claude/hooks/guard.py']).toEqual([]);
  });

  it('a program given something else on stdin is not read for the hook input', async () => {
    for (const command of [
      "jq -c '.tool_input' | python3 .claude/hooks/guard.py",
      'python3 .claude/hooks/guard.py < .claude/hooks/sample.json',
      'python3 .claude/hooks/guard.py <<< "$X"',
    ]) {
      const found = await findings('piped', 'PreToolUse', 'Bash', command, { 'guard.py': GUARD });
      expect(found['.claude/hooks/guard.py'], command).toBeUndefined();
    }
    // `||` is no pipe, nor is `<(…)` its input.
    const or = await findings('or', 'PreToolUse', 'Bash', 'true || python3 .claude/hooks/guard.py <(echo)', { 'guard.py': GUARD });
    expect(or['.claude/hooks/guard.py']?.map((f) => f.split(' ')[0])).toEqual(['5:40-43', '10:21-32', '14:31-34']);
  });

  it('the output it spells out as a dict literal is checked against the output contract', async () => {
    const guard = [
      'import json, sys',
      'data = json.load(sys.stdin)',
      "if 'rm -rf' in data['tool_input'].get('command', ''):",
      '    print(json.dumps({',
      '        "decision": "ask",',
      "        'reason': f\"careful: {data['tool_input']['command']}\",",
      '    }))',
      '    sys.exit(0)',
      '# A branch for the PostToolUse handlers of another settings file:',
      "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', 'additionalContext': 'x', 'permissionDecision': 'deny'}}))",
      '',
    ].join('\n');
    const found = await findings('output', 'PreToolUse', 'Bash', 'uv run .claude/hooks/guard.py', { 'guard.py': guard });
    expect(found['.claude/hooks/guard.py']).toEqual([
      '5:21-26 cc-output-invalid Invalid `decision` "ask": PreToolUse decides with `hookSpecificOutput.permissionDecision`. Claude Code rejects the output (a non-blocking hook error).',
    ]);
    // Run in the background, its output decides nothing (cc-async-invalid says so on the handler).
    const project = join(root, 'background');
    mkdirSync(join(project, '.claude', 'hooks'), { recursive: true });
    const settings = {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'uv run .claude/hooks/guard.py', async: true }] }] },
    };
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(settings));
    writeFileSync(join(project, '.claude', 'hooks', 'guard.py'), guard);
    const results = await lintFiles([project], { shellcheck: false, cwd: project });
    expect(results.find((r) => r.filePath.endsWith('guard.py'))?.diagnostics.filter((d) => d.ruleId === 'cc-output-invalid')).toEqual([]);
  });

  // Emasoft's orchestrator Stop hook, anthropics' hookify: a Python Stop hook that blocks must read stop_hook_active.
  it('a Stop hook that blocks without reading stop_hook_active loops: at its decision or its exit 2', async () => {
    const decision = [
      'import json, os, sys',
      'data = json.load(sys.stdin)',
      "if os.path.exists('TODO.md'):",
      '    print(json.dumps({"decision": "block", "reason": "Finish TODO.md"}))',
      'sys.exit(0)',
      '',
    ].join('\n');
    const exit2 = [
      'import sys',
      "if open('TODO.md').read().strip():",
      "    print('Finish TODO.md', file=sys.stderr)",
      '    sys.exit(2)',
      '',
    ].join('\n');
    const guarded = [
      'import json, sys',
      'data = json.load(sys.stdin)',
      "if data.get('stop_hook_active'):",
      '    sys.exit(0)',
      decision.split('\n')[3]!,
      '',
    ].join('\n');
    const found = await findings(
      'stop',
      'Stop',
      undefined,
      'python3 .claude/hooks/a.py; python3 .claude/hooks/b.py; python3 .claude/hooks/c.py',
      {
        'a.py': decision,
        'b.py': exit2,
        'c.py': guarded,
      },
    );
    const loops = (file: string) => (found[`.claude/hooks/${file}`] ?? []).filter((f) => f.includes('cc-stop-hook-active'));
    expect(loops('a.py')).toEqual([
      expect.stringMatching(
        /^4:23-42 cc-stop-hook-active Unexpected block in a `Stop` hook .*`if data\.get\("stop_hook_active"\): sys\.exit\(0\)`/,
      ),
    ]);
    expect(loops('b.py')).toEqual([expect.stringMatching(/^4:5-16 cc-stop-hook-active /)]);
    expect(loops('c.py')).toEqual([]);
    // A package whose Stop check is in a module of its own (`from .check import …`): read there.
    const split = await findings(
      'stop-split',
      'Stop',
      undefined,
      'python3 .claude/hooks/stop/main.py; python3 .claude/hooks/lone/main.py',
      {
        'stop/main.py': [
          'import json, sys',
          'from .check import already_continued',
          'data = json.load(sys.stdin)',
          'if already_continued(data): sys.exit(0)',
          decision.split('\n')[3]!,
          '',
        ].join('\n'),
        'stop/check.py': "def already_continued(data):\n    return data.get('stop_hook_active', False)\n",
        'lone/main.py': ['import json, sys', 'from .tasks import pending', 'if pending():', decision.split('\n')[3]!, ''].join('\n'),
        'lone/tasks.py': 'def pending():\n    return True\n',
      },
    );
    expect((split['.claude/hooks/stop/main.py'] ?? []).filter((f) => f.includes('cc-stop-hook-active'))).toEqual([]);
    expect((split['.claude/hooks/lone/main.py'] ?? []).filter((f) => f.includes('cc-stop-hook-active'))).toHaveLength(1);
    // On another event, blocking is what the hook is for.
    const pre = await findings('stop-pre', 'PreToolUse', 'Bash', 'python3 .claude/hooks/b.py', { 'b.py': exit2 });
    expect((pre['.claude/hooks/b.py'] ?? []).filter((f) => f.includes('cc-stop-hook-active'))).toEqual([]);
  });

  // Emasoft's Stop hook prints a banner, then its JSON: the output does not start with `{` and is not read.
  it('text printed to stdout before the JSON output, on its way, is reported', async () => {
    const program = [
      'import json, sys',
      'def helper():',
      "    print('debug')",
      'def main():',
      '    data = json.load(sys.stdin)',
      "    if data.get('stop_hook_active'):",
      "        print('already continued')",
      '        sys.exit(0)',
      "    print('Iteration',",
      "          'threshold reached')",
      "    print('to stderr', file=sys.stderr)",
      '    if True:',
      '        print(json.dumps({"decision": "block", "reason": "Keep going"}))',
      'main()',
      '',
    ].join('\n');
    const found = await findings('banner', 'Stop', undefined, 'python3 .claude/hooks/stop.py', { 'stop.py': program });
    expect((found['.claude/hooks/stop.py'] ?? []).filter((f) => f.includes('cc-stdout-before-json'))).toEqual([
      expect.stringMatching(
        /^9:5-23 cc-stdout-before-json Unexpected text on stdout before the hook's JSON \(line 13\).*`print\(…, file=sys\.stderr\)`/,
      ),
    ]);
  });

  it('a program that is the hook of several agents: the readers of the others are not judged', async () => {
    const program = [
      'import json, sys',
      'def copilot():',
      '    data = json.load(sys.stdin)',
      "    if 'rm -rf' in data['toolArgs']:",
      '        sys.exit(1)',
      'def claude():',
      '    data = json.load(sys.stdin)',
      "    if 'rm -rf' in data['tool_input'].get('comand', ''):",
      '        sys.exit(1)',
      "claude() if sys.argv[1] == '--claude-code' else copilot()",
      '',
    ].join('\n');
    const found = await findings('platforms', 'PreToolUse', 'Bash', 'python3 .claude/hooks/net.py --claude-code', { 'net.py': program });
    expect(found['.claude/hooks/net.py']?.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([
      '8:44-50 cc-input-field-unknown',
      '9:9-20 cc-exit-not-blocking',
    ]);
  });

  it('an exit whose block prints a JSON decision first is left alone: the decision decides, whatever the status', async () => {
    const guard = [
      'import json, sys',
      'data = json.load(sys.stdin)',
      "command = data['tool_input'].get('command', '')",
      'def deny(reason):',
      '    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}))',
      '    sys.exit(1)',
      "if 'rm -rf' in command:",
      '    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "rm"}}))',
      '    sys.exit(1)',
      "if 'sudo' in command:",
      '    print(json.dumps({"result": "block", "reason": "sudo"}))',
      '    sys.exit(1)',
      "if 'curl' in command:",
      '    print(json.dumps({"systemMessage": "blocked curl"}))',
      '    sys.exit(1)',
      // A decision built first and dumped in the branch decides there; dumping something else of it does not.
      'OUT = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "wget"}}',
      "if 'wget' in command:",
      '    print(json.dumps(OUT))',
      '    sys.exit(1)',
      "if 'nc ' in command:",
      '    print(json.dumps(OUT.keys()))',
      '    sys.exit(1)',
      '',
    ].join('\n');
    const found = await findings('exits-json', 'PreToolUse', 'Bash', 'python3 .claude/hooks/guard.py', { 'guard.py': guard });
    // {"result": "block"} is no decision Claude Code reads, and a system message decides nothing: those exits still let the call through.
    expect((found['.claude/hooks/guard.py'] ?? []).filter((f) => f.includes(' cc-exit-not-blocking ')).map((f) => f.split(' ')[0])).toEqual(
      ['12:5-16', '15:5-16', '22:5-16'],
    );
  });

  it('a guard that refuses with a status other than 2 is reported where it exits; an error report is not', async () => {
    const guard = [
      'import json, os, sys',
      'data = json.load(sys.stdin)',
      "command = data['tool_input'].get('command', '')",
      "if 'rm -rf' in command:",
      "    print('Dangerous command', file=sys.stderr)",
      '    sys.exit(1)',
      "if command.startswith('sudo'): sys.exit('Blocked: no sudo')",
      "if not os.environ.get('API_KEY'):",
      "    print('Error: API_KEY is not set', file=sys.stderr)",
      '    sys.exit(1)',
      "if 'git push' in command:",
      '    sys.exit(2)',
      'try:',
      '    pass',
      'except Exception:',
      '    sys.exit(1)',
      '',
    ].join('\n');
    const found = await findings('exits', 'PreToolUse', 'Bash', 'python3 .claude/hooks/guard.py', { 'guard.py': guard });
    expect(found['.claude/hooks/guard.py']).toEqual([
      '6:5-16 cc-exit-not-blocking Unexpected `sys.exit(1)` in a `PreToolUse` hook: Claude Code blocks only on exit status 2 or a JSON decision (`hookSpecificOutput.permissionDecision: "deny"`); status 1 is a non-blocking error, so the action goes ahead.',
      '7:32-60 cc-exit-not-blocking Unexpected `sys.exit(…)` in a `PreToolUse` hook: Claude Code blocks only on exit status 2 or a JSON decision (`hookSpecificOutput.permissionDecision: "deny"`); status 1 (what a message given to it exits with) is a non-blocking error, so the action goes ahead.',
    ]);
    // The fix writes 2 over the literal status, and only there.
    const project = join(root, 'exits');
    const [result] = (await lintFiles([project], { shellcheck: false, cwd: project })).filter((r) => r.filePath.endsWith('guard.py'));
    expect(
      result?.diagnostics.map((d) => d.fixes?.[0]?.edits.map((e) => `${e.range.line}:${e.range.column}-${e.range.endColumn} ${e.text}`)),
    ).toEqual([['6:14-15 2'], undefined]);
    // A PermissionRequest hook refuses with its JSON decision only: exit 2 is reported there too.
    const permission = await findings('exits-permission', 'PermissionRequest', 'Bash', 'python3 .claude/hooks/guard.py', {
      'guard.py': guard,
    });
    expect(permission['.claude/hooks/guard.py']?.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([
      '6:5-16 cc-exit-not-blocking',
      '7:32-60 cc-exit-not-blocking',
      '12:5-16 cc-exit-not-blocking',
    ]);
    // Events that cannot block, and hooks run in the background, decide nothing by their status.
    const exitFindings = (found: Record<string, string[]>) =>
      (found['.claude/hooks/guard.py'] ?? []).filter((f) => f.includes(' cc-exit-not-blocking '));
    const notification = await findings('exits-notification', 'Notification', undefined, 'python3 .claude/hooks/guard.py', {
      'guard.py': guard,
    });
    expect(exitFindings(notification)).toEqual([]);
    const background = join(root, 'exits-background');
    mkdirSync(join(background, '.claude', 'hooks'), { recursive: true });
    const settings = { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'python3 .claude/hooks/guard.py', async: true }] }] } };
    writeFileSync(join(background, '.claude', 'settings.json'), JSON.stringify(settings));
    writeFileSync(join(background, '.claude', 'hooks', 'guard.py'), guard);
    const results = await lintFiles([background], { shellcheck: false, cwd: background });
    expect(results.find((r) => r.filePath.endsWith('guard.py'))?.diagnostics.filter((d) => d.ruleId === 'cc-exit-not-blocking')).toEqual(
      [],
    );
  });

  it('text from the stdin JSON in a command it gives a shell is an injection; argv, `shell=False` or a quoted value is not', async () => {
    const hook = [
      'import json, shlex, subprocess, sys',
      'data = json.load(sys.stdin)',
      "path = data['tool_input']['file_path']",
      'subprocess.run(f"npx prettier --write {path}", shell=True)',
      "subprocess.run(['npx', 'prettier', '--write', path])",
      'subprocess.run(f"npx prettier --write {shlex.quote(path)}", shell=True)',
      '',
    ].join('\n');
    const found = await findings('shell', 'PostToolUse', 'Write', 'python3 .claude/hooks/format.py', { 'format.py': hook });
    expect(found['.claude/hooks/format.py']).toEqual([
      "4:40-44 cc-stdin-untrusted Disallowed text from the hook's stdin JSON in the shell command `subprocess.run` runs: the model chose it, and the shell parses it as code (a `;`, `$(…)` or quote in it runs). Run the program without a shell and pass the text as an argument: `subprocess.run(['git', 'add', '--', path])`.",
    ]);
  });

  it('not a Python file run: `python3 -m`, or a .py file no hook runs, is not read (Node programs: node-hooks.test.ts)', async () => {
    const found = await findings('other', 'PreToolUse', 'Bash', 'python3 -m guard', { 'unused.py': GUARD });
    expect(Object.keys(found).sort()).toEqual(['.claude/settings.json']);
  });
});
