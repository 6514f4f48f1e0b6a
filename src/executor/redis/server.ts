/**
 * The Redis fake's server: a RESP2 server on a Unix socket that the real
 * `redis-cli -s SOCKET` talks to from inside the hook sandbox. It owns the
 * connections (connection.ts) and what belongs to them: the connection
 * commands (connection-commands.ts), pub/sub (pubsub.ts, subscriptions.ts), MULTI (multi.ts);
 * data commands go to the Store.
 */
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';

import { fromByteString } from './bytes.js';
import type { ClientState, CommandContext, CommandSpec, CommandTable } from './commands.js';
import { connectionCommands } from './connection-commands.js';
import { Connection } from './connection.js';
import { globBudget, globMatch } from './glob.js';
import { DEFAULT_MAX_BULK_LENGTH, array, bulkBytes, simple, type RespReply } from './resp.js';
import { Store } from './store.js';
import type { CommandTraceEntry } from './trace.js';
import { HOST_LIMITS } from '../host-limits.js';

export { toTracedReply, type CommandTraceEntry, type TracedReply } from './trace.js';

export interface ExtraCommandContext {
  readonly clientId: number;
  readonly store: Store;
}

/**
 * A command the executor adds (e.g. `VAH.MEMORY`). `args` are the arguments
 * after the command name, decoded as UTF-8; arity checks are the handler's.
 */
export type ExtraCommandHandler = (args: string[], ctx: ExtraCommandContext) => RespReply | Promise<RespReply>;

export interface RedisFakeOptions {
  socketPath: string;
  /** Milliseconds since the epoch; drives key expiry and trace times (not blocking timeouts). */
  now?: () => number;
  /** Share one store between sockets; by default each fake has its own. */
  store?: Store;
  onCommand?: (entry: CommandTraceEntry) => void;
  /** Commands added to (or replacing) the built-in ones, by case-insensitive name. */
  extraCommands?: Record<string, ExtraCommandHandler>;
  /**
   * Set to false for a control socket that should answer only the extra
   * commands (plus PING, QUIT and the other connection commands).
   */
  dataCommands?: boolean;
  /** Largest bulk string a client may send; Redis allows 512 MB. */
  maxBulkLength?: number;
  /**
   * Permissions of the socket file (Redis's unixsocketperm). Connecting needs
   * write permission, and sandboxed hooks may run as another uid; the default
   * 0o666 leaves access control to the directory holding the socket.
   */
  socketMode?: number;
}

export interface RedisFake {
  readonly socketPath: string;
  readonly store: Store;
  /** Connections currently open. */
  readonly clientCount: number;
  /** Closes every connection (blocked clients included) and removes the socket file. */
  close(): Promise<void>;
  /** Serves a connection accepted on another socket, traced to `onCommand`. */
  adopt(socket: Socket, onCommand?: (entry: CommandTraceEntry) => void): void;
}

export async function startRedisFake(options: RedisFakeOptions): Promise<RedisFake> {
  const fake = new RedisFakeServer(options);
  await fake.listen();
  return fake;
}

export class RedisFakeServer implements RedisFake {
  readonly socketPath: string;
  readonly store: Store;
  readonly now: () => number;
  readonly commands: CommandTable;
  readonly maxBulkLength: number;
  /** Bytes of requests all connections have read and not yet run; a connection that takes it past `maxInputBytes` is dropped. */
  inputBytes = 0;
  readonly maxInputBytes: number;
  /** Bytes written to all connections' sockets and not yet sent; past HOST_LIMITS.redisUnsentOutputBytes connections are dropped. */
  unsentOutputBytes = 0;
  /** Bytes of channel and pattern names all connections are subscribed to; SUBSCRIBE past HOST_LIMITS.redisSubscriptionBytes is refused. */
  subscriptionBytes = 0;
  private readonly socketMode: number;
  readonly onCommand: ((entry: CommandTraceEntry) => void) | undefined;
  readonly connections = new Set<Connection>();
  readonly monitors = new Set<Connection>();
  /** Connection commands find their connection from the command context's client state. */
  private readonly connectionsByClient = new WeakMap<ClientState, Connection>();
  readonly config = new Map<string, string>();
  private readonly server: Server;
  private nextClientId = 1;
  private closed = false;

  constructor(options: RedisFakeOptions) {
    this.socketPath = options.socketPath;
    this.now = options.now ?? options.store?.now ?? Date.now;
    this.store = options.store ?? new Store({ now: this.now });
    this.maxBulkLength = options.maxBulkLength ?? DEFAULT_MAX_BULK_LENGTH;
    this.maxInputBytes = Math.max(HOST_LIMITS.redisInputBytes, this.maxBulkLength * 2 + 2 * 1024 * 1024);
    this.socketMode = options.socketMode ?? 0o666;
    this.onCommand = options.onCommand;
    this.commands = new Map(options.dataCommands === false ? [] : this.store.commands);
    for (const spec of connectionCommands(this)) this.commands.set(spec.name, spec);
    for (const [name, handler] of Object.entries(options.extraCommands ?? {})) {
      this.commands.set(name.toLowerCase(), extraCommand(name.toLowerCase(), handler));
    }
    for (const [name, value] of Object.entries({
      save: '',
      appendonly: 'no',
      databases: String(this.store.databases.length),
      maxmemory: String(this.store.budget.maxBytes),
      'maxmemory-policy': 'noeviction',
      'notify-keyspace-events': '',
      port: '0',
      timeout: '0',
      unixsocket: this.socketPath,
      'proto-max-bulk-len': String(this.maxBulkLength),
    })) {
      this.config.set(name, value);
    }
    this.server = createServer((socket) => this.accept(socket));
  }

  get clientCount(): number {
    return this.connections.size;
  }

  async listen(): Promise<void> {
    // Synchronous, as the executor's other sockets (src/executor/unix-socket.ts): a session's set-up waits for them.
    removeStaleSocket(this.socketPath);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.socketPath, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    // A client's misbehaviour must never take the executor down.
    this.server.on('error', () => {});
    chmodSync(this.socketPath, this.socketMode);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const serverClosed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of [...this.connections]) connection.destroy();
    await serverClosed;
    await unlink(this.socketPath).catch(() => {});
  }

  /**
   * Serves a connection accepted on another socket (a run's own), its
   * commands traced to `onCommand` instead of the server's: so the executor
   * traces each run from the fake's own dispatch, exact arguments and replies.
   */
  adopt(socket: Socket, onCommand?: (entry: CommandTraceEntry) => void): void {
    this.accept(socket, onCommand);
  }

  private accept(socket: Socket, onCommand?: (entry: CommandTraceEntry) => void): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const connection = new Connection(this.nextClientId++, socket, this, onCommand);
    this.connections.add(connection);
    this.connectionsByClient.set(connection.state, connection);
    socket.once('close', () => {
      connection.destroy();
      this.connections.delete(connection);
    });
  }

  contextFor(connection: Connection): CommandContext {
    return { store: this.store, client: connection.state };
  }

  connectionOf(ctx: CommandContext): Connection | undefined {
    return this.connectionsByClient.get(ctx.client);
  }

  /**
   * Like Redis's maxmemory-clients: while the output all connections have
   * left unsent is past its bound, the connection holding the most is
   * dropped; `writer`, which has just added to it, on a tie. So the
   * connections that pile replies up lose them, not one that sends a small
   * reply at the wrong moment. Returns whether `writer` was dropped.
   */
  boundUnsentOutput(writer: Connection): boolean {
    let writerDropped = false;
    while (this.unsentOutputBytes > HOST_LIMITS.redisUnsentOutputBytes) {
      let largest = writer;
      for (const connection of this.connections) if (connection.unsentOutput > largest.unsentOutput) largest = connection;
      if (largest.unsentOutput === 0) break;
      largest.evict();
      writerDropped ||= largest === writer;
    }
    return writerDropped;
  }

  /** PUBLISH: delivers to channel and pattern subscribers; returns how many received it. */
  publish(channel: string, message: string): number {
    let receivers = 0;
    const budget = globBudget();
    for (const connection of this.connections) {
      if (connection.subscriptions.channels.has(channel)) {
        connection.push(array([bulkBytes('message'), bulkBytes(channel), bulkBytes(message)]));
        receivers++;
      }
      for (const pattern of connection.subscriptions.patterns) {
        if (globMatch(pattern, channel, budget)) {
          connection.push(array([bulkBytes('pmessage'), bulkBytes(pattern), bulkBytes(channel), bulkBytes(message)]));
          receivers++;
        }
      }
    }
    return receivers;
  }

  /** Feeds MONITOR clients, in redis-server's line format. */
  feedMonitors(source: Connection, args: readonly string[]): void {
    if (this.monitors.size === 0 || (this.monitors.size === 1 && this.monitors.has(source))) return;
    const time = this.now();
    const seconds = Math.floor(time / 1000);
    const micros = String(Math.round((time % 1000) * 1000)).padStart(6, '0');
    const shown = args[0]?.toLowerCase() === 'auth' ? [args[0], '(redacted)'] : args;
    const line = `${seconds}.${micros} [${source.state.dbIndex} unix:${this.socketPath}] ${monitorArguments(shown)}`;
    for (const monitor of this.monitors) if (monitor !== source) monitor.push(simple(fromByteString(line)));
  }
}

/** Like Redis, replace a socket file left by an earlier run; but never delete a file of another kind. */
function removeStaleSocket(socketPath: string): void {
  if (lstatSync(socketPath, { throwIfNoEntry: false })?.isSocket()) unlinkSync(socketPath);
}

const MONITOR_ESCAPES: Readonly<Record<number, string>> = {
  0x5c: '\\\\',
  0x22: '\\"',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x07: '\\a',
  0x08: '\\b',
};

/**
 * Bytes of a command's arguments a MONITOR line shows. Quoting takes a step
 * a byte, into a string up to four times longer: two ECHOs of a 60 MB
 * argument with a MONITOR client connected held the executor's event loop
 * for 35 s and took it to 1.4 GB, so no timer (the run's timeout among them)
 * could fire. Past the bound an argument is cut, with its size after it, and
 * the arguments after are counted, not shown; quoted, a line stays under the
 * 64 KiB a client reads of a status line.
 */
export const MONITOR_SHOWN_BYTES = 8 * 1024;

function monitorArguments(args: readonly string[]): string {
  const parts: string[] = [];
  let left = MONITOR_SHOWN_BYTES;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (left <= 0) {
      parts.push(`... (${args.length - i} more arguments)`);
      break;
    }
    const shown = arg.length > left ? arg.slice(0, left) : arg;
    left -= shown.length;
    parts.push(shown.length < arg.length ? `${quoteForMonitor(shown)}... (${arg.length} bytes)` : quoteForMonitor(arg));
  }
  return parts.join(' ');
}

/** Redis's `sdscatrepr`, which MONITOR uses to quote arguments. */
function quoteForMonitor(bytes: string): string {
  let quoted = '"';
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    const escaped = MONITOR_ESCAPES[code];
    if (escaped) quoted += escaped;
    else if (code >= 0x20 && code < 0x7f) quoted += bytes.charAt(i);
    else quoted += `\\x${code.toString(16).padStart(2, '0')}`;
  }
  return `${quoted}"`;
}

function extraCommand(name: string, handler: ExtraCommandHandler): CommandSpec {
  return {
    name,
    arity: -1,
    run: (args, ctx) => handler(args.slice(1).map(fromByteString), { clientId: ctx.client.id, store: ctx.store }),
  };
}
