// Patterns from files the tool is given, run on text a hook wrote: none may hold the host.
import { describe, expect, it } from 'vitest';
import { boundedRegExp, boundedTest } from '../src/bounded-regex.js';

describe('bounded regular expressions', () => {
  it('answer as RegExp.test does', () => {
    expect(boundedTest(boundedRegExp('rm -rf'), 'sudo rm -rf /')).toBe(true);
    expect(boundedTest(boundedRegExp('^Edit|Write$'), 'MultiEdit')).toBe(false);
    const global = boundedRegExp('a', 'g');
    expect([boundedTest(global, 'a'), boundedTest(global, 'a')]).toEqual([true, true]);
    expect(boundedTest(boundedRegExp('(a)\\1'), 'xaax')).toBe(true);
    expect(boundedTest(boundedRegExp('^(?!mcp__)'), 'Bash')).toBe(true);
  });

  // `^(a+)+$` on 40 `a`s and a `!` took 80 s; each `a` more doubles it. The test's timeout is the bound.
  it('a pattern that backtracks exponentially is answered by the linear-time engine', () => {
    for (const source of ['^(a+)+$', '(\\w+\\s?)+$', '^(a|aa)+$'])
      expect(boundedTest(boundedRegExp(source), `${'a'.repeat(5_000)}!`), source).toBe(false);
  });

  it('one the linear engine cannot run (a backreference) is stopped at its deadline: no answer', () => {
    expect(boundedTest(boundedRegExp('^(a+)+\\1$'), `${'a'.repeat(60)}!`, 200)).toBeUndefined();
  });
});
