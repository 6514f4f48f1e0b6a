// A hostile hook nests deeper than a recursion of the analysis can follow: the file says so, the run goes on.
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { defaultConfig } from '../src/engine/config.js';
import { lintInputs } from '../src/engine/lint.js';
import { defineRule } from '../src/engine/rule.js';

const profile = (name: string, script: string) => ({
  filePath: `/virtual/${name}.md`,
  text: `---\nname: ${name}\ndescription: d\nhooks:\n  on_blocking_start: |\n    ${script}\n---\n`,
});

describe('nesting past the stack', () => {
  it('2,000 nested $( in one hook are read without a stack overflow', async () => {
    const deep = profile('deep', `echo ${'$('.repeat(2000)}x${')'.repeat(2000)}`);
    const [result] = await lintInputs([deep], { rules, config: defaultConfig() });
    expect(result!.diagnostics.filter((d) => d.ruleId === 'file-unreadable')).toEqual([]);
  });

  // Each command of a left-nested `a && b && …` list asked whether it descends from each list: 1,000 links
  // took 15 s, 4,000 over 100 s. Here the test's own timeout is the bound.
  it('a 20,000-link && chain and a 20,000-link || chain are read, to their last command', async () => {
    const chains = [
      profile('and', `${'echo a && '.repeat(20_000)}rm -rf /tmp/x`),
      profile('or', `${'echo a || '.repeat(20_000)}rm -rf /tmp/x`),
    ];
    const results = await lintInputs(chains, { rules, config: defaultConfig() });
    for (const result of results)
      expect(result.diagnostics.filter((d) => d.ruleId === 'command-rm-rf').map((d) => d.column)).toEqual([200_005]);
  });

  it('a stack overflow in the analysis of one file is a finding on it, and the other files are linted', async () => {
    const recurse = (n: number): number => (n === 0 ? 0 : 1 + recurse(n + 1));
    const overflowing = defineRule({
      id: 'test-overflow',
      meta: { description: 'overflows on a hook that says so', severity: 'error', category: 'shell' },
      messages: { never: 'Unexpected {{x}}.' },
      checkScript(context) {
        if (context.hook.text.includes('overflow')) recurse(1);
      },
    });
    const results = await lintInputs([profile('a', 'echo overflow'), profile('b', 'rm -rf /')], {
      rules: [...rules, overflowing],
      config: defaultConfig(),
    });
    expect(results[0]!.diagnostics.map((d) => `${d.ruleId} ${d.line}:${d.column} ${d.message}`)).toEqual([
      'file-unreadable 1:1 Unexpected nesting deeper than the analysis can follow (its stack ran out): this file was not checked.',
    ]);
    expect(results[1]!.diagnostics.map((d) => d.ruleId)).toContain('command-rm-rf');
  });
});
