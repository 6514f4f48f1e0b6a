import { describe, expect, it } from 'vitest';
import rule from '../../rules/hook-variable-unshared/index.js';
import { lintCase, ruleTester } from '../helpers/rule-tester.js';

const profile = (hooks: string) => `---\nname: t\ndescription: d\nhooks:\n${hooks}---\n`;
const prePost = profile('  pre: |\n    START=$(date +%s)\n    export SID="s-$AGENT_ID"\n  post: |\n    echo "$START $SID"\n');

ruleTester(rule, {
  accept: [
    profile('  pre: |\n    X=1\n    echo "$X"\n  post: |\n    X=2\n    echo "$X"\n'),
    profile('  pre: |\n    X=1\n  post: |\n    echo "${X:-0}"\n    [ -n "$Y" ] && echo "$Y"\n'),
    profile('  pre: |\n    AGENT_ID=x\n  post: |\n    echo "$AGENT_ID"\n'),
    profile('  pre: |\n    X=1\n  post: |\n    source ./state.sh\n    echo "$X"\n'),
    { name: 'allow lists a variable the deployment sets', profile: prePost, options: { allow: ['START', 'SID'] } },
  ],
  reject: [
    {
      name: 'set in pre, read in post (plain and exported)',
      profile: prePost,
      errors: [
        { messageId: 'unshared', line: 9, column: 11, endColumn: 17, message: /set only in `pre`.*its shell has exited/ },
        { messageId: 'unshared', line: 9, column: 18, endColumn: 22, message: /`export` passes it only/ },
      ],
    },
    {
      name: 'a name read inside $((…)) without a dollar',
      profile: profile('  pre: |\n    START=$(date +%s)\n  post: |\n    N=0\n    (( N++ ))\n    echo $(( $(date +%s) - START + N ))\n'),
      errors: [{ messageId: 'unshared', line: 10, column: 28, endColumn: 33 }],
    },
    {
      name: 'every hook kind: a lifecycle hook reads what a blocking hook set',
      profile: profile('  on_blocking_start: |\n    CTX=ready\n  lifecycle:\n    cleanup: |\n      rm -f "/tmp/$CTX"\n'),
      errors: [
        {
          messageId: 'unshared',
          line: 9,
          column: 19,
          endColumn: 23,
          message: /in `lifecycle.cleanup`: it is set only in `on_blocking_start`/,
        },
      ],
    },
  ],
});

describe('hook-variable-unshared related location', () => {
  it('points at the write in the other hook, in file positions', async () => {
    const [finding] = await lintCase(rule, { profile: prePost });
    expect(finding!.related).toEqual([
      { message: '`START` is set here, in `pre`', file: '/virtual/case.md', range: { line: 6, column: 5, endLine: 6, endColumn: 22 } },
    ]);
  });
});
