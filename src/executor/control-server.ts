import { createServer, type Server, type Socket } from 'node:net';
import { asCommand, RespProtocolError, RespReplyDecoder } from './redis/reply-decoder.js';
import { bulk, encodeReply, error, simple } from './redis/resp.js';
import type { CommandOutcome } from './slash-commands.js';
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
}

export function packOutcome(result: CommandOutcome): string {
  const stderr = result.stderr.replaceAll(REPLY_SEPARATOR, ' ');
  return `${result.exitCode}${REPLY_SEPARATOR}${stderr}${REPLY_SEPARATOR}${result.stdout}${REPLY_SEPARATOR}`;
}

/** Frames bigger than this are refused: hook arguments cannot exceed the kernel's 128 KiB per argument anyway. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export async function startControlServer(socketPath: string, handle: ControlHandler): Promise<ControlServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const decoder = new RespReplyDecoder({ maxBulkLength: MAX_REQUEST_BYTES, maxElements: 100_000, inline: true });
    // Replies go out in request order even when a later command finishes first.
    let queue = Promise.resolve();
    socket.on('data', (chunk) => {
      decoder.push(chunk);
      let frames;
      try {
        if (decoder.bufferedBytes > MAX_REQUEST_BYTES) throw new RespProtocolError('request too large');
        frames = decoder.drain();
      } catch (failure) {
        socket.end(encodeReply(error(`Protocol error: ${(failure as Error).message}`)));
        return;
      }
      for (const frame of frames) {
        const words = asCommand(frame);
        queue = queue.then(async () => {
          const reply = await answer(words, handle);
          if (!socket.destroyed) socket.write(reply);
        });
      }
    });
  });
  return listenOnUnixSocket(server, socketPath, sockets);
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
        return encodeReply(bulk(packOutcome(await handle(command, rest))));
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
