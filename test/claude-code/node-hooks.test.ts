// A Node program that Claude Code hooks run is read as a Python one is: the fields it takes from the
// hook's stdin JSON, the exits that do not block, and the outputs it spells out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintHookProject } from '../helpers/hook-project.js';

const root = mkdtempSync(join(tmpdir(), 'vah-node-hooks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const GUARD = [
  '#!/usr/bin/env node',
  "const fs = require('fs');",
  '',
  'function deny(reason) {',
  '  console.error(reason);',
  '  process.exit(1);',
  '}',
  '',
  "let input = '';",
  "process.stdin.on('data', (chunk) => (input += chunk));",
  "process.stdin.on('end', () => {",
  '  let data;',
  '  try {',
  '    data = JSON.parse(input);',
  '  } catch (e) {',
  "    console.error('invalid JSON');",
  '    process.exit(1);',
  '  }',
  "  const command = data.tool_input.cmd || '';",
  '  // data.tool_input.bogus, in a comment',
  "  if (command.includes('rm -rf')) {",
  "    console.error('Blocked: rm -rf');",
  '    process.exit(1);',
  '  }',
  "  if (command.includes('sudo')) deny('no sudo');",
  "  if (command.includes('curl')) {",
  "    const out = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'curl' } };",
  '    console.log(JSON.stringify(out));',
  '    process.exit(1);',
  '  }',
  "  if (command.includes('wget')) {",
  "    console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'nope' } }));",
  '  }',
  "  if (command.includes('git push')) process.exit(2);",
  '  process.exit(0);',
  '});',
  '',
].join('\n');

/** A project whose settings run `command` (for `event`, `matcher`, in the background with `async`) and hold `files`. */
function findings(name: string, event: string, matcher: string | undefined, command: string, files: Record<string, string>, async = false) {
  return lintHookProject(root, name, { event, ...(matcher === undefined ? {} : { matcher }), command, files, async });
}

const places = (found: string[] | undefined): string[] | undefined => found?.map((f) => f.split(' ').slice(0, 2).join(' '));

describe('Node programs that hooks run', () => {
  it('a refusing exit other than 2, a field the input lacks and an invalid output, each where it is written', async () => {
    const { byFile, results } = await findings('guard', 'PreToolUse', 'Bash', 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.js', {
      'guard.js': GUARD,
    });
    expect(byFile['.claude/settings.json']).toEqual([]);
    expect(byFile['.claude/hooks/guard.js']).toEqual([
      // deny() refuses by its name; the catch's exit reports bad input; the curl branch prints its decision first.
      '6:3-18 cc-exit-not-blocking Unexpected `process.exit(1)` in a `PreToolUse` hook: Claude Code blocks only on exit status 2 or a JSON decision (`hookSpecificOutput.permissionDecision: "deny"`); status 1 is a non-blocking error, so the action goes ahead.',
      expect.stringMatching(
        /^19:35-38 cc-input-field-unknown Unexpected `\.tool_input\.cmd`: `Bash` calls have no `cmd` in `tool_input` \(did you mean `command`\?\)/,
      ),
      '23:5-20 cc-exit-not-blocking Unexpected `process.exit(1)` in a `PreToolUse` hook: Claude Code blocks only on exit status 2 or a JSON decision (`hookSpecificOutput.permissionDecision: "deny"`); status 1 is a non-blocking error, so the action goes ahead.',
      expect.stringMatching(/^32:105-111 cc-output-invalid Invalid `permissionDecision` "nope": expected deny, defer, ask, allow\./),
    ]);
    // The fix writes 2 over the literal status.
    const guard = results.find((r) => r.filePath.endsWith('guard.js'))!;
    expect(
      guard.diagnostics
        .filter((d) => d.ruleId === 'cc-exit-not-blocking')
        .map((d) => d.fixes?.[0]?.edits.map((e) => `${e.range.line}:${e.range.column}-${e.range.endColumn} ${e.text}`)),
    ).toEqual([['6:16-17 2'], ['23:18-19 2']]);
  });

  it('is found by interpreter, extension or #! line, TypeScript too; `node -e` and unparsable files are not read', async () => {
    // Types where they move no finding: a typed declaration, a return type, a typed parameter.
    const typed = GUARD.replace('let data;', 'let data: { tool_input: { cmd?: string } };')
      .replace('function deny(reason) {', 'function deny(reason: string): never {')
      .replace("let input = '';", "let input: string = '';");
    expect(typed).not.toBe(GUARD);
    for (const [name, command, file, text] of [
      ['bun', 'bun .claude/hooks/guard.mjs', 'guard.mjs', GUARD],
      ['direct', '.claude/hooks/guard.cjs', 'guard.cjs', GUARD],
      ['shebang', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard', 'guard', GUARD],
      ['node-flags', 'node --no-warnings .claude/hooks/guard.js', 'guard.js', GUARD],
      ['tsx', 'npx tsx .claude/hooks/guard.ts', 'guard.ts', typed],
      ['bun-ts', 'bun .claude/hooks/guard.ts', 'guard.ts', typed],
      ['bun-run', 'bun run .claude/hooks/guard.mts', 'guard.mts', typed],
      ['deno', 'deno run --allow-read "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.ts', 'guard.ts', typed],
      ['node-strip', 'node .claude/hooks/guard.ts', 'guard.ts', typed],
      ['direct-ts', '.claude/hooks/guard.ts', 'guard.ts', typed],
      // No name to tell: run by a TypeScript runner's #! line, read as TypeScript when it is not JavaScript.
      [
        'shebang-ts',
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard',
        'guard',
        typed.replace('#!/usr/bin/env node', '#!/usr/bin/env -S npx tsx'),
      ],
    ] as const) {
      const { byFile } = await findings(name, 'PreToolUse', 'Bash', command, { [file]: text });
      expect(places(byFile[`.claude/hooks/${file}`]), name).toEqual([
        '6:3-18 cc-exit-not-blocking',
        '19:35-38 cc-input-field-unknown',
        '23:5-20 cc-exit-not-blocking',
        '32:105-111 cc-output-invalid',
      ]);
    }
    // Types in a .js file are a syntax error to node: not read.
    for (const [name, command, files] of [
      ['inline', 'node -e \'require("./.claude/hooks/guard.js")\'', { 'guard.js': GUARD }],
      ['broken', 'node .claude/hooks/guard.js', { 'guard.js': typed }],
    ] as const) {
      const { byFile } = await findings(name, 'PreToolUse', 'Bash', command, files);
      const file = Object.keys(files)[0]!;
      expect(byFile[`.claude/hooks/${file}`] ?? [], name).toEqual([]);
    }
  });

  it('events that cannot block, hooks run in the background and programs fed something else decide nothing here', async () => {
    const notification = await findings('notification', 'Notification', undefined, 'node .claude/hooks/guard.js', { 'guard.js': GUARD });
    expect(places(notification.byFile['.claude/hooks/guard.js'])?.filter((f) => f.includes('cc-exit-not-blocking'))).toEqual([]);
    const background = await findings('background', 'PreToolUse', 'Bash', 'node .claude/hooks/guard.js', { 'guard.js': GUARD }, true);
    expect(places(background.byFile['.claude/hooks/guard.js'])).toEqual(['19:35-38 cc-input-field-unknown']);
    const piped = await findings('piped', 'PreToolUse', 'Bash', "jq -c '.tool_input' | node .claude/hooks/guard.js", { 'guard.js': GUARD });
    expect(piped.byFile['.claude/hooks/guard.js']).toBeUndefined();
    // A PermissionRequest hook refuses with its JSON decision only: exit 2 is reported there too, and the curl branch's
    // decision, PreToolUse's, decides nothing for it.
    const permission = await findings('permission', 'PermissionRequest', 'Bash', 'node .claude/hooks/guard.js', { 'guard.js': GUARD });
    expect(places(permission.byFile['.claude/hooks/guard.js'])?.filter((f) => f.includes('cc-exit-not-blocking'))).toEqual([
      '6:3-18 cc-exit-not-blocking',
      '23:5-20 cc-exit-not-blocking',
      '29:5-20 cc-exit-not-blocking',
      '34:37-52 cc-exit-not-blocking',
    ]);
  });

  it('text from the stdin JSON in a command child_process gives a shell is an injection; quoted, argv or constant is not', async () => {
    const hook = [
      "const { execSync, spawnSync } = require('child_process');",
      "import * as cp from 'node:child_process';",
      "const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
      'const { file_path: file } = data.tool_input;',
      'let command;',
      'command = data.tool_input.command;',
      'execSync(`git add ${file}`);',
      "cp.exec('prettier --write \"' + file + '\"', () => {});",
      'execSync(command);',
      "spawnSync('git', ['add', file], { shell: true });",
      "require('child_process').execSync(`ls ${data.cwd}`);",
      'execSync(`git add ${shellQuote(file)}`);',
      "spawnSync('git', ['add', '--', file]);",
      "const fixed = 'README.md';",
      'execSync(`git add ${fixed}`);',
      '/rm -rf/.exec(command);',
      'function later(file) { execSync(`cat ${other}`); }',
      '',
    ].join('\n');
    const { byFile } = await findings('injection', 'PreToolUse', 'Bash', 'node .claude/hooks/inject.mjs', { 'inject.mjs': hook });
    expect(places(byFile['.claude/hooks/inject.mjs'])).toEqual([
      '7:21-25 cc-stdin-untrusted',
      '8:32-36 cc-stdin-untrusted',
      '9:10-17 cc-stdin-untrusted',
      '10:26-30 cc-stdin-untrusted',
      '11:41-45 cc-stdin-untrusted',
    ]);
    expect(byFile['.claude/hooks/inject.mjs']![0]).toContain(
      "Disallowed text from the hook's stdin JSON in the shell command `execSync` runs: the model chose it",
    );
  });

  it('a shell option in any spelling, a quoted key, a bracketed call or a dynamic import reach the shell too; `shell: false` does not', async () => {
    const hook = [
      "const { 'execSync': run } = require('child_process');",
      "const cp = await import('node:child_process');",
      "const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
      'const file = data.tool_input.file_path;',
      'run(`git add ${file}`);',
      "cp.spawnSync('git', ['add', file], { 'shell': true });",
      "cp.spawn(`git add ${file}`, { shell: '/bin/bash' });",
      "cp.execFileSync('git', ['add', file], { shell: process.env.SHELL || '/bin/sh' });",
      "cp['execSync'](`cat ${file}`);",
      "(await import('child_process')).exec(`rm ${file}`);",
      "cp.spawnSync('git', ['add', file], { shell: false });",
      "cp.spawnSync('git', ['add', file], { shell: '' });",
      "cp.spawnSync('git', ['add', file], { shell: useShell });",
      'cp[method](`cat ${file}`);',
      "cp.spawnSync('bash', ['-c', `git add ${file}`]);",
      "cp.execFileSync('/bin/sh', ['-ec', 'git add \"$1\"', '_', file]);",
      '',
    ].join('\n');
    const { byFile } = await findings('spellings', 'PreToolUse', 'Write', 'node .claude/hooks/spell.mjs', { 'spell.mjs': hook });
    expect(places(byFile['.claude/hooks/spell.mjs'])).toEqual([
      '5:16-20 cc-stdin-untrusted',
      '6:29-33 cc-stdin-untrusted',
      '7:21-25 cc-stdin-untrusted',
      '8:32-36 cc-stdin-untrusted',
      '9:23-27 cc-stdin-untrusted',
      '10:44-48 cc-stdin-untrusted',
      '15:40-44 cc-stdin-untrusted',
    ]);
  });

  it("one level through the program's own functions: the call that hands the input to a parameter reaching a shell", async () => {
    const hook = [
      "const { execSync, execFileSync } = require('child_process');",
      "const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
      'function sh(cmd, options) {',
      '  const full = `set -e; ${cmd}`;',
      '  return execSync(full, options);',
      '}',
      "const run = (file) => execFileSync('git', ['add', file]);",
      'const file = data.tool_input.file_path;',
      'sh(`git add ${file}`);',
      "sh('git status', { cwd: file });",
      'run(file);',
      'sh(...[file]);',
      '',
    ].join('\n');
    const { byFile } = await findings('helpers', 'PostToolUse', 'Write', 'node .claude/hooks/helpers.js', { 'helpers.js': hook });
    expect(places(byFile['.claude/hooks/helpers.js'])).toEqual(['9:15-19 cc-stdin-untrusted']);
    expect(byFile['.claude/hooks/helpers.js']![0]).toContain('in the shell command `sh` runs');
  });

  it('stdin read in chunks pushed to an array and joined is the same input', async () => {
    const hook = [
      "const { execSync } = require('child_process');",
      'const chunks = [];',
      "process.stdin.on('data', (c) => chunks.push(c));",
      "process.stdin.on('end', () => {",
      '  const input = JSON.parse(Buffer.concat(chunks).toString());',
      '  execSync(`git add ${input.tool_input.file_path}`);',
      '});',
      '',
    ].join('\n');
    const { byFile } = await findings('chunks', 'PostToolUse', 'Write', 'node .claude/hooks/chunks.js', { 'chunks.js': hook });
    expect(places(byFile['.claude/hooks/chunks.js'])).toEqual(['6:23-28 cc-stdin-untrusted']);
  });

  it('a TypeScript hook: interfaces, `as` and `!` around the same reads and sinks', async () => {
    const hook = [
      "import { execSync } from 'node:child_process';",
      'interface HookInput { tool_input: { file_path: string } }',
      "const input = JSON.parse(require('fs').readFileSync(0, 'utf8')) as HookInput;",
      'const file: string = input.tool_input.file_path!;',
      'execSync(`npx prettier --write ${file}`);',
      'type Unused = { command: string };',
      '',
    ].join('\n');
    const { byFile } = await findings('typescript', 'PostToolUse', 'Write', 'bun run .claude/hooks/format.ts', { 'format.ts': hook });
    expect(places(byFile['.claude/hooks/format.ts'])).toEqual(['5:34-38 cc-stdin-untrusted']);
  });

  it('a Stop hook that blocks without reading stop_hook_active loops', async () => {
    const stop = [
      "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
      "if (require('fs').existsSync('TODO.md')) {",
      "  console.log(JSON.stringify({ decision: 'block', reason: 'Finish TODO.md' }));",
      '}',
    ].join('\n');
    const guarded = `if (JSON.parse(require('fs').readFileSync(0, 'utf8')).stop_hook_active) process.exit(0);\n${stop.split('\n').slice(1).join('\n')}`;
    const { byFile } = await findings('stop', 'Stop', undefined, 'node .claude/hooks/a.js; node .claude/hooks/b.js', {
      'a.js': stop,
      'b.js': guarded,
    });
    expect(places(byFile['.claude/hooks/a.js'])).toEqual(['3:32-49 cc-stop-hook-active']);
    expect(byFile['.claude/hooks/b.js'] ?? []).toEqual([]);
    // NTCoding's hook router: the Stop handler, and its check, are in a module it imports.
    const router = await findings('stop-router', 'Stop', undefined, 'npx tsx .claude/hooks/router.ts', {
      'router.ts': `import { handleStop } from './handlers/stop'\nconst out = handleStop(JSON.parse(require('fs').readFileSync(0, 'utf8')))\nif (out === 'block') {\n  console.error('blocked: finish the tasks')\n  process.exit(2)\n}\n`,
      'handlers/stop.ts':
        "export function handleStop(input: { stop_hook_active: boolean }): string {\n  return input.stop_hook_active ? 'allow' : 'block'\n}\n",
    });
    expect(router.byFile['.claude/hooks/router.ts'] ?? []).toEqual([]);
  });

  it('text printed to stdout before the JSON output, in a block that holds it, is reported', async () => {
    const program = [
      "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
      "console.log('Checking');",
      "if (input.tool_name === 'Write') { console.log('skip'); process.exit(0); }",
      "console.error('to stderr');",
      "process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }) + '\\n');",
    ].join('\n');
    const { byFile } = await findings('banner', 'PreToolUse', 'Bash', 'node .claude/hooks/g.js', { 'g.js': program });
    expect(places(byFile['.claude/hooks/g.js'])).toEqual(['2:1-25 cc-stdout-before-json']);
  });

  // kenryu42's safety net is the hook of Claude Code, Copilot CLI and Gemini CLI, picked by an argument:
  // each has a reader of its own; only the one that reads Claude Code's input is Claude Code's to judge.
  it('a program that is the hook of several agents: the readers of the others are not judged', async () => {
    const program = [
      "const fs = require('fs');",
      'function outputGeminiDeny(reason) {',
      "  console.log(JSON.stringify({ decision: 'deny', reason }));",
      '}',
      'function runCopilotHook() {',
      "  const input = JSON.parse(fs.readFileSync(0, 'utf8'));",
      "  if (input.toolName !== 'bash') return;",
      "  if (JSON.parse(input.toolArgs).command.includes('rm -rf')) process.exit(1);",
      '}',
      'function runGeminiHook() {',
      "  const input = JSON.parse(fs.readFileSync(0, 'utf8'));",
      "  if (input.hook_event_name !== 'BeforeTool') return;",
      "  if (input.tool_input.command.includes('rm -rf')) outputGeminiDeny('no');",
      '}',
      'function runClaudeCodeHook() {',
      "  const input = JSON.parse(fs.readFileSync(0, 'utf8'));",
      "  if (input.tool_input.comand?.includes('rm -rf')) process.exit(1);",
      '}',
      'const mode = process.argv[2];',
      "if (mode === '--copilot-cli') runCopilotHook();",
      "else if (mode === '--gemini-cli') runGeminiHook();",
      'else runClaudeCodeHook();',
    ].join('\n');
    const { byFile } = await findings('platforms', 'PreToolUse', 'Bash', 'node .claude/hooks/net.js --claude-code', { 'net.js': program });
    expect(places(byFile['.claude/hooks/net.js'])).toEqual(['17:24-30 cc-input-field-unknown', '17:52-67 cc-exit-not-blocking']);
  });

  it('a `//` suppression comment holds', async () => {
    const quiet = GUARD.replace(
      "    console.error('Blocked: rm -rf');",
      "    console.error('Blocked: rm -rf');\n    // validate-agent-hooks-disable-next-line cc-exit-not-blocking -- our wrapper maps 1 to 2",
    );
    const { byFile } = await findings('quiet', 'PreToolUse', 'Bash', 'node .claude/hooks/guard.js', { 'guard.js': quiet });
    expect(places(byFile['.claude/hooks/guard.js'])).toEqual([
      '6:3-18 cc-exit-not-blocking',
      '19:35-38 cc-input-field-unknown',
      '33:105-111 cc-output-invalid',
    ]);
  });
});
