import { connect, type Socket } from 'node:net';
import { RespReplyDecoder, type DecodedReply } from './redis/reply-decoder.js';
import { encodeCommand } from './redis/resp.js';

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
    // The URL may carry a password; an error message is no place for it.
    throw new Error(
      `invalid --redis-url '${url.replace(/\/\/[^@/]*@/, '//(credentials)@')}' (expected redis://host:port, rediss is not supported, or unix:///path/to.sock)`,
    );
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
  /** Connections refused for too many open at once (unix-socket.ts). */
  refused?: () => number;
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
