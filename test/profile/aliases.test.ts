import { describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';
import { extractHooks } from '../../src/hooks/extract.js';
import { profileFromText } from '../../src/profile/profile.js';
import { configScripts } from '../../src/runtimes/claude-code/config.js';
import { claudeCodeConfig } from '../../src/runtimes/claude-code/read.js';

/** YAML aliases are read as any YAML loader (and so the runtime) reads them: the anchored node. */
async function lint(path: string, text: string) {
  const [result] = await lintInputs([{ filePath: path, text }], { rules, config: defaultConfig() });
  return result!.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId}`);
}

describe('YAML aliases in hooks', () => {
  it("a claude-flow hook given as an alias runs its anchor's script, linted once at the anchored text", async () => {
    const text = '---\nname: a\nhooks:\n  on_blocking_start: &h "sudo ls"\n  post: *h\n---\n';
    const hooks = extractHooks(profileFromText('/p/.claude/agents/a.md', text));
    expect(hooks.map((h) => [h.name, h.text, h.valueRange.line])).toEqual([
      ['on_blocking_start', 'sudo ls', 4],
      ['post', 'sudo ls', 4],
    ]);
    expect(await lint('/p/.claude/agents/a.md', text)).toEqual(['4:26 command-sudo']);
  });

  it("Claude Code's matcher groups given as an alias are read, and their handlers linted", async () => {
    const text =
      '---\nname: a\ndescription: d\nx: &g\n  - matcher: Bash\n    hooks:\n      - type: command\n        command: sudo rm -rf /\nhooks:\n  PreToolUse: *g\n---\n';
    const scripts = configScripts(claudeCodeConfig(profileFromText('/p/.claude/agents/a.md', text), { exists: () => false }));
    expect(scripts.map((s) => s.text)).toEqual(['sudo rm -rf /']);
    const found = await lint('/p/.claude/agents/a.md', text);
    expect(found).toContain('8:18 command-sudo');
    expect(found.filter((f) => f.includes('cc-'))).toEqual([]);
  });

  it('an alias to a collection holding it stays an alias, and an alias bomb is refused, without a hang', async () => {
    expect(await lint('/p/.claude/agents/c.md', '---\nname: a\nx: &a [*a]\nhooks:\n  pre: echo hi\n---\n')).toEqual([]);
    const bomb = ['---', 'name: b', 'a0: &a0 ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      bomb.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(',')}]`,
      );
    bomb.push('hooks:', '  pre: echo hi', '---', '');
    expect(await lint('/p/.claude/agents/b.md', bomb.join('\n'))).toEqual(['4:10 frontmatter-yaml']);
  });
});
