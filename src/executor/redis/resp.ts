/**
 * RESP2 replies (networking.c's `addReply*`): the values the fake answers
 * with and their encoding, and the encoding of a request as client libraries
 * send it. Reading the wire is request-parser.ts (what a client sends to the
 * fake) and reply-decoder.ts (what a server sends back).
 */

/** Redis's PROTO_INLINE_MAX_SIZE: the longest inline request or `*`/`$` header line. */
export const MAX_INLINE_LENGTH = 64 * 1024;

/**
 * Redis allows 512 MB bulk strings; a hook never needs that much and a
 * sandboxed script should not be able to make the executor allocate it.
 */
export const DEFAULT_MAX_BULK_LENGTH = 64 * 1024 * 1024;

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

/** Bytes of the values in a reply (bulk strings, simple strings and errors), nested ones included. */
export function replyBytes(reply: RespReply): number {
  switch (reply.kind) {
    case 'bulk':
      return reply.value?.length ?? 0;
    case 'array':
      return (reply.items ?? []).reduce((sum, item) => sum + replyBytes(item), 0);
    case 'simple':
      return reply.value.length;
    case 'error':
      return reply.message.length;
    case 'integer':
      return 0;
  }
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
