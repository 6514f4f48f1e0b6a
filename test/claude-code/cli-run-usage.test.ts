import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
