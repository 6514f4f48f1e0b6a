import { describe, expect, it } from 'vitest';
import { fromText } from '../../src/profile/source.js';

describe('source text', () => {
  it('keeps the dominant line ending, a BOM, and a text with no line break as LF', () => {
    expect(fromText('a\r\nb\r\nc\n')).toEqual({ text: 'a\r\nb\r\nc\n', hasBom: false, eol: '\r\n' });
    expect(fromText('a\r\nb\nc\n')).toMatchObject({ eol: '\n' });
    expect(fromText('\uFEFFa\r\nb\r\n')).toEqual({ text: 'a\r\nb\r\n', hasBom: true, eol: '\r\n' });
    // A lone CR is no line ending; a tie goes to LF.
    expect(fromText('a\rb\r\nc\n')).toMatchObject({ eol: '\n' });
    expect(fromText('\nno-cr-before-the-first')).toMatchObject({ eol: '\n' });
    expect(fromText('one line')).toMatchObject({ eol: '\n' });
  });
});
