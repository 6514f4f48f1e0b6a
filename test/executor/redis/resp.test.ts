import { describe, expect, it } from 'vitest';

import { RespReplyDecoder } from '../../../src/executor/redis/reply-decoder.js';
import { RespRequestParser, splitInlineArgs, type ParsedRequest } from '../../../src/executor/redis/request-parser.js';
import {
  array,
  bulk,
  encodeCommand,
  encodeReply,
  error,
  integer,
  simple,
  NULL_ARRAY,
  NULL_BULK,
} from '../../../src/executor/redis/resp.js';

/** Feeds the chunks and collects every request, rendered as text for easy comparison. */
function parseChunks(chunks: Buffer[], maxBulkLength?: number): string[] {
  const parser = new RespRequestParser(maxBulkLength === undefined ? {} : { maxBulkLength });
  const out: string[] = [];
  const drain = (): void => {
    for (let request = parser.next(); request; request = parser.next()) out.push(render(request));
  };
  for (const chunk of chunks) {
    parser.push(chunk);
    drain();
  }
  return out;
}

function render(request: ParsedRequest): string {
  return request.kind === 'command' ? JSON.stringify(request.args.map((arg) => arg.toString('latin1'))) : `ERROR ${request.message}`;
}

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('RespRequestParser', () => {
  const stream = Buffer.concat([
    encodeCommand(['SET', 'key', 'value with spaces']),
    bytes('PING\r\n'),
    encodeCommand(['LPUSH', 'list', '', Buffer.from([0, 13, 10, 255])]),
    bytes('set "quoted key" \'single \\\' quote\' "\\x41\\n"\n'),
    bytes('*0\r\n'),
    encodeCommand(['GET', 'key']),
  ]);
  const expected = [
    '["SET","key","value with spaces"]',
    '["PING"]',
    JSON.stringify(['LPUSH', 'list', '', '\u0000\r\n\u00ff']),
    JSON.stringify(['set', 'quoted key', "single ' quote", 'A\n']),
    '["GET","key"]',
  ];

  it('parses multibulk and inline requests from one chunk', () => {
    expect(parseChunks([stream])).toEqual(expected);
  });

  it('gives the same requests however the stream is split in two', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      expect(parseChunks([stream.subarray(0, cut), stream.subarray(cut)]), `cut at byte ${cut}`).toEqual(expected);
    }
  });

  it('gives the same requests when fed one byte at a time', () => {
    const oneByteChunks = [...stream].map((byte) => Buffer.from([byte]));
    expect(parseChunks(oneByteChunks)).toEqual(expected);
  });

  it('reassembles a large bulk string that arrives in many chunks', () => {
    const big = Buffer.alloc(200_000, 'x');
    const encoded = encodeCommand(['SET', 'big', big]);
    const chunks: Buffer[] = [];
    for (let offset = 0; offset < encoded.length; offset += 7919) chunks.push(encoded.subarray(offset, offset + 7919));
    const parser = new RespRequestParser();
    const requests: ParsedRequest[] = [];
    for (const chunk of chunks) {
      parser.push(chunk);
      for (let request = parser.next(); request; request = parser.next()) requests.push(request);
    }
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.kind === 'command' && request.args[2]!.equals(big)).toBe(true);
  });

  it('skips empty inline lines and treats a lone LF as a line end', () => {
    expect(parseChunks([bytes('\r\n\n  \r\nPING\nECHO hi\r\n')])).toEqual(['["PING"]', '["ECHO","hi"]']);
  });

  it.each([
    ['*abc\r\n', 'Protocol error: invalid multibulk length'],
    ['*2\r\n+OK\r\n', "Protocol error: expected '$', got '+'"],
    ['*1\r\n$-5\r\n', 'Protocol error: invalid bulk length'],
    ['*1\r\n$1x\r\n', 'Protocol error: invalid bulk length'],
    ['*3000000000\r\n', 'Protocol error: invalid multibulk length'],
    ['SET "unterminated\r\n', 'Protocol error: unbalanced quotes in request'],
    ['SET "a"b\r\n', 'Protocol error: unbalanced quotes in request'],
  ])('reports %j as a protocol error', (input, message) => {
    expect(parseChunks([bytes(input)])).toEqual([`ERROR ${message}`]);
  });

  it('runs the requests before a protocol error, then stops for good', () => {
    expect(parseChunks([bytes('PING\r\n*1\r\n$x\r\n'), bytes('PING\r\n')])).toEqual([
      '["PING"]',
      'ERROR Protocol error: invalid bulk length',
    ]);
  });

  it('rejects a bulk length above the configured cap before reading the payload', () => {
    expect(parseChunks([bytes('*1\r\n$1025\r\n')], 1024)).toEqual(['ERROR Protocol error: invalid bulk length']);
    expect(parseChunks([encodeCommand([Buffer.alloc(1024, 'a')])], 1024)).toHaveLength(1);
  });

  it('rejects an inline request or header line longer than 64 KB without a line end', () => {
    expect(parseChunks([Buffer.alloc(70_000, 'a')])).toEqual(['ERROR Protocol error: too big inline request']);
    expect(parseChunks([bytes(`*${'1'.repeat(70_000)}`)])).toEqual(['ERROR Protocol error: too big mbulk count string']);
    expect(parseChunks([bytes(`*1\r\n$${'1'.repeat(70_000)}`)])).toEqual(['ERROR Protocol error: too big bulk count string']);
  });

  it('does not parse ahead: requests stay as bytes until asked for', () => {
    const parser = new RespRequestParser();
    parser.push(bytes('PING\r\nPING\r\n'));
    expect(parser.next()).not.toBeNull();
    expect(parser.bufferedBytes).toBe(6);
  });
});

describe('splitInlineArgs (sdssplitargs)', () => {
  it.each([
    ['a b\tc', ['a', 'b', 'c']],
    ['"a\\tb" \'c\\nd\'', ['a\tb', 'c\\nd']],
    ['"\\x4a\\x4B\\xzz"', ['JKxzz']],
    ['""', ['']],
    ["''", ['']],
    ['a\u0000b c', ['a']],
  ])('splits %j', (line, expected) => {
    expect(splitInlineArgs(bytes(line))?.map((arg) => arg.toString('latin1'))).toEqual(expected);
  });

  it.each(['"abc', "'abc", '"a"b', "'a'b"])('rejects %j', (line) => {
    expect(splitInlineArgs(bytes(line))).toBeNull();
  });
});

describe('reply encoding', () => {
  it('encodes every reply type as Redis does', () => {
    expect(encodeReply(simple('OK')).toString()).toBe('+OK\r\n');
    expect(encodeReply(error('syntax error')).toString()).toBe('-ERR syntax error\r\n');
    expect(encodeReply(error('-WRONGTYPE Operation')).toString()).toBe('-WRONGTYPE Operation\r\n');
    expect(encodeReply(error('bad\r\nline')).toString()).toBe('-ERR bad  line\r\n');
    expect(encodeReply(integer(-42)).toString()).toBe(':-42\r\n');
    expect(encodeReply(integer(9223372036854775807n)).toString()).toBe(':9223372036854775807\r\n');
    expect(encodeReply(bulk('héllo')).toString('latin1')).toBe('$6\r\nh\u00c3\u00a9llo\r\n');
    expect(encodeReply(NULL_BULK).toString()).toBe('$-1\r\n');
    expect(encodeReply(NULL_ARRAY).toString()).toBe('*-1\r\n');
    expect(encodeReply(array([integer(1), array([]), bulk('')])).toString()).toBe('*3\r\n:1\r\n*0\r\n$0\r\n\r\n');
  });

  it('round-trips through the reply decoder, split at every byte', () => {
    const reply = array([simple('OK'), bulk(Buffer.alloc(300, 1)), integer(7), NULL_BULK, NULL_ARRAY, error('x')]);
    const encoded = encodeReply(reply);
    for (let cut = 0; cut <= encoded.length; cut++) {
      const decoder = new RespReplyDecoder();
      decoder.push(encoded.subarray(0, cut));
      const early = decoder.next();
      decoder.push(encoded.subarray(cut));
      const decoded = early ?? decoder.next();
      expect(decoded?.kind, `cut at ${cut}`).toBe('array');
      if (decoded?.kind !== 'array' || !decoded.items) throw new Error('expected an array');
      expect(decoded.items.map((item) => item.kind)).toEqual(['simple', 'bulk', 'integer', 'bulk', 'array', 'error']);
    }
  });
});

describe('NUL bytes in header and inline lines', () => {
  it('never completes a line with a NUL before its end, as Redis (strchr) does', () => {
    expect(parseChunks([bytes('ECHO a\u0000b\r\n')])).toEqual([]);
    expect(parseChunks([bytes('*1\u0000\r\n$4\r\nPING\r\n')])).toEqual([]);
    expect(parseChunks([bytes('ECHO a\u0000b\r\n'), Buffer.alloc(70_000, 'a')])).toEqual(['ERROR Protocol error: too big inline request']);
  });

  it('accepts NUL bytes inside bulk payloads', () => {
    expect(parseChunks([encodeCommand(['ECHO', Buffer.from([0, 0])])])).toEqual([JSON.stringify(['ECHO', '\u0000\u0000'])]);
  });
});
