import { createServer, type Server, type Socket } from 'node:net';
import { asCommand, RespProtocolError, RespReplyDecoder } from './redis/reply-decoder.js';
import { bulk, encodeReply, error, simple } from './redis/resp.js';
import type { CommandOutcome } from './slash-commands.js';
import { HOST_LIMITS, mebibytes } from './host-limits.js';
import { listenOnUnixSocket } from './unix-socket.js';

/**
 * The socket the sandbox's `/sqlite-memory`, `/eventbus` and other slash
 * command shims talk to. It speaks RESP so the shims can use the real
 * `redis-cli` as their client (it starts in ~2 ms; a Node client would cost
 * ~50 ms per call). One server per run: whoever connects to it *is* that run's
 * agent, which is how identity reaches the memory store without trusting
 * anything the hook can change.
 *
 * Every reply is one bulk string `EXIT \x1f STDERR \x1f STDOUT \x1f`, which the
 * shim splits back into an exit status and two streams (redis-cli itself exits
 * 0 even on error replies, so errors cannot carry the status). The closing
 * separator keeps STDOUT's trailing newlines through the shell's command
 * substitution, which strips them, without a second command to mark the end.
 */

export const REPLY_SEPARATOR = '\x1f';

export type ControlHandler = (command: string, args: string[]) => Promise<CommandOutcome>;

export interface ControlServer {
  socketPath: string;
  close(): Promise<void>;
  /** Connections refused for too many open at once (unix-socket.ts). */
  refused?: () => number;
}

export function packOutcome(result: CommandOutcome): string {
  const stderr = result.stderr.replaceAll(REPLY_SEPARATOR, ' ');
  return `${result.exitCode}${REPLY_SEPARATOR}${stderr}${REPLY_SEPARATOR}${result.stdout}${REPLY_SEPARATOR}`;
}

/** Frames bigger than this are refused: hook arguments cannot exceed the kernel's 128 KiB per argument anyway. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export async function startControlServer(socketPath: string, handle: ControlHandler): Promise<ControlServer> {
  const sockets = new Set<Socket>();
  let serverClosed = false;
  /** Bytes of requests the run's connections have read and not yet served. */
  let inputBytes = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    // Requests read but not yet served. Dropped when the connection or the run ends: nothing runs for a closed socket.
    const pending: (string[] | undefined)[] = [];
    let pendingBytes = 0;
    let counted = 0;
    const decoder = new RespReplyDecoder({ maxBulkLength: MAX_REQUEST_BYTES, maxElements: 100_000, inline: true });
    const countInput = (): void => {
      const held = refused || socket.destroyed ? 0 : decoder.bufferedBytes + pendingBytes;
      inputBytes += held - counted;
      counted = held;
    };
    let serving = false;
    /** Set when the connection is refused (a protocol error, too much waiting): what it sends after is not read. */
    let refused = false;
    const ended = (): boolean => serverClosed || refused || socket.destroyed;
    socket.on('close', () => {
      pending.length = 0;
      pendingBytes = 0;
      countInput();
      sockets.delete(socket);
    });
    socket.on('error', () => socket.destroy());
    // Back-pressure: a client is read only while few of its requests wait and its replies are being read.
    const throttle = (): void => {
      if (ended()) return;
      const behind = pending.length >= HOST_LIMITS.controlPendingRequests || socket.writableLength > HOST_LIMITS.outputHighWaterMark;
      if (behind) socket.pause();
      else if (socket.isPaused()) socket.resume();
    };
    // Replies go out in request order: one request at a time.
    const serve = async (): Promise<void> => {
      if (serving) return;
      serving = true;
      try {
        while (pending.length > 0 && !ended() && socket.writableLength <= HOST_LIMITS.outputHighWaterMark) {
          // A turn of the event loop between requests: a handler may finish in microtasks alone, and a
          // queue of them would otherwise hold off the run's timers and this socket's close for its whole length.
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (ended()) break;
          const words = pending.shift();
          pendingBytes -= wordBytes(words);
          countInput();
          const reply = await answer(words, handle);
          if (ended()) break;
          socket.write(reply);
        }
      } finally {
        serving = false;
        if (ended()) pending.length = 0;
        throttle();
      }
    };
    socket.on('drain', () => {
      throttle();
      void serve();
    });
    socket.on('data', (chunk) => {
      if (ended()) return;
      decoder.push(chunk);
      let frames;
      try {
        if (decoder.bufferedBytes > MAX_REQUEST_BYTES) throw new RespProtocolError('request too large');
        frames = decoder.drain();
      } catch (failure) {
        refused = true;
        pending.length = 0;
        pendingBytes = 0;
        countInput();
        socket.end(encodeReply(error(`Protocol error: ${(failure as Error).message}`)));
        return;
      }
      for (const frame of frames) {
        const words = asCommand(frame);
        pending.push(words);
        pendingBytes += wordBytes(words);
      }
      countInput();
      if (inputBytes > HOST_LIMITS.controlInputBytes) {
        refused = true;
        pending.length = 0;
        pendingBytes = 0;
        countInput();
        socket.end(
          encodeReply(
            error(`too many requests waiting (the control socket holds at most ${mebibytes(HOST_LIMITS.controlInputBytes)} of them)`),
          ),
        );
        return;
      }
      throttle();
      void serve();
    });
  });
  const listening = await listenOnUnixSocket(server, socketPath, sockets);
  return {
    socketPath: listening.socketPath,
    ...(listening.refused ? { refused: listening.refused } : {}),
    close: () => {
      serverClosed = true;
      return listening.close();
    },
  };
}

function wordBytes(words: string[] | undefined): number {
  let bytes = 0;
  for (const word of words ?? []) bytes += word.length;
  return bytes;
}

async function answer(words: string[] | undefined, handle: ControlHandler): Promise<Buffer> {
  if (!words || words.length === 0) return encodeReply(error('expected a command'));
  const [name = '', ...args] = words;
  switch (name.toUpperCase()) {
    case 'PING':
      return encodeReply(simple('PONG'));
    // redis-cli sends these when the environment asks it to (REDISCLI_AUTH, -n); they are harmless here.
    case 'AUTH':
    case 'SELECT':
    case 'CLIENT':
      return encodeReply(simple('OK'));
    case 'VAH.CALL': {
      const [command = '', ...rest] = args;
      try {
        const packed = packOutcome(await handle(command, rest));
        if (packed.length <= HOST_LIMITS.slashReplyBytes) return encodeReply(bulk(packed));
        return encodeReply(
          bulk(
            packOutcome({
              exitCode: 1,
              stdout: '',
              stderr: `${command}: the reply is too large (${packed.length} characters; a command's output is at most ${mebibytes(HOST_LIMITS.slashReplyBytes)})\n`,
            }),
          ),
        );
      } catch (failure) {
        return encodeReply(
          bulk(packOutcome({ exitCode: 70, stdout: '', stderr: `${command}: executor error: ${(failure as Error).message}\n` })),
        );
      }
    }
    default:
      return encodeReply(error(`unknown command '${name.slice(0, 40)}'`));
  }
}
