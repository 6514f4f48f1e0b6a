import { chmodSync, unlinkSync } from 'node:fs';
import type { Server, Socket } from 'node:net';
import { HOST_LIMITS } from './host-limits.js';

/** A server listening on a Unix socket the sandbox's user connects to, closed with every connection it holds. */
export interface UnixSocketServer {
  socketPath: string;
  close(): Promise<void>;
  /** Connections refused because `HOST_LIMITS.runSocketConnections` were open. */
  refused?: () => number;
}

/**
 * Listens on `socketPath` (replacing a stale file). The sandbox user is not
 * the host user, and connecting needs write permission on the socket file, so
 * it is 0666; what keeps other users out is the 0700 directory around it.
 * `close` destroys the connections in `sockets`, then the server.
 *
 * Each connection is a descriptor of the executor's process, and a hook may
 * open as many as its processes have descriptors (128 × 1024): 22 processes
 * holding 1010 connections each took the executor to its limit of 20,000
 * open files, and every other run of the process with it. Past
 * `HOST_LIMITS.runSocketConnections` open at once, a connection is closed as
 * soon as it is accepted (Node's `maxConnections`), and counted in `refused`.
 */
export async function listenOnUnixSocket(server: Server, socketPath: string, sockets: ReadonlySet<Socket>): Promise<UnixSocketServer> {
  let refused = 0;
  server.maxConnections = HOST_LIMITS.runSocketConnections;
  server.on('drop', () => {
    refused++;
  });
  // Synchronous: through the thread pool each call waited for a turn of the event loop, while a sandbox waited for the socket.
  try {
    unlinkSync(socketPath);
  } catch {
    // None there (listen says what else is in the way).
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o666);
  return {
    socketPath,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
