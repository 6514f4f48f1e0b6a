import { describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';

async function lint(filePath: string, text: string, options?: Record<string, unknown>) {
  const config = defaultConfig();
  if (options) config.rules['frontmatter-missing'] = ['warn', options];
  const [result] = await lintInputs([{ filePath, text }], { rules, config });
  return result!.diagnostics.map((d) => `${d.ruleId}@${d.line}:${d.column}`);
}

describe('frontmatter-missing and documentation beside the profiles', () => {
  const persona = '# CTO Agent\n\n## Role Identity\nYou are the CTO.\n';
  it('skips READMEs, summaries and changelogs by name, and heading-first files without a `---` line', async () => {
    expect(await lint('/p/.claude/agents/README.md', 'Plain text, no heading\n')).toEqual([]);
    expect(await lint('/p/.claude/agents/MIGRATION_SUMMARY.md', 'text\n')).toEqual([]);
    expect(await lint('/p/.claude/agents/changelog.md', 'text\n')).toEqual([]);
    expect(await lint('/p/.claude/agents/cto-agent.md', persona)).toEqual([]);
  });

  it('reports a file that is neither, and a heading-first file that has a `---` line somewhere', async () => {
    expect(await lint('/p/.claude/agents/coder.md', 'You are a coder.\n')).toEqual(['frontmatter-missing@1:1']);
    expect(await lint('/p/.claude/agents/coder.md', '# Coder\nname: coder\n---\n')).toEqual(['frontmatter-missing@1:1']);
  });

  it('is configurable: heading-first files and the list of names', async () => {
    expect(await lint('/p/.claude/agents/cto-agent.md', persona, { headingFirstIsDocumentation: false })).toEqual([
      'frontmatter-missing@1:1',
    ]);
    expect(await lint('/p/.claude/agents/README.md', 'text\n', { documentationFiles: ['NOTES.md'] })).toEqual(['frontmatter-missing@1:1']);
    expect(await lint('/p/.claude/agents/NOTES.md', 'text\n', { documentationFiles: ['NOTES.md'] })).toEqual([]);
  });
});

describe('frontmatter-schema on a slash command', () => {
  it('does not require `name`: the file names the command', async () => {
    const command = '---\ndescription: Review the diff\nallowed-tools: Bash(git diff:*)\n---\nReview it.\n';
    expect(await lint('/p/.claude/commands/review.md', command)).toEqual([]);
    expect(await lint('/p/.claude/agents/review.md', command)).toEqual(['frontmatter-schema@1:1']);
  });
});

describe('frontmatter-yaml places a `: ` in a plain value at the `: `', () => {
  it('not at the start of the value, where yaml places it', async () => {
    const found = await lint('/p/a.md', '---\nname: x\ndescription: Create hooks. Keywords: PreToolUse, hooks\n---\nBody\n');
    expect(found.filter((f) => f.startsWith('frontmatter-yaml'))).toEqual(['frontmatter-yaml@3:36']);
  });
});

describe('frontmatter-yaml reports one error per cause', () => {
  const profile = (yaml: string) => `---\n${yaml}---\nbody\n`;
  it('a stray closing bracket: not again on the line after a blank line', async () => {
    const found = await lint('/p/a.md', profile('name: a\ndescription: b\n}\n\ntools: Read\n'));
    expect(found.filter((f) => f.startsWith('frontmatter-yaml'))).toEqual(['frontmatter-yaml@4:1']);
  });

  it('a plain value with `: ` that runs onto the next line: one error', async () => {
    const found = await lint('/p/a.md', profile('name: a\ndescription: x\n  second: line\ntools: y\n'));
    expect(found.filter((f) => f.startsWith('frontmatter-yaml'))).toHaveLength(1);
  });

  it('two errors with a valid line between them are two causes', async () => {
    const found = await lint('/p/a.md', profile('name: `a`\ndescription: fine\nmodel: `b`\n'));
    expect(found.filter((f) => f.startsWith('frontmatter-yaml'))).toEqual(['frontmatter-yaml@2:7', 'frontmatter-yaml@4:8']);
  });
});
