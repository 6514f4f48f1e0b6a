import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/io.js';
import { main } from '../../src/cli/main.js';
import { escapeData, escapeProperty, githubReporter } from '../../src/reporters/github.js';

const PROFILE = `---
name: stdin
description: stdin test
hooks:
  on_blocking_start: |
    echo "🎉" && rm -rf "$DIR"
---
`;

async function run(format: string): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd: '/repo', stdin: PROFILE });
  const code = await main(['--stdin', '--stdin-filename', '.claude/agents/piped.md', '--format', format, '--no-shellcheck'], io);
  return { code, out: io.out(), err: io.err() };
}

describe('every format works with --stdin and --stdin-filename', () => {
  it('lsp', async () => {
    const { code, out } = await run('lsp');
    expect(code).toBe(1);
    const [file] = JSON.parse(out);
    expect(file.uri).toBe('file:///repo/.claude/agents/piped.md');
    expect(file.diagnostics[0]).toMatchObject({
      code: 'command-rm-rf',
      range: { start: { line: 5, character: 17 }, end: { line: 5, character: 30 } },
    });
  });

  it('sarif', async () => {
    const { code, out } = await run('sarif');
    expect(code).toBe(1);
    const log = JSON.parse(out);
    expect(log.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: '.claude/agents/piped.md', uriBaseId: '%SRCROOT%' },
      region: { startLine: 6, startColumn: 18, endLine: 6, endColumn: 31 },
    });
  });

  it('github', async () => {
    const { code, out } = await run('github');
    expect(code).toBe(1);
    expect(out).toMatch(
      /^::error file=\.claude\/agents\/piped\.md,line=6,endLine=6,col=18,endColumn=31,title=command-rm-rf::Disallowed `rm -rf`/,
    );
  });

  it('json and stylish', async () => {
    expect(JSON.parse((await run('json')).out)[0].filePath).toBe('/repo/.claude/agents/piped.md');
    expect((await run('stylish')).out).toContain('.claude/agents/piped.md\n  6:18  error');
  });

  it('an unknown format is a usage error naming the formats', async () => {
    const { code, err } = await run('xml');
    expect(code).toBe(2);
    expect(err).toContain('stylish, json, lsp, sarif, github');
  });
});

describe('github annotations', () => {
  it('escapes as @actions/core does: data %, CR, LF; properties also : and ,', () => {
    expect(escapeData('50%\r\nnext: a,b')).toBe('50%25%0D%0Anext: a,b');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    const out = githubReporter(
      [
        {
          filePath: '/repo/dir,with:odd/p.md',
          diagnostics: [
            { ruleId: 'r', severity: 'warning', message: 'line one\nline two 100%', line: 2, column: 3, endLine: 4, endColumn: 5 },
            { ruleId: 'r', severity: 'info', message: 'note', line: 1, column: 1, endLine: 1, endColumn: 2 },
          ],
        },
      ],
      { cwd: '/repo', color: false, verbose: false },
    );
    expect(out).toBe(
      '::warning file=dir%2Cwith%3Aodd/p.md,line=2,endLine=4,col=3,endColumn=5,title=r::line one%0Aline two 100%25\n' +
        '::notice file=dir%2Cwith%3Aodd/p.md,line=1,endLine=1,col=1,endColumn=2,title=r::note\n',
    );
  });
});
