import { createServer, type Socket } from 'node:net';
import { connectUpstream, toTraceValue, type RedisUpstream, type TracingProxy } from './redis-proxy.js';
import { databaseOf, decide, expectedReplies } from './redis-policy.js';
import { RespReplyDecoder, type DecodedReply } from './redis/reply-decoder.js';
import { RespRequestParser } from './redis/request-parser.js';
import { encodeCommand } from './redis/resp.js';
import { HOST_LIMITS } from './host-limits.js';
import { boundTraceValue, traceWords } from './trace-bounds.js';
import type { RedisOperation } from './trace.js';
import { listenOnUnixSocket } from './unix-socket.js';

/**
 * The proxy in front of a real Redis server (`--redis-url`), one per run. It
 * is a filter, not a pipe: it parses each request with the fake's own
 * request parser, decides on it (redis-policy.ts), and sends the server only
 * the commands it allowed, re-encoded from the words it traced — so what the
 * trace shows is what the server ran. Replies are matched to requests by
 * count (one each, one per channel for SUBSCRIBE), pub/sub messages are
 * recorded as pushes, and a stream the proxy cannot follow is closed rather
 * than passed on untraced.
 */

/** Largest argument a hook may send; bigger requests are refused with an error and the connection closed. */
export const MAX_ARGUMENT_BYTES = 16 * 1024 * 1024;
/** Largest reply passed back (a bulk string); a server reply past it closes the connection. */
const MAX_REPLY_BULK_BYTES = 64 * 1024 * 1024;
/** Requests sent to the server and not yet answered, per connection; past it the hook's requests wait in its socket. */
const MAX_PENDING_REQUESTS = 10_000;

interface Pending {
  operation: RedisOperation;
  startedAt: number;
  /** Replies still to come from the server; 0 when complete. */
  remaining: number;
  replies: DecodedReply[];
  /** Bytes for the client, once complete. */
  out: Buffer[];
}

export async function startFilteringProxy(options: {
  socketPath: string;
  upstream: RedisUpstream;
  record: (operation: Omit<RedisOperation, 't' | 'kind' | 'agentId' | 'runId' | 'durationMs'>) => RedisOperation;
  now: () => number;
}): Promise<TracingProxy> {
  const database = databaseOf(options.upstream.preamble);
  const connections = new Set<Socket>();
  const server = createServer((client) => {
    client.pause();
    const upstream = connectUpstream(options.upstream);
    connections.add(client);
    connections.add(upstream);
    let closed = false;
    const closeBoth = (): void => {
      closed = true;
      client.destroy();
      upstream.destroy();
      connections.delete(client);
      connections.delete(upstream);
    };
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
    client.on('close', closeBoth);
    upstream.on('close', () => {
      flush();
      client.end();
    });

    const requests = new RespRequestParser({ maxBulkLength: MAX_ARGUMENT_BYTES });
    const replies = new RespReplyDecoder({ maxBulkLength: MAX_REPLY_BULK_BYTES });
    const queue: Pending[] = [];
    let subscriptions = 0;
    // The URL's AUTH and SELECT go first; their replies are the proxy's, never the client's.
    let preambleLeft = options.upstream.preamble.length;

    // Back-pressure, as the embedded fake has it (HOST_LIMITS.outputHighWaterMark): replies a hook does
    // not read stop the proxy reading the server, requests the server does not take stop it reading the
    // hook, and so does a queue of requests awaiting replies past MAX_PENDING_REQUESTS.
    let clientReadable = true;
    const steer = (): void => {
      if (closed) return;
      if (client.writableLength > HOST_LIMITS.outputHighWaterMark) upstream.pause();
      else upstream.resume();
      const hold = upstream.writableLength > HOST_LIMITS.outputHighWaterMark || queue.length > MAX_PENDING_REQUESTS;
      if (hold && clientReadable) {
        clientReadable = false;
        client.pause();
      } else if (!hold && !clientReadable && preambleLeft === 0) {
        clientReadable = true;
        client.resume();
      }
    };
    client.on('drain', steer);
    upstream.on('drain', steer);
    const flush = (): void => {
      while (queue.length > 0 && queue[0]!.remaining === 0) {
        const done = queue.shift()!;
        if (done.replies.length > 0) {
          done.operation.reply = boundTraceValue(
            done.replies.length === 1 ? toTraceValue(done.replies[0]!) : done.replies.map((reply) => toTraceValue(reply)),
          );
          done.operation.durationMs = Math.round((options.now() - done.startedAt) * 10) / 10;
        }
        if (!closed) for (const part of done.out) client.write(part);
      }
      steer();
    };
    const answerLocally = (words: string[], reply: Buffer, traced: unknown): void => {
      const operation = options.record({ command: words, reply: traced });
      queue.push({ operation, startedAt: options.now(), remaining: 0, replies: [], out: [reply] });
    };

    upstream.on('connect', () => {
      for (const command of options.upstream.preamble) upstream.write(encodeCommand(command));
      if (preambleLeft === 0) client.resume();
    });
    client.on('data', (chunk: Buffer) => {
      requests.push(chunk);
      for (let request = requests.next(); request !== null; request = requests.next()) {
        if (request.kind === 'protocol-error') {
          answerLocally(['(unreadable request)'], errorReply(request.message), { error: request.message });
          flush();
          closeBoth();
          return;
        }
        const words = request.args.map((arg) => arg.toString('utf8'));
        const traced = traceWords(words);
        const decision = decide(words, database);
        if (decision.action === 'refuse') {
          answerLocally(traced, errorReply(decision.error), { error: decision.error });
        } else if (decision.action === 'answer') {
          answerLocally(traced, Buffer.from(`+${decision.reply}\r\n`), decision.reply);
        } else {
          const operation = options.record({ command: traced, reply: undefined });
          queue.push({ operation, startedAt: options.now(), remaining: expectedReplies(words, subscriptions), replies: [], out: [] });
          upstream.write(encodeCommand(request.args));
        }
      }
      flush();
    });
    upstream.on('data', (chunk: Buffer) => {
      replies.push(chunk);
      let decoded: DecodedReply[];
      try {
        decoded = replies.drain();
      } catch {
        // A reply the proxy cannot read cannot be matched or passed on faithfully.
        flush();
        closeBoth();
        return;
      }
      for (const reply of decoded) {
        if (preambleLeft > 0) {
          preambleLeft--;
          if (reply.kind === 'error') {
            client.end(errorReply(`ERR the Redis server refused the executor's connection setup: ${reply.message}`));
            closeBoth();
            return;
          }
          if (preambleLeft === 0) client.resume();
          continue;
        }
        const kind = pubsubKind(reply);
        if (kind === 'subscribe' || kind === 'unsubscribe') subscriptions = pubsubCount(reply);
        const head = queue.find((pending) => pending.remaining > 0);
        if (head === undefined || kind === 'message') {
          const operation = options.record({ command: [], reply: boundTraceValue(toTraceValue(reply)), push: true });
          operation.durationMs = 0;
          queue.push({ operation, startedAt: options.now(), remaining: 0, replies: [], out: [encodeDecoded(reply)] });
          continue;
        }
        head.replies.push(reply);
        head.out.push(encodeDecoded(reply));
        head.remaining--;
      }
      flush();
    });
  });
  return listenOnUnixSocket(server, options.socketPath, connections);
}

function errorReply(message: string): Buffer {
  return Buffer.from(`-${message.replace(/[\r\n]+/g, ' ')}\r\n`);
}

function pubsubKind(reply: DecodedReply): 'subscribe' | 'unsubscribe' | 'message' | undefined {
  if ((reply.kind !== 'array' && reply.kind !== 'push') || !reply.items || reply.items.length < 3) return undefined;
  const first = reply.items[0]!;
  const name = first.kind === 'bulk' && first.value ? first.value.toString('utf8') : first.kind === 'simple' ? first.value : '';
  if (name === 'subscribe' || name === 'unsubscribe') return name;
  if (name === 'message' || name === 'pmessage') return 'message';
  return undefined;
}

function pubsubCount(reply: DecodedReply): number {
  if (reply.kind !== 'array' && reply.kind !== 'push') return 0;
  const count = reply.items?.[2];
  return count?.kind === 'integer' ? Number(count.value) : 0;
}

/** RESP2 bytes of a decoded reply (the proxy refuses HELLO, so a server never speaks RESP3 to it). */
export function encodeDecoded(reply: DecodedReply): Buffer {
  const parts: Buffer[] = [];
  const add = (value: DecodedReply): void => {
    switch (value.kind) {
      case 'simple':
        parts.push(Buffer.from(`+${value.value}\r\n`));
        return;
      case 'error':
        parts.push(Buffer.from(`-${value.message}\r\n`));
        return;
      case 'integer':
      case 'bignum':
        parts.push(Buffer.from(`:${value.value}\r\n`));
        return;
      case 'bulk':
      case 'verbatim':
        if (value.value === null) parts.push(Buffer.from('$-1\r\n'));
        else parts.push(Buffer.from(`$${value.value.length}\r\n`), value.value, Buffer.from('\r\n'));
        return;
      case 'null':
        parts.push(Buffer.from('$-1\r\n'));
        return;
      case 'double':
        parts.push(Buffer.from(`$${String(value.value).length}\r\n${value.value}\r\n`));
        return;
      case 'boolean':
        parts.push(Buffer.from(`:${value.value ? 1 : 0}\r\n`));
        return;
      case 'array':
      case 'set':
      case 'push':
        if (value.items === null) {
          parts.push(Buffer.from('*-1\r\n'));
          return;
        }
        parts.push(Buffer.from(`*${value.items.length}\r\n`));
        for (const item of value.items) add(item);
        return;
      case 'map':
        parts.push(Buffer.from(`*${value.entries.length * 2}\r\n`));
        for (const [key, item] of value.entries) {
          add(key);
          add(item);
        }
        return;
    }
  };
  add(reply);
  return Buffer.concat(parts);
}
