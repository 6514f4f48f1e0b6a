import { describe, expect, it } from 'vitest';
import { bridgeGrammarGaps, loadShellParser, parseShell } from '../../src/shell/parser.js';
import { collectCommands } from '../../src/shell/commands.js';

describe('the grammar gaps the parser bridges', () => {
  it('keeps every offset: same length, each line where it was, only the gap changed', async () => {
    const parser = await loadShellParser();
    const text = 'V=$(cat f) 2>/dev/null || V=""\nc="${cmd:$i:$n}" d="${x:-$y}"\nrm -rf "$V"\n';
    const first = parser.parse(text)!;
    const bridged = bridgeGrammarGaps(text, first.rootNode)!;
    first.delete();
    expect(bridged).toBe('V=$(cat f)             || V=""\nc="${cmd: i: n}" d="${x:-$y}"\nrm -rf "$V"\n');
    const tree = parseShell(parser, text);
    expect(tree.rootNode.hasError).toBe(false);
    // The commands are read at their place in the script, from the script's own text.
    const rm = collectCommands(tree.rootNode, text).find((c) => c.name.text === 'rm')!;
    expect(text.slice(rm.start, rm.end)).toBe('rm -rf "$V"');
    expect(rm.args.map((a) => a.text)).toEqual(['-rf', '"$V"']);
    tree.delete();
  });

  it('leaves alone what it cannot bridge without changing what bash runs', async () => {
    const parser = await loadShellParser();
    for (const text of ['V=x >/tmp/f || echo no', 'c="${x:$(cmd)}"', 'echo {rm,-rf,x}', 'n=${#OUT:-0}']) {
      const tree = parser.parse(text)!;
      expect(bridgeGrammarGaps(text, tree.rootNode), text).toBeUndefined();
      tree.delete();
    }
  });

  // Found in review: a regular expression for the substring gap backtracked quadratically on a long unclosed
  // `${a:$b$b…` (50 KB: 1.4 s). The test's timeout is the bound.
  it('reads a megabyte of unclosed substring expansion in one pass', async () => {
    const parser = await loadShellParser();
    const text = `x="\${a:${'$b'.repeat(500_000)}"; V=$(c) 2>/dev/null || V=""`;
    const tree = parser.parse(text)!;
    const bridged = bridgeGrammarGaps(text, tree.rootNode);
    tree.delete();
    expect(bridged?.length).toBe(text.length);
    expect(bridged?.endsWith('V=$(c)             || V=""')).toBe(true);
  });
});
