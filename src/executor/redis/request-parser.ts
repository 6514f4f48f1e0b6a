/**
 * The RESP2 request parser: incremental, for what redis-cli, telnet and client
 * libraries send. It mirrors redis-server 7.0 (`processMultibulkBuffer`,
 * `processInlineBuffer`, `sdssplitargs`) closely, including its error texts,
 * so that a hook sees the same behaviour against the fake as against Redis.
 */
import { DEFAULT_MAX_BULK_LENGTH, MAX_INLINE_LENGTH } from './resp.js';

/** Redis rejects multibulk counts above INT_MAX. */
const MAX_MULTIBULK_COUNT = 2 ** 31 - 1;
/**
 * Arguments one command may have here. Redis takes up to 2^31, but the fake
 * runs each command in one go on the executor's event loop: a 500,000-word
 * RPUSH held it for seconds (and overflowed the stack). Past this the request
 * is refused with an error that says so, and the connection closed.
 */
export const MAX_COMMAND_ARGUMENTS = 65_536;

/** Bulk strings at least this long are copied straight into their own buffer. */
const LARGE_BULK_THRESHOLD = 32 * 1024;

const CR = 0x0d;
const LF = 0x0a;

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

  /**
   * Bytes received but not yet turned into requests (for query-buffer
   * limits); a large bulk counts at the size announced, which is allocated
   * as soon as its header arrives.
   */
  get bufferedBytes(): number {
    return this.buffer.length - this.offset + (this.pending?.largeBulk?.length ?? 0);
  }

  /** Lets go of everything buffered (the connection is gone). */
  release(): void {
    this.buffer = Buffer.alloc(0);
    this.offset = 0;
    this.pending = null;
    this.failed = true;
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
    if (count > MAX_COMMAND_ARGUMENTS)
      return this.fail(`too many arguments (${count}; the executor's Redis takes at most ${MAX_COMMAND_ARGUMENTS} per command)`);
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
