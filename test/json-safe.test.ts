import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../src/text/control-chars.js';
import { DEEP_JSON_PLACEHOLDER, jsonDepth, limitJsonDepth, MAX_REPORT_JSON_DEPTH } from '../src/text/json-safe.js';

describe('stringifyJson', () => {
  it('writes DEL, C1 controls and bidi overrides as \\u escapes: valid JSON, the same value', () => {
    const value = { 'k\u009b\u202e\u007f': 'A\u009b2JB\u202eC\u007fD\u2066\u2028', n: 1, ok: 'é ü 日本' };
    const text = stringifyJson(value, 2);
    expect(text).not.toMatch(/[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\u007f');
    expect(text).toContain('é ü 日本');
    expect(JSON.parse(text)).toEqual(value);
    expect(stringifyJson(value)).toBe(stringifyJson(value, 0));
  });

  it('prints a value nested 150,000 levels deep, deeper levels replaced, instead of overflowing the stack', () => {
    const text = `${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}`;
    const value = JSON.parse(text) as unknown;
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    const out = stringifyJson({ json: value }, 2);
    const parsed = JSON.parse(out) as { json: unknown };
    expect(jsonDepth(parsed)).toBe(MAX_REPORT_JSON_DEPTH);
    expect(out).toContain(DEEP_JSON_PLACEHOLDER);
  });

  it('leaves values within the depth alone (the same object)', () => {
    const value = { a: [1, { b: 2 }] };
    expect(limitJsonDepth(value)).toBe(value);
    expect(jsonDepth(value)).toBe(3);
  });
});
