/**
 * Reply decoding, for clients of the fake (tests) and the executor's own
 * sockets, which also have to follow a real Redis and untrusted clients. It
 * reads RESP2 and RESP3, and inline commands on request.
 */
import { DEFAULT_MAX_BULK_LENGTH, MAX_INLINE_LENGTH } from './resp.js';

const LF = 0x0a;

/**
 * A decoded reply in plain JS terms; bulk strings stay Buffers to stay
 * binary-safe. The fake only speaks RESP2; the RESP3 kinds come from a real
 * Redis after `HELLO 3`.
 */
export type DecodedReply =
  | { readonly kind: 'simple'; readonly value: string }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'integer'; readonly value: bigint }
  | { readonly kind: 'bulk'; readonly value: Buffer | null }
  | { readonly kind: 'array'; readonly items: DecodedReply[] | null }
  /** RESP3 `_`, and RESP3 aggregates or blobs sent with length -1. */
  | { readonly kind: 'null' }
  | { readonly kind: 'double'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'bignum'; readonly value: bigint }
  /** RESP3 `=`: `format` is the three-letter type (`txt`, `mkd`), `value` the text after it. */
  | { readonly kind: 'verbatim'; readonly format: string; readonly value: Buffer }
  | { readonly kind: 'map'; readonly entries: Array<[DecodedReply, DecodedReply]> }
  | { readonly kind: 'set' | 'push'; readonly items: DecodedReply[] };

/** Bytes the decoder will not read: a stream that cannot be followed any further. */
export class RespProtocolError extends Error {}

export interface ReplyDecoderOptions {
  /** Largest bulk string accepted. */
  maxBulkLength?: number;
  /** Largest aggregate (array, map, set) length accepted. */
  maxElements?: number;
  /** Deepest nesting accepted, so a hostile stream cannot blow the stack. */
  maxDepth?: number;
  /**
   * Also read inline commands (`PING\r\n`), as arrays of bulk strings split
   * at blanks, so the decoder can follow what a client sends as well.
   */
  inline?: boolean;
}

const RESP_TYPE_BYTES = '+-:$*_,#(=!%~>|';

/**
 * Incremental decoder of RESP2 and RESP3 values (`|` attributes are skipped).
 * Throws RespProtocolError on bytes no server would send, or over the limits.
 */
export class RespReplyDecoder {
  private buffer: Buffer = Buffer.alloc(0);
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  /** Buffer length a pending bulk string needs; joining chunks before that is wasted copying. */
  private needBytes = 0;
  private readonly maxBulkLength: number;
  private readonly maxElements: number;
  private readonly maxDepth: number;
  private readonly inline: boolean;

  constructor(options: ReplyDecoderOptions = {}) {
    this.maxBulkLength = options.maxBulkLength ?? DEFAULT_MAX_BULK_LENGTH;
    this.maxElements = options.maxElements ?? 1024 * 1024;
    this.maxDepth = options.maxDepth ?? 64;
    this.inline = options.inline ?? false;
  }

  /** Bytes received but not yet part of a complete value. */
  get bufferedBytes(): number {
    return this.buffer.length + this.chunkBytes;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.chunkBytes += chunk.length;
  }

  /** The next complete reply, or undefined when more bytes are needed. */
  next(): DecodedReply | undefined {
    if (this.bufferedBytes < this.needBytes) return undefined;
    if (this.chunks.length > 0) {
      this.buffer = this.buffer.length === 0 && this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat([this.buffer, ...this.chunks]);
      this.chunks = [];
      this.chunkBytes = 0;
    }
    this.needBytes = 0;
    const result = this.decodeAt(0, 0);
    if (!result) return undefined;
    this.buffer = this.buffer.subarray(result.end);
    return result.reply;
  }

  /** Every complete reply buffered so far; when it throws, none of them is returned. */
  drain(): DecodedReply[] {
    const replies: DecodedReply[] = [];
    for (let reply = this.next(); reply !== undefined; reply = this.next()) replies.push(reply);
    return replies;
  }

  private readLine(start: number): { line: string; end: number } | undefined {
    const cr = this.buffer.indexOf('\r\n', start, 'latin1');
    if (cr < 0) {
      if (this.buffer.length - start > MAX_INLINE_LENGTH) throw new RespProtocolError('line too long');
      return undefined;
    }
    return { line: this.buffer.toString('utf8', start, cr), end: cr + 2 };
  }

  private decodeAt(start: number, depth: number): { reply: DecodedReply; end: number } | undefined {
    if (depth > this.maxDepth) throw new RespProtocolError('nesting too deep');
    if (start >= this.buffer.length) return undefined;
    const type = String.fromCharCode(this.buffer[start]!);
    if (!RESP_TYPE_BYTES.includes(type)) {
      if (this.inline) return this.decodeInline(start);
      throw new RespProtocolError(`Unexpected RESP type byte ${JSON.stringify(type)} at offset ${start}`);
    }
    const header = this.readLine(start + 1);
    if (!header) return undefined;
    const { line, end } = header;
    switch (type) {
      case '+':
        return { reply: { kind: 'simple', value: line }, end };
      case '-':
        return { reply: { kind: 'error', message: line }, end };
      case ':':
        return { reply: { kind: 'integer', value: parseReplyInteger(line) }, end };
      case '(':
        return { reply: { kind: 'bignum', value: parseReplyInteger(line) }, end };
      case ',':
        return { reply: { kind: 'double', value: Number(line === 'inf' ? Infinity : line === '-inf' ? -Infinity : line) }, end };
      case '#':
        return { reply: { kind: 'boolean', value: line === 't' }, end };
      case '_':
        return { reply: { kind: 'null' }, end };
      case '$':
      case '=':
      case '!': {
        const length = parseReplyLength(line, this.maxBulkLength);
        if (length < 0) return { reply: type === '$' ? { kind: 'bulk', value: null } : { kind: 'null' }, end };
        if (this.buffer.length < end + length + 2) {
          this.needBytes = Math.max(this.needBytes, end + length + 2);
          return undefined;
        }
        const value = Buffer.from(this.buffer.subarray(end, end + length));
        const after = end + length + 2;
        if (type === '$') return { reply: { kind: 'bulk', value }, end: after };
        if (type === '!') return { reply: { kind: 'error', message: value.toString('utf8') }, end: after };
        return {
          reply: { kind: 'verbatim', format: value.toString('utf8', 0, 3), value: value.subarray(Math.min(4, length)) },
          end: after,
        };
      }
      default: {
        const count = parseReplyLength(line, this.maxElements);
        if (count < 0) return { reply: type === '*' ? { kind: 'array', items: null } : { kind: 'null' }, end };
        const isMap = type === '%' || type === '|';
        const items: DecodedReply[] = [];
        let position = end;
        for (let i = 0; i < count * (isMap ? 2 : 1); i++) {
          const item = this.decodeAt(position, depth + 1);
          if (!item) return undefined;
          items.push(item.reply);
          position = item.end;
        }
        switch (type) {
          case '|':
            return this.decodeAt(position, depth); // attributes annotate the next value
          case '%': {
            const entries: Array<[DecodedReply, DecodedReply]> = [];
            for (let i = 0; i < items.length; i += 2) entries.push([items[i]!, items[i + 1]!]);
            return { reply: { kind: 'map', entries }, end: position };
          }
          case '~':
            return { reply: { kind: 'set', items }, end: position };
          case '>':
            return { reply: { kind: 'push', items }, end: position };
          default:
            return { reply: { kind: 'array', items }, end: position };
        }
      }
    }
  }

  private decodeInline(start: number): { reply: DecodedReply; end: number } | undefined {
    const lf = this.buffer.indexOf(LF, start);
    if (lf < 0) {
      if (this.buffer.length - start > MAX_INLINE_LENGTH) throw new RespProtocolError('inline command too long');
      return undefined;
    }
    const words = this.buffer
      .toString('utf8', start, lf)
      .replace(/\r$/, '')
      .split(/\s+/)
      .filter((word) => word.length > 0);
    const items: DecodedReply[] = words.map((word) => ({ kind: 'bulk', value: Buffer.from(word, 'utf8') }));
    return { reply: { kind: 'array', items }, end: lf + 1 };
  }
}

function parseReplyInteger(text: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new RespProtocolError(`invalid integer '${text.slice(0, 20)}'`);
  return BigInt(text);
}

function parseReplyLength(text: string, max: number): number {
  const n = Number(parseReplyInteger(text));
  if (n < -1) throw new RespProtocolError(`invalid length ${n}`);
  if (n > max) throw new RespProtocolError(`length ${n} over the limit of ${max}`);
  return n;
}

/**
 * A decoded request as a list of strings (what the decoder reads from a
 * client: an array of bulk strings, or an inline command), or undefined when
 * the value is not one.
 */
export function asCommand(reply: DecodedReply): string[] | undefined {
  if (reply.kind !== 'array' || reply.items === null) return undefined;
  const words: string[] = [];
  for (const item of reply.items) {
    switch (item.kind) {
      case 'simple':
        words.push(item.value);
        break;
      case 'bulk':
      case 'verbatim':
        if (item.value === null) return undefined;
        words.push(item.value.toString('utf8'));
        break;
      case 'integer':
      case 'bignum':
      case 'double':
        words.push(String(item.value));
        break;
      default:
        return undefined;
    }
  }
  return words;
}
