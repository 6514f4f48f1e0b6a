import { describe, expect, it } from 'vitest';
import type { PlainCommand, PlainWord } from '../../src/shell/commands.js';
import { runsStdinAsScript } from '../../src/shell/stdin-script.js';

function command(text: string, wrappedBy?: string): PlainCommand {
  const words: PlainWord[] = text
    .split(' ')
    .map((word) => ({ text: word, value: word.startsWith('$') ? undefined : word, start: 0, end: 0 }));
  return { name: words[0]!, args: words.slice(1), start: 0, end: 0, heredocs: [], ...(wrappedBy ? { wrappedBy } : {}) };
}
const runs = (text: string, wrappedBy?: string): boolean => runsStdinAsScript(command(text, wrappedBy), text.split(' ')[0]!);

describe('a shell running its standard input as its script', () => {
  it('with no script file, -s, -, or a path to stdin', () => {
    for (const text of [
      'bash',
      'bash -x',
      'sh -s',
      'sh -s -- --yes',
      'bash -',
      'bash -- /dev/stdin',
      'bash /dev/stdin',
      'bash -e /dev/fd/0',
      'bash -o pipefail',
      'source /dev/stdin',
      '. /proc/self/fd/0',
      'bash -s $X',
    ])
      expect(runs(text), text).toBe(true);
  });

  it('not with a script file, an inline script, or an argument it cannot know', () => {
    for (const text of [
      'bash ./x.sh',
      'bash -c ls',
      'bash -ec ls',
      'bash -- ./x.sh',
      'bash $SCRIPT',
      'source ./env.sh',
      'source -',
      'bash --rcfile x',
    ])
      expect(runs(text), text).toBe(false);
  });

  it('through wrappers that pass their stdin on, not through xargs or find', () => {
    expect(runs('bash', 'sudo')).toBe(true);
    expect(runs('bash', 'timeout')).toBe(true);
    expect(runs('bash', 'xargs')).toBe(false);
    expect(runs('bash', 'find')).toBe(false);
  });
});
