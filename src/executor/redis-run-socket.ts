import { createServer, type Socket } from 'node:net';
import type { RedisFake } from './redis/index.js';
import type { CommandTraceEntry } from './redis/trace.js';
import type { TracingProxy } from './redis-proxy.js';
import { boundTraceValue, traceWords } from './trace-bounds.js';
import type { RedisOperation } from './trace.js';
import { listenOnUnixSocket } from './unix-socket.js';

/**
 * A run's Redis socket in front of the embedded fake. It does not parse or
 * forward anything: each connection is handed to the fake, which traces
 * every command from its own dispatch — the arguments as its parser read
 * them (inline commands included), the replies it sent (all of them, for
 * SUBSCRIBE a b c), the messages it pushed — whatever size or shape the
 * requests before it had.
 */
export async function startFakeRunSocket(options: {
  socketPath: string;
  fake: RedisFake;
  record: (operation: Omit<RedisOperation, 'kind' | 'agentId' | 'runId'>) => RedisOperation;
  /** The fake's clock, and the trace's: to place a command at the time it arrived. */
  fakeNow: () => number;
  traceNow: () => number;
}): Promise<TracingProxy> {
  const sockets = new Set<Socket>();
  const onCommand = (entry: CommandTraceEntry): void => {
    const arrived = options.traceNow() - (options.fakeNow() - entry.t);
    options.record({
      t: Math.round(Math.max(0, arrived) * 10) / 10,
      command: traceWords(entry.command),
      reply: entry.disconnected && entry.reply === null ? undefined : boundTraceValue(entry.reply),
      durationMs: Math.round(entry.durationMs * 10) / 10,
      ...(entry.push ? { push: true } : {}),
    });
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    options.fake.adopt(socket, onCommand);
  });
  return listenOnUnixSocket(server, options.socketPath, sockets);
}
