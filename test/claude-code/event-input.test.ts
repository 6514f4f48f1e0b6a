import { describe, expect, it } from 'vitest';
import { buildEventInput } from '../../src/runtimes/claude-code/event-input.js';
import { evaluateIf } from '../../src/runtimes/claude-code/if-rule.js';

const where = { projectDir: '/workspace', homeDir: '/home/agent' };

describe('the stdin JSON (§4)', () => {
  it('has the common fields and the tool call for PreToolUse', () => {
    const { input, matcherValue } = buildEventInput({ event: 'PreToolUse', tool: 'Bash', toolInput: { command: 'rm -rf /' }, ...where });
    expect(input).toMatchObject({
      hook_event_name: 'PreToolUse',
      cwd: '/workspace',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
    });
    expect(typeof input.session_id).toBe('string');
    expect(input.transcript_path).toMatch(/^\/home\/agent\/\.claude\/projects\/.*\.jsonl$/);
    expect(matcherValue).toBe('Bash');
  });

  it('gives PostToolUse a tool_response and PermissionRequest no tool_use_id', () => {
    expect(buildEventInput({ event: 'PostToolUse', tool: 'Write', ...where }).input).toMatchObject({ tool_response: { success: true } });
    expect(buildEventInput({ event: 'PermissionRequest', ...where }).input).not.toHaveProperty('tool_use_id');
  });

  it('fills the event field a matcher reads from --matcher-value, and omits permission_mode where the docs do', () => {
    const { input, matcherValue } = buildEventInput({ event: 'SessionStart', matcherValue: 'resume', ...where });
    expect(input).toMatchObject({ source: 'resume' });
    expect(input).not.toHaveProperty('permission_mode');
    expect(matcherValue).toBe('resume');
    const file = buildEventInput({ event: 'FileChanged', matcherValue: '.env', ...where });
    expect(file.input.file_path).toBe('/workspace/.env');
    expect(file.matcherValue).toBe('.env');
  });

  it('matches FileChanged on the basename, and takes no matcher value for Stop', () => {
    expect(buildEventInput({ event: 'FileChanged', input: { file_path: '/workspace/config/.envrc' }, ...where }).matcherValue).toBe(
      '.envrc',
    );
    expect(buildEventInput({ event: 'Stop', ...where })).toMatchObject({ matcherValue: undefined, input: { stop_hook_active: false } });
  });

  it('gives PreModelSwitch and PostModelSwitch their fields, the matcher on to_model (§9)', () => {
    const pre = buildEventInput({ event: 'PreModelSwitch', ...where });
    expect(Object.keys(pre.input)).toEqual(expect.arrayContaining(['from_model', 'to_model', 'requested_model', 'source']));
    expect(pre.matcherValue).toBe(pre.input.to_model);
    expect(buildEventInput({ event: 'PreModelSwitch', matcherValue: 'claude-haiku-4-5', ...where }).input.to_model).toBe(
      'claude-haiku-4-5',
    );
    expect(Object.keys(buildEventInput({ event: 'PostModelSwitch', ...where }).input)).toEqual(
      expect.arrayContaining(['from_model', 'to_model', 'source']),
    );
  });

  it('merges --input last', () => {
    const { input } = buildEventInput({ event: 'PreToolUse', input: { permission_mode: 'plan', tool_name: 'Edit' }, ...where });
    expect(input).toMatchObject({ permission_mode: 'plan', tool_name: 'Edit' });
  });
});

describe('`if` rules (§2.4)', () => {
  const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, cwd: '/workspace' });
  it.each([
    ['Bash(git *)', bash('git push'), true],
    ['Bash(git *)', bash('git'), true],
    ['Bash(git *)', bash('npm test'), false],
    ['Bash(git *)', bash('cd x && git status'), true],
    ['Bash(git *)', bash('FOO=1 git status'), true],
    ['Bash(git push *)', bash('echo $(git push origin)'), true],
    // `git *` names only the command: substitutions do not fail open, their contents are checked (§2.4).
    ['Bash(git *)', bash('ls $(pwd)'), false],
    ['Bash(git *)', bash('ls `pwd`'), false],
    ['Bash(git *)', bash('echo $(git rev-parse HEAD)'), true],
    ['Bash(git *)', bash('echo `git log -1`'), true],
    ['Bash(git *)', bash('echo $(cat $(git ls-files))'), true],
    ['Bash(git *)', bash('ls $HOME'), false],
    ['Bash(git:*)', bash('ls $(pwd)'), false],
    // A pattern naming more than the command fails open on $(), backticks or $VAR.
    ['Bash(git push *)', bash('ls $(pwd)'), true],
    ['Bash(git push *)', bash('ls `pwd`'), true],
    ['Bash(git push *)', bash('ls $HOME'), true],
    ['Bash(git push *)', bash('ls -la'), false],
    // An unclosed substitution cannot be parsed: fails open.
    ['Bash(git *)', bash('ls $(pwd'), true],
    ['Edit(*.ts)', { tool_name: 'Edit', tool_input: { file_path: '/workspace/a.ts' }, cwd: '/workspace' }, true],
    ['Edit(*.ts)', { tool_name: 'Edit', tool_input: { file_path: '/workspace/src/a.ts' }, cwd: '/workspace' }, false],
    ['Edit(**/*.ts)', { tool_name: 'Edit', tool_input: { file_path: '/workspace/src/a.ts' }, cwd: '/workspace' }, true],
    ['Write', { tool_name: 'Edit', tool_input: {} }, false],
  ])('%s on %j runs: %s', (rule, input, runs) => {
    expect(evaluateIf(rule, 'PreToolUse', input).runs).toBe(runs);
  });

  it('never runs a handler with `if` on a non-tool event', () => {
    expect(evaluateIf('Bash(git *)', 'Stop', {})).toMatchObject({ runs: false });
  });
});
