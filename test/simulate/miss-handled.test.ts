import { describe, expect, it } from 'vitest';
import { basename, collectCommands } from '../../src/shell/commands.js';
import { loadShellParser, parseShell } from '../../src/shell/parser.js';
import { missHandling } from '../../src/simulate/miss-handled.js';

/** Which shell forms make a read ready for a miss: its exit status tested, or its value. */
describe('missHandling', () => {
  const handling = async (script: string): Promise<string> => {
    const tree = parseShell(await loadShellParser(), script);
    try {
      const read = collectCommands(tree.rootNode, script).find((c) => ['sqlite-memory', 'redis-cli'].includes(basename(c.name.text)));
      if (!read) throw new Error(`no read in ${script}`);
      const { status, value } = missHandling(read, tree.rootNode);
      return [status && 'status', value && 'value'].filter(Boolean).join('+') || 'none';
    } finally {
      tree.delete();
    }
  };

  it.each([
    // The runtime document's own fallbacks
    [`DATA=$(/sqlite-memory retrieve --key "data" 2>/dev/null || echo '{}')`, 'status'],
    ['C=$(redis-cli get "k")\nif [ -z "$C" ] || [ "$C" = "(nil)" ]; then C=0.0; fi', 'value'],
    // Status: the left of `||` / `&&`, a condition, through `!`, redirections and an assignment on its own
    ['/sqlite-memory retrieve --key k >/dev/null || true', 'status'],
    ['/sqlite-memory retrieve --key k && echo found', 'status'],
    ['if ! X=$(/sqlite-memory retrieve --key k); then X=1; fi', 'status'],
    ['while ! /sqlite-memory retrieve --key k >/dev/null; do sleep 1; done', 'status'],
    ['X=$(/sqlite-memory retrieve --key k) || X=1', 'status'],
    ['{ echo start; /sqlite-memory retrieve --key k; } || echo none', 'status'],
    // ...but not what hides the status or tests something else
    ['/sqlite-memory retrieve --key k', 'none'],
    ['/sqlite-memory retrieve --key k | jq . || echo none', 'none'],
    ['f() { local X=$(/sqlite-memory retrieve --key k) || true; }', 'none'],
    ['echo ok || /sqlite-memory retrieve --key k', 'none'],
    ['X=$(/sqlite-memory retrieve --key k; echo done) || X=1', 'none'],
    ['if true; then /sqlite-memory retrieve --key k; fi', 'none'],
    // Value: an emptiness test or string comparison of the output, directly or through its variable, or a default
    ['[ -z "$(redis-cli get k)" ] && exit 0', 'value'],
    ['if [ "$(redis-cli get flag)" = done ]; then exit 0; fi', 'value'],
    ['X=$(redis-cli get k | jq -r .x)\n[[ -n $X ]] || X=none', 'value'],
    ['X=$(redis-cli get k); echo "${X:-{}}"', 'value'],
    ['X=$(redis-cli get k)\ntest -z "$X" && X=0', 'value'],
    ['X=$(/sqlite-memory retrieve --key k 2>/dev/null || echo "{}")\n[ -z "$X" ] && X=1', 'status+value'],
    // ...but not a test before the read, a numeric test, an abort, or output sent elsewhere
    ['[ -z "$X" ] && X=1\nX=$(redis-cli get k)', 'none'],
    ['X=$(redis-cli get k)\n[ "$X" -gt 0 ] && echo more', 'none'],
    ['X=$(redis-cli get k); echo "${X:?missing}"', 'none'],
    ['X=$(redis-cli get k >/dev/null)\n[ -z "$X" ] && X=1', 'none'],
    ['echo "$(redis-cli get k)"', 'none'],
  ])('%s: %s', async (script, expected) => {
    expect(await handling(script)).toBe(expected);
  });
});
