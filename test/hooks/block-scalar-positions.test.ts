// A literal block maps line for line, whatever its lines start with: YAML indents with spaces only,
// so a tab after the indentation is the script's own text, also on the block's first line (where the
// indentation is found).
import { describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';

describe('positions in a literal block', () => {
  it.each([
    ['a tab opening the first line', '      \techo tab\n      rm -rf "$HOME"\n'],
    ['a tab opening a later line', '      echo tab\n      \trm -rf "$HOME"\n'],
    ['spaces only', '      echo tab\n      rm -rf "$HOME"\n'],
  ])('%s', async (_name, block) => {
    const text = `---\nname: t\ndescription: d\nhooks:\n  pre: |\n${block}---\n`;
    const [result] = await lintInputs([{ filePath: '/virtual/t.md', text }], {
      rules: rules.filter((r) => r.id === 'command-rm-rf'),
      config: defaultConfig(),
    });
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('rm -rf')) + 1;
    const column = lines[line - 1]!.indexOf('rm -rf') + 1;
    expect(result!.diagnostics.map((d) => [d.ruleId, d.line, d.column, d.endLine, d.endColumn])).toEqual([
      ['command-rm-rf', line, column, line, lines[line - 1]!.length + 1],
    ]);
  });
});
