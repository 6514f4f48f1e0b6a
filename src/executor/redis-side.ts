import { join } from 'node:path';
import { callRedis, parseRedisUrl, toTraceValue, type RedisUpstream } from './redis-proxy.js';
import { startRedisFake, type Store } from './redis/index.js';

/**
 * The session's Redis: the embedded fake (`./redis/`) on a Unix socket, or a
 * real server given by `--redis-url`. Hooks never reach it directly; each run
 * gets a tracing proxy in front of it (see redis-proxy.ts).
 */
export interface RedisSide {
  mode: 'fake' | 'real';
  upstream: RedisUpstream;
  /** The fake's store, for callers that inspect state without a round trip; absent for a real server. */
  fakeStore?: Store;
  /** Sends one command from the host and returns the reply as JSON (errors as `{error}`). */
  call(command: readonly string[]): Promise<unknown>;
  close(): Promise<void>;
}

export async function startRedisSide(options: { sessionDir: string; redisUrl?: string; now?: () => number }): Promise<RedisSide> {
  if (options.redisUrl) {
    const upstream = parseRedisUrl(options.redisUrl);
    const side: RedisSide = {
      mode: 'real',
      upstream,
      call: async (command) => toTraceValue(await callRedis(upstream, command)),
      close: () => Promise.resolve(),
    };
    // Fail now, with the URL in the message, rather than in every hook's redis-cli call.
    const pong = await callRedis(upstream, ['PING']).catch((error: unknown) => {
      throw new Error(
        `cannot reach the Redis server at ${upstream.description}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    if (pong.kind === 'error') throw new Error(`the Redis server at ${upstream.description} refused PING: ${pong.message}`);
    return side;
  }
  const fake = await startRedisFake({
    socketPath: join(options.sessionDir, 'redis-fake.sock'),
    ...(options.now ? { now: options.now } : {}),
  });
  const upstream: RedisUpstream = { path: fake.socketPath, preamble: [], description: 'embedded fake' };
  return {
    mode: 'fake',
    upstream,
    fakeStore: fake.store,
    call: async (command) => toTraceValue(await callRedis(upstream, command)),
    close: () => fake.close(),
  };
}
