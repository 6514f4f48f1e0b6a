import { describe, expect, it } from 'vitest';
import { jqOutput } from '../../src/shell/jq-output.js';

const marks = { string: 'S', any: 'A' };
/** The filter as printed text placed on itself: character i comes from offset i. */
const read = (filter: string, strings: string[] = []) => {
  const offsets = Array.from({ length: filter.length }, (_, i) => i);
  return jqOutput({ text: filter, offsets, ends: offsets.map((i) => i + 1) }, new Set(strings), marks);
};

describe('jqOutput: the JSON jq -n prints for a filter built of literals', () => {
  it('quotes bare keys, copies strings and literals, and marks what is known only at run time', () => {
    expect(read('{a: "x", "b": 1, c: [true, null], d: $s, e: $j, f: .x | tostring, g: "v \\(.y) w", $s}', ['s'])?.text).toBe(
      '{"a":"x","b":1,"c":[true,null],"d":"S","e":"A","f":"A","g":"v S w","s":"S"}',
    );
  });
  it('reads an expression in a value as unknown, and an environment variable as text', () => {
    expect(read('{reason: ("x: " + $r), n: 1 + 2, h: $ENV.HOME, k: env.USER, short}')?.text).toBe(
      '{"reason":"A","n":"A","h":"S","k":"S","short":"A"}',
    );
  });
  it('places a bare key on its own characters, its quotes on its first and last', () => {
    const out = read('{ decision : "block" }')!;
    expect(out.text).toBe('{"decision":"block"}');
    expect(out.offsets.slice(1, 11)).toEqual([2, 2, 3, 4, 5, 6, 7, 8, 9, 9]);
    expect(out.offsets[11]).toBe(11);
  });
  it('prints a line break in a jq string escaped, and does not read an escape jq refuses', () => {
    expect(JSON.parse(read('{reason: "a\nb \\u00e9 \\"q\\""}')!.text)).toEqual({ reason: 'a\nb é "q"' });
    expect(read('{reason: "a \\- b"}')).toBeUndefined();
  });
  it('does not read a filter that is not one object or array', () => {
    for (const filter of ['{a: 1} | tojson', '.', '"text"', '{(.k): 1}', '{"\\(.k)": 1}', '{a: 1', '{a: (1}', '{a: 1} + {b: 2}'])
      expect(read(filter), filter).toBeUndefined();
  });
  it('stops at a depth it does not read', () => {
    expect(read(`${'['.repeat(70)}${']'.repeat(70)}`)).toBeUndefined();
    expect(read(`${'['.repeat(10)}${']'.repeat(10)}`)?.text).toBe(`${'['.repeat(10)}${']'.repeat(10)}`);
  });
});
