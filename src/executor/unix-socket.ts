import { chmod, unlink } from 'node:fs/promises';
import type { Server, Socket } from 'node:net';

/** A server listening on a Unix socket the sandbox's user connects to, closed with every connection it holds. */
export interface UnixSocketServer {
  socketPath: string;
  close(): Promise<void>;
}

/**
 * Listens on `socketPath` (replacing a stale file). The sandbox user is not
 * the host user, and connecting needs write permission on the socket file, so
 * it is 0666; what keeps other users out is the 0700 directory around it.
 * `close` destroys the connections in `sockets`, then the server.
 */
export async function listenOnUnixSocket(server: Server, socketPath: string, sockets: ReadonlySet<Socket>): Promise<UnixSocketServer> {
  await unlink(socketPath).catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o666);
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
