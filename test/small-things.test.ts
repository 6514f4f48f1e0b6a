import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../src/io.js';
import { main } from '../src/cli/main.js';
import { lintText } from '../src/index.js';
import { shortMessage, STYLISH_MESSAGE_MAX } from '../src/reporters/stylish.js';

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vah-small-'));
  mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('the did-you-mean rename', () => {
  it('offers no fix when the suggested key already exists: a suggestion only', async () => {
    const text = '---\nname: a\ndescription: b\nhooks:\n  on_blocking_start: |\n    echo one\n  on_blocking_starts: |\n    echo two\n---\n';
    const result = await lintText(text, { filePath: '/p/.claude/agents/a.md' });
    const unknown = result.diagnostics.find((d) => d.ruleId === 'hook-name-unknown')!;
    expect(unknown.message).toMatch(/Did you mean `on_blocking_start`\? That key is already defined here/);
    expect(unknown.fixes).toBeUndefined();
  });

  it('still offers the rename when the key is free', async () => {
    const text = '---\nname: a\ndescription: b\nhooks:\n  on_blocking_starts: |\n    echo two\n---\n';
    const result = await lintText(text, { filePath: '/p/.claude/agents/a.md' });
    const unknown = result.diagnostics.find((d) => d.ruleId === 'hook-name-unknown')!;
    expect(unknown.fixes?.[0]?.edits[0]?.text).toBe('on_blocking_start');
  });

  it('in the nested lifecycle map too', async () => {
    const text = '---\nname: a\ndescription: b\nhooks:\n  lifecycle:\n    init: echo a\n    inti: echo b\n---\n';
    const result = await lintText(text, { filePath: '/p/.claude/agents/a.md' });
    const unknown = result.diagnostics.find((d) => d.ruleId === 'hook-name-unknown')!;
    expect(unknown.message).toMatch(/already defined/);
    expect(unknown.fixes).toBeUndefined();
  });
});

describe('--fix-dry-run', () => {
  it('prints the problems the fixes leave, in the chosen format, on stderr (stdout stays a patch)', async () => {
    const dir = project({ '.claude/agents/a.md': '---\nname: a\ndescription: b\nhooks:\n  pre: |\n    sudo rm -rf /tmp/x\n---\n' });
    for (const [format, check] of [
      ['json', (err: string) => expect(JSON.parse(err)[0].messages.map((m: { ruleId: string }) => m.ruleId)).toContain('command-sudo')],
      ['stylish', (err: string) => expect(err).toMatch(/6:5\s+error\s+.*command-sudo/)],
    ] as const) {
      const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1' } });
      expect(await main(['--fix-dry-run', '--no-shellcheck', '--format', format, '.claude/agents/a.md'], io)).toBe(1);
      expect(io.out()).toBe('');
      check(io.err());
    }
  });
});

describe('stylish keeps lines readable', () => {
  it('cuts a long list of names to a few and a count', () => {
    const names = Array.from({ length: 20 }, (_, i) => `\`hook_${i}\``).join(', ');
    expect(shortMessage(`Unexpected hook name \`x\`: the runtime never runs it. Known hooks: ${names}.`)).toBe(
      'Unexpected hook name `x`: the runtime never runs it. Known hooks: `hook_0`, `hook_1`, `hook_2` and 17 more.',
    );
    expect(shortMessage('Expected one of `a`, `b` or `c`.')).toBe('Expected one of `a`, `b` or `c`.');
  });

  it('ends an overlong message at a sentence within the limit', () => {
    const long = `Disallowed thing: ${'word '.repeat(20)}end. ${'more '.repeat(40)}`;
    const short = shortMessage(long);
    expect(short.length).toBeLessThanOrEqual(STYLISH_MESSAGE_MAX + 2);
    expect(short).toMatch(/end …$/);
  });

  it('through the CLI: short in stylish, full in --verbose and JSON', async () => {
    const dir = project({
      '.claude/agents/a.md': '---\nname: a\ndescription: b\nhooks:\n  zzzzzzzzzzzz: |\n    echo hi\n---\n',
    });
    const run = async (args: string[]) => {
      const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1' } });
      await main([...args, '--no-shellcheck', '.claude/agents/a.md'], io);
      return io.out();
    };
    const json = JSON.parse(await run(['--format', 'json']));
    const full = json[0].messages.find((m: { ruleId: string }) => m.ruleId === 'hook-name-unknown').message as string;
    expect(full).toMatch(/Known hooks: (`[a-z_]+`, ){6,}/);
    const stylish = await run([]);
    const line = stylish.split('\n').find((l) => l.includes('hook-name-unknown'))!;
    expect(line).toMatch(/Known hooks: `[a-z_]+`, `[a-z_]+`, `[a-z_]+` and \d+ more/);
    expect(line.length).toBeLessThan(220);
    expect(await run(['--verbose'])).toContain(full.replace(/\.$/, ''));
  });
});

describe('--verbose lists each file with the worst of its findings', () => {
  it('ok, warn and fail, on stderr', async () => {
    const dir = project({
      '.claude/agents/clean.md': '---\nname: clean\ndescription: b\n---\n',
      '.claude/agents/warns.md': '---\nname: warns\ndescription: b\nhooks:\n  zzzzzzzzzzzz: |\n    echo hi\n---\n',
      '.claude/agents/fails.md': '---\nname: fails\ndescription: b\nhooks:\n  pre: |\n    rm -rf /\n---\n',
      '.claude/agents/x\u001b[2J.md': '---\nname: x\ndescription: b\n---\n',
      '.validate-agent-hooks.json': '{"ignorePatterns": ["*2J.md"]}',
    });
    const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1' } });
    const code = await main(['--verbose', '--no-shellcheck', '.claude/agents'], io);
    expect(code).toBe(1);
    const status = Object.fromEntries(
      io
        .err()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(/\s+/).reverse()),
    );
    expect(status).toEqual({
      '.claude/agents/clean.md': 'ok',
      '.claude/agents/warns.md': 'warn',
      '.claude/agents/fails.md': 'fail',
      '(ignorePatterns)': '.claude/agents/x\\x1b[2J.md',
    });
  });
});

describe('positions stay inside the file', () => {
  it.each([
    ['an empty file', ''],
    ['a file of one newline', '\n'],
    ['an opening fence only', '---'],
    ['an unclosed frontmatter', '---\nname: a\n'],
  ])('%s', async (_name, text) => {
    const result = await lintText(text, { filePath: '/p/.claude/agents/a.md' });
    expect(result.diagnostics.length).toBeGreaterThan(0);
    const lines = text.split('\n');
    for (const d of result.diagnostics) {
      expect(d.endLine).toBeLessThanOrEqual(lines.length);
      expect(d.endColumn).toBeLessThanOrEqual(lines[d.endLine - 1]!.length + 1);
      expect(d.line < d.endLine || d.column <= d.endColumn).toBe(true);
    }
  });

  it('an empty file through the CLI: 1:1 to 1:1', async () => {
    const dir = project({ '.claude/agents/empty.md': '' });
    const io = memoryIO({ cwd: dir });
    await main(['--no-shellcheck', '--format', 'json', '.claude/agents/empty.md'], io);
    const [m] = JSON.parse(io.out())[0].messages;
    expect(m).toMatchObject({ ruleId: 'frontmatter-missing', line: 1, column: 1, endLine: 1, endColumn: 1 });
  });
});

describe('an invalid configuration value', () => {
  it.each([
    ['rules:\n  command-sudo: eror\n', /`rules\.command-sudo` is "eror"; expected one of `off`, `warn`, `error`, `info`/],
    ['rules:\n  command-sudo: [eror, {}]\n', /`rules\.command-sudo\.0` is "eror"; expected one of `off`, `warn`, `error`, `info`/],
  ])('lists the allowed values (%s)', async (config, expected) => {
    const dir = project({ '.claude/agents/a.md': '---\nname: a\ndescription: b\n---\n', '.validate-agent-hooks.yaml': config });
    const io = memoryIO({ cwd: dir });
    expect(await main(['--no-shellcheck', '--all'], io)).toBe(2);
    expect(io.err()).toMatch(expected);
    expect(io.err()).toMatch(/\.validate-agent-hooks\.yaml:2:\d+: Invalid configuration/);
  });
});
