/**
 * One client connection of the Redis fake (networking.c): reads requests,
 * runs them in order, queues them in MULTI, parks the client while it blocks,
 * writes replies with back-pressure, and traces every command.
 */
import type { Socket } from 'node:net';

import { HOST_LIMITS, mebibytes } from '../host-limits.js';
import { longTimeout, type LongTimer } from '../../timers.js';
import type { BlockRequest } from './blocking.js';
import { asciiLower, fromByteString } from './bytes.js';
import {
  isBlockRequest,
  resolveCommand,
  type ClientState,
  type CommandContext,
  type CommandResult,
  type CommandSpec,
  type ReplySequence,
} from './commands.js';
import { ReplyError, arityError } from './errors.js';
import { RespRequestParser } from './request-parser.js';
import { NULL_ARRAY, NULL_BULK, appendEncodedReply, array, error, simple, type RespReply } from './resp.js';
import type { RedisFakeServer } from './server.js';
import { Subscriptions } from './subscriptions.js';
import { toTracedReply, type CommandTraceEntry } from './trace.js';

/** What a client connection may do while it is subscribed (RESP2). */
const PUBSUB_ALLOWED = new Set(['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'ping', 'quit', 'reset']);
/** Commands MULTI runs at once instead of queueing. */
const TRANSACTION_CONTROL = new Set(['exec', 'discard', 'multi', 'reset', 'quit']);

/** Output above this is not added to, and the socket not read, until the client reads: a flood cannot grow memory without end. */
const OUTPUT_HIGH_WATER_MARK = HOST_LIMITS.outputHighWaterMark;
/** Pushed messages (pub/sub, MONITOR) a client lets pile up unread past this cost it its connection. */
const PUSH_OUTPUT_LIMIT = HOST_LIMITS.subscriberOutputBytes;
/** Input read ahead of a client that waits, before its socket is paused. */
const READ_AHEAD_BYTES = 1024 * 1024;
/** A client's pipelined requests run this long at most before the event loop takes a turn. */
const PUMP_SLICE_MS = 20;
/** Replies are written out once this much has gathered, so the high-water mark sees them. */
const FLUSH_BYTES = 64 * 1024;
/** Bytes counted for each argument of a blocked command besides its own: its entry in a key's wait queue, the queue itself. */
const BLOCKED_ARGUMENT_OVERHEAD = 64;
/** How long a connection closed after an error waits for the client to hang up before it is cut. */
const CLOSE_GRACE_MS = 1000;
export class Connection {
  readonly state: ClientState;
  name: string | null = null;
  readonly subscriptions: Subscriptions;
  /** Commands queued by MULTI, or null outside a transaction. */
  transaction: { queued: string[][]; failed: boolean; bytes?: number } | null = null;

  private readonly parser: RespRequestParser;
  private readonly maxQueryBuffer: number;
  private output: Buffer[] = [];
  /** Bytes in `output`, counted as commands add to it. */
  private outputBytes = 0;
  /** This connection's share of the server's buffered input, as last counted. */
  private inputCounted = 0;
  /** This connection's share of the server's unsent output, as last counted. */
  private outputCounted = 0;
  /** Set while the client waits on a blocking command or an asynchronous extra command. */
  private busy = false;
  /** Set by QUIT and protocol errors: send what is pending, then hang up. */
  private closing = false;
  private gone = false;
  private unblock: (() => void) | null = null;
  /** The blocking command waiting for data, so a disconnect can still be traced. */
  private blockedOn: { args: string[]; startedAt: number } | null = null;
  /** The blocked command's arguments and wait-queue places, counted as input until it is answered (see `block`). */
  private blockedBytes = 0;
  private pumpScheduled = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly server: RedisFakeServer,
    /** Where this connection's commands are traced, when not to the server's `onCommand`. */
    private readonly onCommand?: (entry: CommandTraceEntry) => void,
  ) {
    this.state = { id, dbIndex: 0 };
    this.subscriptions = new Subscriptions(server);
    this.parser = new RespRequestParser({ maxBulkLength: server.maxBulkLength });
    this.maxQueryBuffer = server.maxBulkLength * 2 + 1024 * 1024;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('drain', () => {
      this.countOutput();
      if (this.socket.isPaused() && !this.gone) this.socket.resume();
      this.schedulePump();
    });
    socket.on('error', () => this.destroy());
  }

  /** Sends a reply that no command of this client asked for (pub/sub messages, MONITOR lines). */
  push(reply: RespReply): void {
    if (this.gone) return;
    // Like Redis's client-output-buffer-limit for pub/sub clients: one that does not read is dropped, not buffered for.
    if (this.socket.writableLength > PUSH_OUTPUT_LIMIT) {
      this.trace([], this.server.now(), error(`disconnected: more than ${mebibytes(PUSH_OUTPUT_LIMIT)} of messages were left unread`), {
        push: true,
      });
      this.destroy();
      return;
    }
    appendEncodedReply(reply, this.output);
    this.flush();
    // Dropped for the output all connections left unsent: the message never went.
    if (this.socket.destroyed) return;
    this.trace([], this.server.now(), reply, { push: true });
  }

  /** Ends the connection now; a blocked client leaves its wait queues. */
  destroy(): void {
    this.leave();
    this.socket.destroy();
    this.countOutput();
  }

  /** Bytes written to the socket and not yet sent, as last counted. */
  get unsentOutput(): number {
    return this.outputCounted;
  }

  /** Dropped because the unsent output of all connections passed its bound, and this one held the most of it. */
  evict(): void {
    const message = `disconnected: replies left unread on all connections passed ${mebibytes(HOST_LIMITS.redisUnsentOutputBytes)} (this one had ${this.outputCounted} bytes of them)`;
    this.trace([], this.server.now(), error(message), { push: true });
    this.destroy();
  }

  /** Until the socket is gone, including while a closing connection's last replies go out. */
  private countOutput(): void {
    const unsent = this.socket.destroyed ? 0 : this.socket.writableLength;
    this.server.unsentOutputBytes += unsent - this.outputCounted;
    this.outputCounted = unsent;
  }

  private countInput(): void {
    const buffered = this.gone ? 0 : this.parser.bufferedBytes + (this.transaction?.bytes ?? 0) + this.blockedBytes;
    this.server.inputBytes += buffered - this.inputCounted;
    this.inputCounted = buffered;
  }

  private leave(): void {
    if (this.gone) return;
    this.gone = true;
    this.parser.release();
    this.countInput();
    this.unblock?.();
    this.unblock = null;
    this.subscriptions.clear();
    this.server.monitors.delete(this);
    if (this.blockedOn) {
      this.trace(this.blockedOn.args, this.blockedOn.startedAt, NULL_BULK, { disconnected: true });
      this.blockedOn = null;
    }
  }

  quit(): void {
    this.closing = true;
  }

  reset(): void {
    this.state.dbIndex = 0;
    this.name = null;
    this.subscriptions.clear();
    this.server.monitors.delete(this);
    this.transaction = null;
  }

  private receive(chunk: Buffer): void {
    if (this.gone || this.closing) return;
    this.parser.push(chunk);
    this.pump();
    // Like Redis's client-query-buffer-limit: a client that never completes a request is dropped;
    // and so is one that takes the input all the server's clients have buffered past its bound.
    if (this.parser.bufferedBytes > this.maxQueryBuffer || this.server.inputBytes > this.server.maxInputBytes) {
      this.destroy();
      return;
    }
    // A client that waits (a blocking pop, an asynchronous command) is not read ahead of by more than a little.
    if (this.busy && this.parser.bufferedBytes > READ_AHEAD_BYTES) this.socket.pause();
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Runs the client's buffered requests in order until it has to wait. */
  private pump(): void {
    try {
      if (this.socket.isPaused() && !this.busy && !this.gone && this.socket.writableLength <= OUTPUT_HIGH_WATER_MARK) this.socket.resume();
      const sliceEnds = performance.now() + PUMP_SLICE_MS;
      while (!this.busy && !this.gone && !this.closing) {
        if (this.outputBytes > FLUSH_BYTES) this.flush();
        if (performance.now() > sliceEnds) {
          // The rest after a turn of the event loop, so the run's timers and other clients are not held off.
          this.schedulePump();
          break;
        }
        if (this.socket.writableLength > OUTPUT_HIGH_WATER_MARK) {
          // Not read until the client has read its replies; above the socket's own mark, 'drain' resumes it.
          this.socket.pause();
          break;
        }
        const request = this.parser.next();
        if (!request) break;
        if (request.kind === 'protocol-error') {
          appendEncodedReply(error(request.message), this.output);
          this.closing = true;
          break;
        }
        const before = this.output.length;
        this.execute(request.args.map((arg) => arg.toString('latin1')));
        for (let i = before; i < this.output.length; i++) this.outputBytes += this.output[i]!.length;
      }
    } catch (thrown) {
      // Only a bug in the fake gets here; it costs this client its connection, never the executor its process.
      appendEncodedReply(replyForThrown(thrown), this.output);
      this.closing = true;
    }
    this.flush();
    this.countInput();
  }

  private flush(): void {
    if (this.gone) return;
    if (this.output.length > 0) {
      const data = this.output.length === 1 ? this.output[0]! : Buffer.concat(this.output);
      this.output = [];
      this.outputBytes = 0;
      this.socket.write(data, () => this.countOutput());
      this.countOutput();
      if (this.server.boundUnsentOutput(this)) return;
    }
    if (this.closing) {
      this.leave();
      // Half-close so the reply is read before the socket goes; input still arriving
      // is read and dropped, since unread input would reset the connection and lose the reply.
      this.socket.end();
      setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
    }
  }

  private execute(args: string[]): void {
    const startedAt = this.server.now();
    const spec = resolveCommand(this.server.commands, args);
    if (!('run' in spec)) {
      if (this.transaction) this.transaction.failed = true;
      this.respond(args, startedAt, spec);
      return;
    }
    const name = spec.name.split('|')[0]!;
    if (this.subscriptions.count > 0 && !PUBSUB_ALLOWED.has(name)) {
      const message = `Can't execute '${spec.name}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`;
      this.respond(args, startedAt, error(message));
      return;
    }
    if (this.transaction && !TRANSACTION_CONTROL.has(name)) {
      this.transaction.queued.push(args);
      // Queued commands are input not yet run: they count toward the server's bound like unparsed bytes.
      for (const arg of args) this.transaction.bytes = (this.transaction.bytes ?? 0) + arg.length + 16;
      this.respond(args, startedAt, simple('QUEUED'));
      return;
    }

    const result = runSafely(spec, args, this.server.contextFor(this));
    if (result instanceof Promise) {
      // Later requests wait, so the client gets its replies in order.
      this.busy = true;
      void result
        .catch((thrown: unknown) => replyForThrown(thrown))
        .then((settled) => {
          this.busy = false;
          if (this.gone) {
            // The handler's side effects happened all the same: keep them in the trace.
            if (!isBlockRequest(settled)) {
              this.trace(args, startedAt, settled.kind === 'replies' ? array(settled.replies) : settled, { disconnected: true });
            }
            return;
          }
          this.complete(args, startedAt, settled);
          this.flush();
          this.schedulePump();
        });
      return;
    }
    this.complete(args, startedAt, result);
  }

  private complete(args: string[], startedAt: number, result: CommandResult): void {
    if (isBlockRequest(result)) this.block(args, startedAt, result);
    else this.respond(args, startedAt, result);
    this.server.feedMonitors(this, args);
    this.server.store.serveBlockedClients();
  }

  private respond(args: string[], startedAt: number, result: RespReply | ReplySequence): void {
    const replies = result.kind === 'replies' ? result.replies : [result];
    for (const reply of replies) appendEncodedReply(reply, this.output);
    this.trace(args, startedAt, result.kind === 'replies' ? array(result.replies) : result);
  }

  /**
   * Parks the client. Its arguments stay held until it is answered, so they count toward the server's
   * input bound as a MULTI queue does: twenty clients blocked on a 60 MB key each held 1.5 GB, uncounted.
   */
  private block(args: string[], startedAt: number, request: BlockRequest): void {
    this.busy = true;
    this.blockedOn = { args, startedAt };
    this.blockedBytes = 0;
    for (const arg of args) this.blockedBytes += arg.length + BLOCKED_ARGUMENT_OVERHEAD;
    let timer: LongTimer | null = null;
    const resume = (reply: RespReply): void => {
      timer?.cancel();
      this.unblock = null;
      this.blockedOn = null;
      this.blockedBytes = 0;
      this.busy = false;
      this.respond(args, startedAt, reply);
      this.flush();
      this.schedulePump();
    };
    const unpark = this.server.store.block(request, resume);
    this.unblock = () => {
      timer?.cancel();
      unpark();
    };
    if (request.timeoutMs > 0) {
      // A timeout past setTimeout's 24.8 days would fire at once (src/timers.ts).
      timer = longTimeout(() => {
        unpark();
        resume(NULL_ARRAY);
      }, request.timeoutMs);
    }
  }

  private trace(args: string[], startedAt: number, reply: RespReply, extra: { disconnected?: true; push?: true } = {}): void {
    const onCommand = this.onCommand ?? this.server.onCommand;
    if (!onCommand) return;
    const now = this.server.now();
    try {
      onCommand({
        t: startedAt,
        durationMs: now - startedAt,
        client: this.id,
        db: this.state.dbIndex,
        // The trace is kept and shown; a password in it would leak.
        command: (args[0]?.toLowerCase() === 'auth' ? [args[0], ...args.slice(1).map(() => '(redacted)')] : args).map(fromByteString),
        reply: toTracedReply(reply),
        ...extra,
      });
    } catch {
      // A faulty trace sink must not break the client's session.
    }
  }
}

export function runSafely(spec: CommandSpec, args: string[], ctx: CommandContext): CommandResult | Promise<CommandResult> {
  try {
    return spec.run(args, ctx);
  } catch (thrown) {
    return replyForThrown(thrown);
  }
}

export function replyForThrown(thrown: unknown): RespReply {
  if (thrown instanceof ReplyError) return thrown.reply;
  // A bug in the fake (or an extra command) answers like a Redis error instead of crashing the executor.
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return error(`internal error in the Redis fake: ${message}`);
}

export type ConnectionHandler = (args: string[], connection: Connection, ctx: CommandContext) => CommandResult | Promise<CommandResult>;

/** Builds connection commands for `server`; their handlers get the connection the command came on. */
export function connectionCommandFactory(server: RedisFakeServer) {
  return function connectionCommand(name: string, arity: number, handler: ConnectionHandler, subcommands?: CommandSpec[]): CommandSpec {
    return {
      name,
      arity,
      ...(subcommands ? { subcommands: new Map(subcommands.map((sub) => [sub.name.split('|')[1]!, sub])) } : {}),
      run: (args, ctx) => {
        const connection = server.connectionOf(ctx);
        if (!connection) return error(`'${name}' needs a client connection`);
        return handler(args, connection, ctx);
      },
    };
  };
}

/** The base of a container command never runs: without a subcommand its arity check fails first. */
export const needsSubcommand: ConnectionHandler = (args) => arityError(asciiLower(args[0] ?? ''));
