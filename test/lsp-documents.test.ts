// Which documents the language server lints: an editor attaches it to every Markdown buffer.
import { describe, expect, it } from 'vitest';
import { looksLikeProfile } from '../src/lsp/documents.js';

describe('the language server lints', () => {
  it('profiles, skills, commands and hook JSON', () => {
    expect(looksLikeProfile('/p/.claude/agents/coder.md', 'You are a coder.\n')).toBe(true);
    expect(looksLikeProfile('/p/.claude/skills/fmt/SKILL.md', '---\ndescription: d\n---\n')).toBe(true);
    expect(looksLikeProfile('/p/.claude/commands/review.md', '---\ndescription: d\n---\n')).toBe(true);
    expect(looksLikeProfile('/p/plugin/skills/x/SKILL.md', '---\ndescription: d\n---\n')).toBe(true);
    expect(looksLikeProfile('/p/agents/coder.md', '---\nname: coder\ndescription: d\n---\n')).toBe(true);
    expect(looksLikeProfile('/p/notes/hooked.md', '---\ntitle: t\nhooks:\n  pre: echo hi\n---\n')).toBe(true);
    expect(looksLikeProfile('/p/.claude/settings.json', '{}')).toBe(true);
  });

  it("not a docs site page or a blog post whose frontmatter is not an agent's", () => {
    expect(looksLikeProfile('/site/_posts/2024-01-01-hello.md', '---\ntitle: Hello\ndate: 2024-01-01\ntags: [a]\n---\nHi.\n')).toBe(false);
    expect(looksLikeProfile('/site/docs/intro.md', '---\nsidebar_position: 1\n---\n# Intro\n')).toBe(false);
    expect(looksLikeProfile('/p/README.md', '# Readme\n')).toBe(false);
    expect(looksLikeProfile('/p/package.json', '{"hooks": {}}')).toBe(false);
  });
});
