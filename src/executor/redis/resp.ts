/**
 * RESP2 wire format: an incremental request parser (what redis-cli, telnet and
 * client libraries send) and a reply encoder/decoder. The decoder also reads
 * RESP3, and inline commands on request, for the executor's own sockets.
 *
 * The request parser mirrors redis-server 7.0 (`processMultibulkBuffer`,
 * `processInlineBuffer`, `sdssplitargs`) closely, including its error texts,
 * so that a hook sees the same behaviour against the fake as against Redis.
 */

/** Redis's PROTO_INLINE_MAX_SIZE: the longest inline request or `*`/`$` header line. */
export const MAX_INLINE_LENGTH = 64 * 1024;

/**
 * Redis allows 512 MB bulk strings; a hook never needs that much and a
 * sandboxed script should not be able to make the executor allocate it.
 */
export const DEFAULT_MAX_BULK_LENGTH = 64 * 1024 * 1024;

/** Redis rejects multibulk counts above INT_MAX. */
const MAX_MULTIBULK_COUNT = 2 ** 31 - 1;

/** Bulk strings at least this long are copied straight into their own buffer. */
const LARGE_BULK_THRESHOLD = 32 * 1024;

const CR = 0x0d;
const LF = 0x0a;

// ---------------------------------------------------------------------------
// Replies

export type RespReply =
  | { readonly kind: 'simple'; readonly value: string }
  /** `message` carries the error code: `ERR syntax error`, `WRONGTYPE ...`. */
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'integer'; readonly value: number | bigint }
  /** `null` is the RESP2 null bulk string (`$-1`). */
  | { readonly kind: 'bulk'; readonly value: Buffer | null }
  /** `null` is the RESP2 null array (`*-1`). */
  | { readonly kind: 'array'; readonly items: readonly RespReply[] | null };

export const OK: RespReply = Object.freeze({ kind: 'simple', value: 'OK' });
export const NULL_BULK: RespReply = Object.freeze({ kind: 'bulk', value: null });
export const NULL_ARRAY: RespReply = Object.freeze({ kind: 'array', items: null });
export const EMPTY_ARRAY: RespReply = Object.freeze({ kind: 'array', items: Object.freeze([]) });

export function simple(value: string): RespReply {
  return { kind: 'simple', value };
}

/**
 * An error reply, following Redis's `addReplyError`: the message gets the
 * generic `ERR ` code unless it names its own code after a dash,
 * `error('syntax error')` vs `error('-WRONGTYPE Operation ...')`.
 */
export function error(message: string): RespReply {
  return { kind: 'error', message: message.startsWith('-') ? message.slice(1) : `ERR ${message}` };
}

export function integer(value: number | bigint): RespReply {
  return { kind: 'integer', value };
}

/** A bulk string; a JS string is sent as UTF-8 text. */
export function bulk(value: string | Buffer | null): RespReply {
  if (value === null) return NULL_BULK;
  return { kind: 'bulk', value: typeof value === 'string' ? Buffer.from(value, 'utf8') : value };
}

/**
 * A bulk string from a "byte string": a JS string whose char codes are the
 * bytes 0-255 (latin1), which is how the store keeps binary-safe values.
 */
export function bulkBytes(value: string | null): RespReply {
  if (value === null) return NULL_BULK;
  return { kind: 'bulk', value: Buffer.from(value, 'latin1') };
}

export function array(items: readonly RespReply[] | null): RespReply {
  return items === null ? NULL_ARRAY : { kind: 'array', items };
}

/** RESP cannot carry CR or LF inside a simple string or error line. */
function singleLine(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}

export function encodeReply(reply: RespReply): Buffer {
  const parts: Buffer[] = [];
  appendEncodedReply(reply, parts);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** Appends the encoding of `reply` to `parts`, so a batch of replies is concatenated once. */
export function appendEncodedReply(reply: RespReply, parts: Buffer[]): void {
  switch (reply.kind) {
    case 'simple':
      parts.push(Buffer.from(`+${singleLine(reply.value)}\r\n`, 'utf8'));
      return;
    case 'error':
      parts.push(Buffer.from(`-${singleLine(reply.message)}\r\n`, 'utf8'));
      return;
    case 'integer':
      parts.push(Buffer.from(`:${reply.value}\r\n`, 'latin1'));
      return;
    case 'bulk':
      if (reply.value === null) {
        parts.push(Buffer.from('$-1\r\n', 'latin1'));
      } else if (reply.value.length < 256) {
        // One small buffer beats three pushes for the common short value.
        const header = `$${reply.value.length}\r\n`;
        const out = Buffer.allocUnsafe(header.length + reply.value.length + 2);
        out.write(header, 0, 'latin1');
        reply.value.copy(out, header.length);
        out[out.length - 2] = CR;
        out[out.length - 1] = LF;
        parts.push(out);
      } else {
        parts.push(Buffer.from(`$${reply.value.length}\r\n`, 'latin1'), reply.value, Buffer.from('\r\n', 'latin1'));
      }
      return;
    case 'array':
      if (reply.items === null) {
        parts.push(Buffer.from('*-1\r\n', 'latin1'));
        return;
      }
      parts.push(Buffer.from(`*${reply.items.length}\r\n`, 'latin1'));
      for (const item of reply.items) appendEncodedReply(item, parts);
      return;
  }
}

/** Encodes a request the way client libraries send it: an array of bulk strings. */
export function encodeCommand(args: readonly (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`, 'latin1')];
  for (const arg of args) {
    const bytes = typeof arg === 'string' ? Buffer.from(arg, 'utf8') : arg;
    parts.push(Buffer.from(`$${bytes.length}\r\n`, 'latin1'), bytes, Buffer.from('\r\n', 'latin1'));
  }
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------
// Requests

export type ParsedRequest =
  | { readonly kind: 'command'; readonly args: Buffer[] }
  /** After a protocol error the connection is unusable: reply, then close. */
  | { readonly kind: 'protocol-error'; readonly message: string };

export interface RequestParserOptions {
  maxBulkLength?: number;
}

/** State of a `*N` request whose arguments have not all arrived yet. */
interface PendingMultibulk {
  remaining: number;
  args: Buffer[];
  /** Length announced by the last `$len` line, or -1 while waiting for it. */
  bulkLength: number;
  /** For large bulks: the argument's own buffer, filled as chunks arrive. */
  largeBulk: Buffer | null;
  largeBulkFilled: number;
}

/**
 * Incremental request parser. Feed it chunks with `push`, take complete
 * requests with `next` until it returns null. Parsing is lazy, so a blocked
 * client's pipelined input stays as bytes until the client may run again.
 */
export class RespRequestParser {
  private readonly maxBulkLength: number;
  private buffer: Buffer = Buffer.alloc(0);
  private offset = 0;
  private pending: PendingMultibulk | null = null;
  private failed = false;

  constructor(options: RequestParserOptions = {}) {
    this.maxBulkLength = options.maxBulkLength ?? DEFAULT_MAX_BULK_LENGTH;
  }

  /** Bytes received but not yet turned into requests (for query-buffer limits). */
  get bufferedBytes(): number {
    return this.buffer.length - this.offset + (this.pending?.largeBulkFilled ?? 0);
  }

  push(chunk: Buffer): void {
    if (this.failed || chunk.length === 0) return;
    const large = this.pending?.largeBulk;
    if (large && this.pending) {
      // Copy straight into the argument's buffer: concatenating a 64 MB
      // bulk chunk by chunk would be quadratic.
      const pending = this.pending;
      const wanted = large.length - pending.largeBulkFilled;
      const taken = Math.min(wanted, chunk.length);
      chunk.copy(large, pending.largeBulkFilled, 0, taken);
      pending.largeBulkFilled += taken;
      if (taken === chunk.length) return;
      chunk = chunk.subarray(taken);
    }
    if (this.offset >= this.buffer.length) {
      this.buffer = chunk;
    } else {
      this.buffer = Buffer.concat([this.buffer.subarray(this.offset), chunk]);
    }
    this.offset = 0;
  }

  next(): ParsedRequest | null {
    if (this.failed) return null;
    for (;;) {
      if (this.pending) return this.continueMultibulk(this.pending);
      if (this.offset >= this.buffer.length) return null;
      if (this.buffer[this.offset] === 0x2a /* '*' */) {
        const started = this.startMultibulk();
        if (started === 'incomplete') return null;
        if (started !== 'started') return started; // protocol error, or an empty `*0` to skip
        continue;
      }
      const inline = this.parseInline();
      if (inline === 'incomplete') return null;
      if (inline === 'empty') continue;
      return inline;
    }
  }

  private fail(message: string): ParsedRequest {
    this.failed = true;
    this.pending = null;
    this.buffer = Buffer.alloc(0);
    this.offset = 0;
    return { kind: 'protocol-error', message: `Protocol error: ${message}` };
  }

  /**
   * Like Redis's `strchr` on its NUL-terminated query buffer: the search
   * stops at a NUL byte, so a line with a NUL before its end never completes.
   */
  private findLineEnd(byte: number): number {
    const found = this.buffer.indexOf(byte, this.offset);
    if (found < 0) return -1;
    return this.buffer.subarray(this.offset, found).includes(0) ? -1 : found;
  }

  /** Reads the `*N\r\n` header. Redis searches for `\r` and skips the byte after it. */
  private startMultibulk(): 'started' | 'incomplete' | ParsedRequest {
    const cr = this.findLineEnd(CR);
    if (cr < 0) {
      return this.buffer.length - this.offset > MAX_INLINE_LENGTH ? this.fail('too big mbulk count string') : 'incomplete';
    }
    if (cr + 1 >= this.buffer.length) return 'incomplete';
    const count = parseStrictInteger(this.buffer, this.offset + 1, cr);
    if (count === null || count > MAX_MULTIBULK_COUNT) return this.fail('invalid multibulk length');
    this.offset = cr + 2;
    if (count <= 0) return 'started'; // Redis treats `*0` and `*-1` as nothing at all
    this.pending = { remaining: count, args: [], bulkLength: -1, largeBulk: null, largeBulkFilled: 0 };
    return 'started';
  }

  private continueMultibulk(pending: PendingMultibulk): ParsedRequest | null {
    while (pending.remaining > 0) {
      if (pending.largeBulk) {
        if (pending.largeBulkFilled < pending.largeBulk.length) return null;
        // Redis skips the two bytes after a bulk without checking them.
        if (this.buffer.length - this.offset < 2) return null;
        this.offset += 2;
        pending.args.push(pending.largeBulk);
        pending.largeBulk = null;
        pending.largeBulkFilled = 0;
        pending.bulkLength = -1;
        pending.remaining--;
        continue;
      }
      if (pending.bulkLength < 0) {
        const cr = this.findLineEnd(CR);
        if (cr < 0) {
          return this.buffer.length - this.offset > MAX_INLINE_LENGTH ? this.fail('too big bulk count string') : null;
        }
        if (cr + 1 >= this.buffer.length) return null;
        const first = this.buffer[this.offset]!;
        if (first !== 0x24 /* '$' */) {
          return this.fail(`expected '$', got '${String.fromCharCode(first)}'`);
        }
        const length = parseStrictInteger(this.buffer, this.offset + 1, cr);
        if (length === null || length < 0 || length > this.maxBulkLength) return this.fail('invalid bulk length');
        this.offset = cr + 2;
        pending.bulkLength = length;
        if (length >= LARGE_BULK_THRESHOLD) {
          const target = Buffer.allocUnsafe(length);
          const available = Math.min(length, this.buffer.length - this.offset);
          this.buffer.copy(target, 0, this.offset, this.offset + available);
          this.offset += available;
          pending.largeBulk = target;
          pending.largeBulkFilled = available;
          continue;
        }
      }
      if (this.buffer.length - this.offset < pending.bulkLength + 2) return null;
      pending.args.push(this.buffer.subarray(this.offset, this.offset + pending.bulkLength));
      this.offset += pending.bulkLength + 2;
      pending.bulkLength = -1;
      pending.remaining--;
    }
    this.pending = null;
    return { kind: 'command', args: pending.args };
  }

  private parseInline(): ParsedRequest | 'incomplete' | 'empty' {
    const lf = this.findLineEnd(LF);
    if (lf < 0) {
      return this.buffer.length - this.offset > MAX_INLINE_LENGTH ? this.fail('too big inline request') : 'incomplete';
    }
    let end = lf;
    if (end > this.offset && this.buffer[end - 1] === CR) end--;
    const line = this.buffer.subarray(this.offset, end);
    this.offset = lf + 1;
    const args = splitInlineArgs(line);
    if (args === null) return this.fail('unbalanced quotes in request');
    if (args.length === 0) return 'empty';
    return { kind: 'command', args };
  }
}

/**
 * Redis's `string2ll`: optional `-`, no `+`, no leading zeros, no spaces,
 * within 64-bit range. Returns null when the text is not such an integer.
 * Precision above 2^53 does not matter to the callers here (lengths, counts).
 */
function parseStrictInteger(buffer: Buffer, start: number, end: number): number | null {
  const text = buffer.toString('latin1', start, end);
  if (!/^(0|-?[1-9][0-9]*)$/.test(text)) return null;
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) return null;
  return Number(value);
}

function isCSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

function isHexDigit(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46);
}

/** `\n \r \t \b \a` inside double quotes; any other escaped byte stands for itself. */
const INLINE_ESCAPES: Readonly<Record<number, number>> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x61: 0x07 };

/**
 * Redis's `sdssplitargs`, byte for byte: blanks separate arguments, "double
 * quotes" take C escapes and `\xHH`, 'single quotes' only `\'`. A closing
 * quote must be followed by a blank. A NUL byte ends the line, as in C.
 * Returns null for unbalanced quotes.
 */
export function splitInlineArgs(line: Buffer): Buffer[] | null {
  const nul = line.indexOf(0);
  const bytes = nul >= 0 ? line.subarray(0, nul) : line;
  const at = (i: number): number => (i < bytes.length ? bytes[i]! : 0);
  const args: Buffer[] = [];
  let p = 0;
  for (;;) {
    while (p < bytes.length && isCSpace(bytes[p]!)) p++;
    if (p >= bytes.length) return args;
    const current: number[] = [];
    let inDoubleQuotes = false;
    let inSingleQuotes = false;
    let done = false;
    while (!done) {
      const c = at(p);
      if (inDoubleQuotes) {
        if (c === 0x5c && at(p + 1) === 0x78 && isHexDigit(at(p + 2)) && isHexDigit(at(p + 3))) {
          current.push(parseInt(String.fromCharCode(at(p + 2), at(p + 3)), 16));
          p += 3;
        } else if (c === 0x5c && at(p + 1) !== 0) {
          p++;
          const escaped = at(p);
          current.push(INLINE_ESCAPES[escaped] ?? escaped);
        } else if (c === 0x22) {
          if (at(p + 1) !== 0 && !isCSpace(at(p + 1))) return null;
          done = true;
        } else if (c === 0) {
          return null;
        } else {
          current.push(c);
        }
      } else if (inSingleQuotes) {
        if (c === 0x5c && at(p + 1) === 0x27) {
          p++;
          current.push(0x27);
        } else if (c === 0x27) {
          if (at(p + 1) !== 0 && !isCSpace(at(p + 1))) return null;
          done = true;
        } else if (c === 0) {
          return null;
        } else {
          current.push(c);
        }
      } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0) {
        done = true;
      } else if (c === 0x22) {
        inDoubleQuotes = true;
      } else if (c === 0x27) {
        inSingleQuotes = true;
      } else {
        current.push(c);
      }
      if (c !== 0) p++;
    }
    args.push(Buffer.from(current));
  }
}

// ---------------------------------------------------------------------------
// Reply decoding (for clients of the fake: tests, and the executor's own
// sockets, which also have to follow a real Redis and untrusted clients)

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
