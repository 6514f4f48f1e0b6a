import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeControl, hasRawControl } from '../../src/text/control-chars.js';
import { needsSandbox, sandboxMissing } from '../executor/helpers.js';
import { cliRunHelpers } from './cli-run-helpers.js';

/** `run TARGET --event …`: what it refuses, and its help. */

const { project, cli } = cliRunHelpers('vah-cc-run-usage-');

describe('run --event: usage errors', () => {
  const dir = project('usage', { '.claude/settings.json': '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}' });
  it.each([
    [['--event', 'preToolUse'], /unknown event 'preToolUse' \(did you mean PreToolUse\?\)/],
    [['--event', 'Stop', '--tool', 'Bash'], /Stop is not a tool event/],
    [['--event', 'PreToolUse', '--tool-input', '{"command":'], /--tool-input: invalid JSON/],
    [['--event', 'PreToolUse', '--tool-input', '["ls"]'], /--tool-input: expected a JSON object/],
    [['--event', 'PreToolUse', '--input', '@missing.json'], /--input @missing.json: cannot read the file \(ENOENT\)/],
    [['--event', 'PreToolUse', '--format', 'xml'], /unknown --format 'xml'/],
  ])('%j', async (args, message) => {
    const { code, err } = await cli(['run', '.claude/settings.json', ...args], dir);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  // JSON.stringify of the event's stdin recursed per level: 60,000 levels were an internal error.
  it.each([
    ['--tool-input', 'PreToolUse', `{"command":${'['.repeat(60_000)}${']'.repeat(60_000)}}`, /the tool input nests more than 100 levels/],
    ['--input', 'Stop', `{"x":${'{"y":'.repeat(200)}1${'}'.repeat(200)}}`, /the event input nests more than 100 levels/],
  ])('refuses a %s nested past 100 levels, as a usage error', async (flag, event, json, message) => {
    const { code, err } = await cli(['run', '.claude/settings.json', '--event', event, flag, json], dir);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('says when a file has no Claude Code hooks', async () => {
    writeFileSync(join(dir, 'empty.json'), '{"permissions":{}}');
    const { code, err } = await cli(['run', 'empty.json', '--event', 'PreToolUse'], dir);
    expect(code).toBe(2);
    expect(err).toContain('empty.json has no Claude Code hooks');
  });

  it('points run without --event at it when the target has only Claude Code hooks', async () => {
    const { code, err } = await cli(['run', '.claude/settings.json'], dir);
    expect(code).toBe(2);
    expect(err).toContain('Claude Code hooks run with --event EVENT');
  });

  it('documents its options', async () => {
    const { code, out } = await cli(['run', '--event', 'PreToolUse', '--help'], dir);
    expect(code).toBe(0);
    for (const flag of ['--event', '--tool', '--tool-input', '--input', '--matcher-value', '--format', '--project'])
      expect(out).toContain(flag);
  });
});

describe('run --event: the escaping its human report uses (the shared one)', () => {
  it('bidi overrides and isolates as escapes, as everywhere else', () => {
    expect(escapeControl('no\u202ex\u2066y\u061c\u200e\x1b[2J')).toBe('no\\u202ex\\u2066y\\u061c\\u200e\\x1b[2J');
  });
});

describe('usage errors show the paths they name escaped', () => {
  // A file name from an untrusted tree, globbed by a CI script: it must not repaint the terminal or forge a line.
  const name = 'p/ev\u001b[2J\nResult: exit 0\u009b.md';
  const dir = project('names', { [name]: '---\nname: a\ndescription: b\nhooks:\n  pre: |\n    echo hi\n---\n' });
  it.each([
    [['run', name]],
    [['run', name, '--hook', 'nope']],
    [['run', 'p/missing\u001b[2J.md', '--hook', 'pre']],
    [['run', 'p/missing\u001b]0;x\u0007.json', '--event', 'Stop']],
    [['run', name, '--hook', 'pre', '--workspace', 'no\u001b[2Jdir']],
    [['simulate', 'p/missing\u001b[2J.md']],
    [['test', 'missing\u001b[2J.yaml']],
  ])('path %#', async (args) => {
    const { code, err } = await cli(args, dir);
    expect(code).toBe(2);
    expect(err).not.toBe('');
    expect(hasRawControl(err.replace(/\n/g, ' '))).toBe(false);
    expect(err).not.toMatch(/^Result: exit 0/m);
  });
});

// A pseudo file system cp cannot read (a review got `internal error: copying …` and a screenful of cp's complaints).
const noCgroupFs = existsSync('/sys/fs/cgroup') ? undefined : 'no /sys/fs/cgroup here';
describe.skipIf(sandboxMissing !== undefined || noCgroupFs !== undefined)('a --workspace cp cannot copy', () => {
  it(needsSandbox('is a usage error naming the first file it could not copy'), async () => {
    const dir = project('seed', { 'a.md': '---\nname: a\ndescription: b\nhooks:\n  pre: |\n    echo hi\n---\n' });
    const { code, err } = await cli(['run', 'a.md', '--hook', 'pre', '--workspace', '/sys/fs/cgroup'], dir);
    expect(code).toBe(2);
    expect(err).not.toContain('internal error');
    expect(err).toMatch(/^validate-agent-hooks: copying --workspace \/sys\/fs\/cgroup: cp: .*\n$/);
  });
});

describe.skipIf(sandboxMissing !== undefined)('run --event: why a handler decided, escaped', () => {
  it(needsSandbox('a WorktreeCreate path with a bidi override and an escape is shown escaped'), async () => {
    const command = "cat >/dev/null; printf '/tmp/wt-\\342\\200\\256x\\302\\233y\\n'";
    const dir = project('why', {
      '.claude/settings.json': JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command }] }] } }),
    });
    const { code, out } = await cli(['run', '.claude/settings.json', '--event', 'WorktreeCreate'], dir);
    expect(code).toBe(0);
    expect(out).toContain('→ it printed the worktree path /tmp/wt-\\u202ex\\x9by');
    expect(hasRawControl(out)).toBe(false);
  });
});
