import { chmod, unlink } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { asCommand, RespReplyDecoder, type DecodedReply } from './redis/reply-decoder.js';
import { encodeCommand } from './redis/resp.js';
import type { RedisOperation } from './trace.js';

/**
 * Where the Redis side listens: the embedded fake's Unix socket, or a real
 * server (Unix socket or TCP) when `--redis-url` is given. `preamble` holds
 * commands (AUTH, SELECT) that every new connection sends first; their replies
 * are not the client's.
 */
export interface RedisUpstream {
  path?: string;
  host?: string;
  port?: number;
  preamble: string[][];
  /** How to name it in output, without the password. */
  description: string;
}

export function connectUpstream(upstream: RedisUpstream): Socket {
  return upstream.path !== undefined ? connect(upstream.path) : connect(upstream.port ?? 6379, upstream.host ?? '127.0.0.1');
}

/** Turns `redis://[user:password@]host[:port][/db]` or `unix:///path[?db=N]` into an upstream. */
export function parseRedisUrl(url: string): RedisUpstream {
  if (url.startsWith('/')) return { path: url, preamble: [], description: `unix:${url}` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`invalid --redis-url '${url}' (expected redis://host:port, rediss is not supported, or unix:///path/to.sock)`);
  }
  const preamble: string[][] = [];
  const password = decodeURIComponent(parsed.password);
  const username = decodeURIComponent(parsed.username);
  if (password) preamble.push(username ? ['AUTH', username, password] : ['AUTH', password]);
  if (parsed.protocol === 'unix:' || parsed.protocol === 'redis+unix:') {
    const db = parsed.searchParams.get('db');
    if (db) preamble.push(['SELECT', db]);
    return { path: parsed.pathname, preamble, description: `unix:${parsed.pathname}` };
  }
  if (parsed.protocol !== 'redis:') throw new Error(`unsupported --redis-url scheme '${parsed.protocol}' (expected redis: or unix:)`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db) preamble.push(['SELECT', db]);
  const host = parsed.hostname || '127.0.0.1';
  const port = parsed.port ? Number(parsed.port) : 6379;
  return { host, port, preamble, description: `redis://${host}:${port}${db ? `/${db}` : ''}` };
}

export interface TracingProxy {
  socketPath: string;
  close(): Promise<void>;
}

/** A client frame bigger than this is passed through without being traced. */
const MAX_TRACED_FRAME_BYTES = 1024 * 1024;

/**
 * A Unix socket in front of the Redis side, one per run, so every command is
 * attributed to the agent that sent it and carries its reply in the trace,
 * whether the server is the fake or a real Redis. Bytes are forwarded as they
 * come; parsing only observes them, and a stream it cannot follow (garbage,
 * huge frames) is still forwarded, only no longer traced.
 */
export async function startTracingProxy(options: {
  socketPath: string;
  upstream: RedisUpstream;
  record: (operation: Omit<RedisOperation, 't' | 'kind' | 'agentId' | 'runId' | 'durationMs'>) => RedisOperation;
  now: () => number;
}): Promise<TracingProxy> {
  const connections = new Set<Socket>();
  const server = createServer((client) => {
    client.pause();
    const server = connectUpstream(options.upstream);
    connections.add(client);
    connections.add(server);
    const closeBoth = (): void => {
      client.destroy();
      server.destroy();
      connections.delete(client);
      connections.delete(server);
    };
    client.on('error', closeBoth);
    server.on('error', closeBoth);
    client.on('close', closeBoth);
    server.on('close', closeBoth);

    let tracing = true;
    const requests = new RespReplyDecoder({ maxBulkLength: MAX_TRACED_FRAME_BYTES, inline: true });
    const replies = new RespReplyDecoder({ maxBulkLength: 512 * 1024 * 1024 });
    const pending: Array<{ operation: RedisOperation; startedAt: number }> = [];
    const stopTracing = (): void => {
      tracing = false;
      pending.length = 0;
    };

    // The client is held back until the preamble's replies are in, so they cannot mix with its own.
    let preambleReplies = options.upstream.preamble.length;
    const preambleOperations: RedisOperation[] = [];
    server.on('connect', () => {
      for (const command of options.upstream.preamble) {
        server.write(encodeCommand(command));
        preambleOperations.push(options.record({ command: command[0] === 'AUTH' ? ['AUTH', '(password)'] : command, reply: undefined }));
      }
      if (preambleReplies === 0) client.resume();
    });
    client.on('data', (chunk) => {
      server.write(chunk);
      if (!tracing) return;
      try {
        requests.push(chunk);
        if (requests.bufferedBytes > MAX_TRACED_FRAME_BYTES) {
          stopTracing();
          return;
        }
        for (const frame of requests.drain()) {
          const command = asCommand(frame) ?? ['(unreadable request)'];
          const operation = options.record({ command, reply: undefined });
          pending.push({ operation, startedAt: options.now() });
        }
      } catch {
        stopTracing();
      }
    });
    server.on('data', (chunk) => {
      if (preambleReplies > 0) {
        replies.push(chunk);
        try {
          for (const value of replies.drain()) {
            const operation = preambleOperations.shift();
            if (operation) {
              operation.reply = toTraceValue(value);
              operation.durationMs = 0;
            }
            preambleReplies--;
          }
        } catch {
          closeBoth();
          return;
        }
        if (preambleReplies === 0) client.resume();
        return;
      }
      client.write(chunk);
      if (!tracing) return;
      try {
        replies.push(chunk);
        for (const value of replies.drain()) settle(value);
      } catch {
        stopTracing();
      }
    });
    const settle = (value: DecodedReply): void => {
      const next = pending.shift();
      if (next) {
        next.operation.reply = toTraceValue(value);
        next.operation.durationMs = Math.round((options.now() - next.startedAt) * 10) / 10;
        return;
      }
      const operation = options.record({ command: [], reply: toTraceValue(value), push: true });
      operation.durationMs = 0;
    };
  });
  await unlink(options.socketPath).catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolve());
  });
  await chmod(options.socketPath, 0o666);
  return {
    socketPath: options.socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One command from the host (the simulator signalling, a test checking a key), over a fresh connection. */
export async function callRedis(upstream: RedisUpstream, command: readonly string[]): Promise<DecodedReply> {
  const socket = connectUpstream(upstream);
  const decoder = new RespReplyDecoder();
  try {
    return await new Promise<DecodedReply>((resolve, reject) => {
      let skip = upstream.preamble.length;
      socket.on('error', reject);
      socket.on('close', () => reject(new Error('Redis connection closed before the reply')));
      socket.on('connect', () => {
        for (const preamble of upstream.preamble) socket.write(encodeCommand(preamble));
        socket.write(encodeCommand(command));
      });
      socket.on('data', (chunk) => {
        decoder.push(chunk);
        try {
          for (const value of decoder.drain()) {
            if (skip > 0) {
              const preamble = upstream.preamble[upstream.preamble.length - skip]!;
              skip--;
              if (value.kind === 'error') reject(new Error(`${preamble[0]!} failed: ${value.message}`));
              continue;
            }
            resolve(value);
          }
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
  } finally {
    socket.destroy();
  }
}

/** Values as they appear in a JSON trace: errors as `{error}`, maps as objects of pairs, long strings cut. */
export function toTraceValue(reply: DecodedReply, maxString = 4096): unknown {
  const text = (value: string): string => (value.length > maxString ? `${value.slice(0, maxString)}…(${value.length} chars)` : value);
  const each = (items: readonly DecodedReply[]): unknown[] => items.map((item) => toTraceValue(item, maxString));
  switch (reply.kind) {
    case 'simple':
      return text(reply.value);
    case 'error':
      return { error: reply.message };
    case 'integer':
      return Number(reply.value);
    case 'bignum':
      return reply.value.toString();
    case 'double':
    case 'boolean':
      return reply.value;
    case 'null':
      return null;
    case 'bulk':
      return reply.value === null ? null : text(reply.value.toString('utf8'));
    case 'verbatim':
      return text(reply.value.toString('utf8'));
    case 'array':
      return reply.items === null ? null : each(reply.items);
    case 'set':
    case 'push':
      return each(reply.items);
    case 'map':
      return { map: reply.entries.map(([key, value]) => [toTraceValue(key, maxString), toTraceValue(value, maxString)]) };
  }
}
