/**
 * Just enough of the Redis protocol (RESP2 and RESP3) for the executor's own
 * sockets: the control server that backs `/sqlite-memory` and `/eventbus`,
 * and the tracing proxy in front of the Redis side. The Redis fake has its
 * own server; this module only has to read frames without trusting them.
 */

export type RespValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | RespError
  | RespValue[]
  | { map: Array<[RespValue, RespValue]> };

export class RespError {
  constructor(readonly message: string) {}
}

export class RespProtocolError extends Error {}

export function encodeBulk(text: string | Buffer): Buffer {
  const body = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return Buffer.concat([Buffer.from(`$${body.length}\r\n`), body, Buffer.from('\r\n')]);
}

export function encodeError(message: string): Buffer {
  return Buffer.from(`-${message.replace(/[\r\n]+/g, ' ')}\r\n`);
}

export function encodeSimple(text: string): Buffer {
  return Buffer.from(`+${text.replace(/[\r\n]+/g, ' ')}\r\n`);
}

export function encodeInteger(n: number): Buffer {
  return Buffer.from(`:${Math.trunc(n)}\r\n`);
}

export function encodeCommand(args: readonly string[]): Buffer {
  return Buffer.concat([Buffer.from(`*${args.length}\r\n`), ...args.map((arg) => encodeBulk(arg))]);
}

interface ParserLimits {
  /** Largest bulk string accepted; bigger frames are a protocol error for us. */
  maxBulkBytes: number;
  /** Largest aggregate (array, map, set) length accepted. */
  maxElements: number;
  /** Deepest nesting accepted, so a hostile stream cannot blow the stack. */
  maxDepth: number;
}

const DEFAULT_LIMITS: ParserLimits = { maxBulkBytes: 64 * 1024 * 1024, maxElements: 1024 * 1024, maxDepth: 64 };

/**
 * An incremental RESP reader: feed it chunks, take out complete values.
 * Requests are arrays of bulk strings; redis-cli never sends inline
 * commands, but a hand-written client might, so those are read as well.
 */
export class RespReader {
  private buffer: Buffer = Buffer.alloc(0);
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  /** Buffer length a pending bulk string needs; joining chunks before that is wasted copying. */
  private needBytes = 0;
  private readonly limits: ParserLimits;

  constructor(limits: Partial<ParserLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Bytes received but not yet part of a complete value. */
  get pendingBytes(): number {
    return this.buffer.length + this.chunkBytes;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.chunkBytes += chunk.length;
  }

  /** Every complete value buffered so far; throws RespProtocolError on garbage. */
  drain(): RespValue[] {
    if (this.buffer.length + this.chunkBytes < this.needBytes) return [];
    if (this.chunks.length > 0) {
      this.buffer = Buffer.concat([this.buffer, ...this.chunks]);
      this.chunks = [];
      this.chunkBytes = 0;
    }
    this.needBytes = 0;
    const values: RespValue[] = [];
    for (;;) {
      const result = this.readValue(0, 0);
      if (!result) break;
      values.push(result.value);
      this.buffer = this.buffer.subarray(result.end);
    }
    return values;
  }

  private readLine(offset: number): { line: string; end: number } | undefined {
    const cr = this.buffer.indexOf('\r\n', offset);
    if (cr < 0) {
      if (this.buffer.length - offset > 64 * 1024) throw new RespProtocolError('line too long');
      return undefined;
    }
    return { line: this.buffer.toString('utf8', offset, cr), end: cr + 2 };
  }

  private readValue(offset: number, depth: number): { value: RespValue; end: number } | undefined {
    if (depth > this.limits.maxDepth) throw new RespProtocolError('nesting too deep');
    if (offset >= this.buffer.length) return undefined;
    const type = String.fromCharCode(this.buffer[offset]!);
    if (!'+-:$*_,#(=!%~>|'.includes(type)) return this.readInline(offset);
    const header = this.readLine(offset + 1);
    if (!header) return undefined;
    const { line, end } = header;
    switch (type) {
      case '+': return { value: line, end };
      case '-': return { value: new RespError(line), end };
      case ':': return { value: parseInteger(line), end };
      case '(': return { value: parseBigInt(line), end };
      case ',': return { value: Number(line === 'inf' ? Infinity : line === '-inf' ? -Infinity : line), end };
      case '#': return { value: line === 't', end };
      case '_': return { value: null, end };
      case '$': case '=': case '!': {
        const length = parseLength(line, this.limits.maxBulkBytes);
        if (length < 0) return { value: null, end };
        if (this.buffer.length < end + length + 2) {
          this.needBytes = Math.max(this.needBytes, end + length + 2);
          return undefined;
        }
        let text = this.buffer.toString('utf8', end, end + length);
        if (type === '=') text = text.slice(4);
        return { value: type === '!' ? new RespError(text) : text, end: end + length + 2 };
      }
      default: {
        const count = parseLength(line, this.limits.maxElements);
        if (count < 0) return { value: null, end };
        const isMap = type === '%' || type === '|';
        const items: RespValue[] = [];
        let cursor = end;
        for (let i = 0; i < count * (isMap ? 2 : 1); i++) {
          const item = this.readValue(cursor, depth + 1);
          if (!item) return undefined;
          items.push(item.value);
          cursor = item.end;
        }
        if (type === '|') return this.readValue(cursor, depth); // attributes annotate the next value
        if (!isMap) return { value: items, end: cursor };
        const map: Array<[RespValue, RespValue]> = [];
        for (let i = 0; i < items.length; i += 2) map.push([items[i]!, items[i + 1]!]);
        return { value: { map }, end: cursor };
      }
    }
  }

  private readInline(offset: number): { value: RespValue; end: number } | undefined {
    const nl = this.buffer.indexOf('\n', offset);
    if (nl < 0) {
      if (this.buffer.length - offset > 64 * 1024) throw new RespProtocolError('inline command too long');
      return undefined;
    }
    const line = this.buffer.toString('utf8', offset, nl).replace(/\r$/, '');
    return { value: line.split(/\s+/).filter((word) => word.length > 0), end: nl + 1 };
  }
}

function parseInteger(text: string): number {
  if (!/^-?\d+$/.test(text)) throw new RespProtocolError(`invalid integer '${text.slice(0, 20)}'`);
  return Number(text);
}

function parseBigInt(text: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new RespProtocolError(`invalid big number '${text.slice(0, 20)}'`);
  return BigInt(text);
}

function parseLength(text: string, max: number): number {
  const n = parseInteger(text);
  if (n < -1) throw new RespProtocolError(`invalid length ${n}`);
  if (n > max) throw new RespProtocolError(`length ${n} over the limit of ${max}`);
  return n;
}

/** A request as a list of strings, or undefined when the frame is not one. */
export function asCommand(value: RespValue): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const words: string[] = [];
  for (const item of value) {
    if (typeof item === 'string') words.push(item);
    else if (typeof item === 'number' || typeof item === 'bigint') words.push(String(item));
    else return undefined;
  }
  return words;
}

/** Values as they appear in a JSON trace: errors as `{error}`, maps as objects of pairs. */
export function toTraceValue(value: RespValue, maxString = 4096): unknown {
  if (value instanceof RespError) return { error: value.message };
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return value.length > maxString ? `${value.slice(0, maxString)}…(${value.length} chars)` : value;
  if (Array.isArray(value)) return value.map((item) => toTraceValue(item, maxString));
  if (value !== null && typeof value === 'object') {
    return { map: value.map.map(([k, v]) => [toTraceValue(k, maxString), toTraceValue(v, maxString)]) };
  }
  return value;
}
