/**
 * The Redis fake's server: a RESP2 server on a Unix socket that the real
 * `redis-cli -s SOCKET` talks to from inside the hook sandbox. It owns the
 * connections and what belongs to them (selected database, blocking,
 * pub/sub, MONITOR, MULTI) and delegates data commands to the Store.
 */
import { chmod, lstat, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';

import {
  DEFAULT_MAX_BULK_LENGTH,
  EMPTY_ARRAY,
  NULL_ARRAY,
  NULL_BULK,
  OK,
  RespRequestParser,
  appendEncodedReply,
  array,
  bulkBytes,
  error,
  integer,
  simple,
  type RespReply,
} from './resp.js';
import {
  ReplyError,
  Store,
  arityError,
  asciiLower,
  fromByteString,
  globMatch,
  isBlockRequest,
  parseLongLong,
  resolveCommand,
  type BlockRequest,
  type ReplySequence,
  type ClientState,
  type CommandContext,
  type CommandResult,
  type CommandSpec,
  type CommandTable,
} from './store.js';

/** The version the fake answers to in HELLO and INFO: the one its replies were checked against. */
export const EMULATED_REDIS_VERSION = '7.0.15';

/** A reply in plain JSON terms, for traces. Integers beyond 2^53 become decimal strings. */
export type TracedReply = string | number | null | { readonly error: string } | readonly TracedReply[];

export interface CommandTraceEntry {
  /** When the command arrived, by the fake's clock (ms). */
  readonly t: number;
  /** How long until it was answered; only blocking and asynchronous commands take time. */
  readonly durationMs: number;
  readonly client: number;
  readonly db: number;
  /** The command and its arguments, decoded as UTF-8. */
  readonly command: string[];
  readonly reply: TracedReply;
  /**
   * The client went away before it could be answered, e.g. a `BLPOP … 0`
   * killed with its hook; `reply` is then null, or what it would have got.
   */
  readonly disconnected?: true;
}

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
}

/** What a client connection may do while it is subscribed (RESP2). */
const PUBSUB_ALLOWED = new Set(['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'ping', 'quit', 'reset']);
/** Commands MULTI runs at once instead of queueing. */
const TRANSACTION_CONTROL = new Set(['exec', 'discard', 'multi', 'reset', 'quit']);

export async function startRedisFake(options: RedisFakeOptions): Promise<RedisFake> {
  const fake = new RedisFakeServer(options);
  await fake.listen();
  return fake;
}

class RedisFakeServer implements RedisFake {
  readonly socketPath: string;
  readonly store: Store;
  readonly now: () => number;
  readonly commands: CommandTable;
  readonly maxBulkLength: number;
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
      maxmemory: '0',
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
    await removeStaleSocket(this.socketPath);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.socketPath, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    // A client's misbehaviour must never take the executor down.
    this.server.on('error', () => {});
    await chmod(this.socketPath, this.socketMode);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const serverClosed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of [...this.connections]) connection.destroy();
    await serverClosed;
    await unlink(this.socketPath).catch(() => {});
  }

  private accept(socket: Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const connection = new Connection(this.nextClientId++, socket, this);
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

  /** PUBLISH: delivers to channel and pattern subscribers; returns how many received it. */
  publish(channel: string, message: string): number {
    let receivers = 0;
    for (const connection of this.connections) {
      if (connection.channels.has(channel)) {
        connection.push(array([bulkBytes('message'), bulkBytes(channel), bulkBytes(message)]));
        receivers++;
      }
      for (const pattern of connection.patterns) {
        if (globMatch(pattern, channel)) {
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
    const line = `${seconds}.${micros} [${source.state.dbIndex} unix:${this.socketPath}] ${shown.map(quoteForMonitor).join(' ')}`;
    for (const monitor of this.monitors) if (monitor !== source) monitor.push(simple(fromByteString(line)));
  }
}

/** Like Redis, replace a socket file left by an earlier run; but never delete a file of another kind. */
async function removeStaleSocket(socketPath: string): Promise<void> {
  const stats = await lstat(socketPath).catch(() => null);
  if (stats?.isSocket()) await unlink(socketPath);
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

/** Redis's `sdscatrepr`, which MONITOR uses to quote arguments. */
function quoteForMonitor(bytes: string): string {
  let quoted = '"';
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    const escaped = MONITOR_ESCAPES[code];
    if (escaped) quoted += escaped;
    else if (code >= 0x20 && code < 0x7f) quoted += bytes[i];
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

export function toTracedReply(reply: RespReply): TracedReply {
  switch (reply.kind) {
    case 'simple':
      return reply.value;
    case 'error':
      return { error: reply.message };
    case 'integer':
      return typeof reply.value === 'bigint' && !Number.isSafeInteger(Number(reply.value)) ? reply.value.toString() : Number(reply.value);
    case 'bulk':
      return reply.value === null ? null : reply.value.toString('utf8');
    case 'array':
      return reply.items === null ? null : reply.items.map(toTracedReply);
  }
}

// ---------------------------------------------------------------------------
// Connections

/** Output above this is not added to until the client reads: a flood cannot grow memory without end. */
const OUTPUT_HIGH_WATER_MARK = 4 * 1024 * 1024;
/** How long a connection closed after an error waits for the client to hang up before it is cut. */
const CLOSE_GRACE_MS = 1000;

class Connection {
  readonly state: ClientState;
  name: string | null = null;
  readonly channels = new Set<string>();
  readonly patterns = new Set<string>();
  /** Commands queued by MULTI, or null outside a transaction. */
  transaction: { queued: string[][]; failed: boolean } | null = null;

  private readonly parser: RespRequestParser;
  private readonly maxQueryBuffer: number;
  private output: Buffer[] = [];
  /** Set while the client waits on a blocking command or an asynchronous extra command. */
  private busy = false;
  /** Set by QUIT and protocol errors: send what is pending, then hang up. */
  private closing = false;
  private gone = false;
  private unblock: (() => void) | null = null;
  /** The blocking command waiting for data, so a disconnect can still be traced. */
  private blockedOn: { args: string[]; startedAt: number } | null = null;
  private pumpScheduled = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly server: RedisFakeServer,
  ) {
    this.state = { id, dbIndex: 0 };
    this.parser = new RespRequestParser({ maxBulkLength: server.maxBulkLength });
    this.maxQueryBuffer = server.maxBulkLength * 2 + 1024 * 1024;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('drain', () => this.schedulePump());
    socket.on('error', () => this.destroy());
  }

  get subscriptionCount(): number {
    return this.channels.size + this.patterns.size;
  }

  /** Sends a reply that no command of this client asked for (pub/sub messages, MONITOR lines). */
  push(reply: RespReply): void {
    if (this.gone) return;
    appendEncodedReply(reply, this.output);
    this.flush();
  }

  /** Ends the connection now; a blocked client leaves its wait queues. */
  destroy(): void {
    this.leave();
    this.socket.destroy();
  }

  private leave(): void {
    if (this.gone) return;
    this.gone = true;
    this.unblock?.();
    this.unblock = null;
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
    this.channels.clear();
    this.patterns.clear();
    this.server.monitors.delete(this);
    this.transaction = null;
  }

  private receive(chunk: Buffer): void {
    if (this.gone || this.closing) return;
    this.parser.push(chunk);
    // Like Redis's client-query-buffer-limit: a client that never completes a request is dropped.
    if (this.parser.bufferedBytes > this.maxQueryBuffer) {
      this.destroy();
      return;
    }
    this.pump();
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
      while (!this.busy && !this.gone && !this.closing) {
        if (this.socket.writableLength > OUTPUT_HIGH_WATER_MARK) break; // resumed on 'drain'
        const request = this.parser.next();
        if (!request) break;
        if (request.kind === 'protocol-error') {
          appendEncodedReply(error(request.message), this.output);
          this.closing = true;
          break;
        }
        this.execute(request.args.map((arg) => arg.toString('latin1')));
      }
    } catch (thrown) {
      // Only a bug in the fake gets here; it costs this client its connection, never the executor its process.
      appendEncodedReply(replyForThrown(thrown), this.output);
      this.closing = true;
    }
    this.flush();
  }

  private flush(): void {
    if (this.gone) return;
    if (this.output.length > 0) {
      const data = this.output.length === 1 ? this.output[0]! : Buffer.concat(this.output);
      this.output = [];
      this.socket.write(data);
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
    if (this.subscriptionCount > 0 && !PUBSUB_ALLOWED.has(name)) {
      const message = `Can't execute '${spec.name}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`;
      this.respond(args, startedAt, error(message));
      return;
    }
    if (this.transaction && !TRANSACTION_CONTROL.has(name)) {
      this.transaction.queued.push(args);
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

  private block(args: string[], startedAt: number, request: BlockRequest): void {
    this.busy = true;
    this.blockedOn = { args, startedAt };
    let timer: NodeJS.Timeout | null = null;
    const resume = (reply: RespReply): void => {
      if (timer) clearTimeout(timer);
      this.unblock = null;
      this.blockedOn = null;
      this.busy = false;
      this.respond(args, startedAt, reply);
      this.flush();
      this.schedulePump();
    };
    const unpark = this.server.store.block(request, resume);
    this.unblock = () => {
      if (timer) clearTimeout(timer);
      unpark();
    };
    if (request.timeoutMs > 0) {
      timer = setTimeout(() => {
        unpark();
        resume(NULL_ARRAY);
      }, request.timeoutMs);
    }
  }

  private trace(args: string[], startedAt: number, reply: RespReply, extra: { disconnected?: true } = {}): void {
    const onCommand = this.server.onCommand;
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

function runSafely(spec: CommandSpec, args: string[], ctx: CommandContext): CommandResult | Promise<CommandResult> {
  try {
    return spec.run(args, ctx);
  } catch (thrown) {
    return replyForThrown(thrown);
  }
}

function replyForThrown(thrown: unknown): RespReply {
  if (thrown instanceof ReplyError) return thrown.reply;
  // A bug in the fake (or an extra command) answers like a Redis error instead of crashing the executor.
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return error(`internal error in the Redis fake: ${message}`);
}

// ---------------------------------------------------------------------------
// Connection-level commands

type ConnectionHandler = (args: string[], connection: Connection, ctx: CommandContext) => CommandResult | Promise<CommandResult>;

/** Builds connection commands for `server`; their handlers get the connection the command came on. */
function connectionCommandFactory(server: RedisFakeServer) {
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

const lower = asciiLower;

/** The base of a container command never runs: without a subcommand its arity check fails first. */
const needsSubcommand: ConnectionHandler = (args) => arityError(asciiLower(args[0] ?? ''));

/** CLIENT SETNAME's rule: printable ASCII without spaces. */
function validClientName(name: string): boolean {
  return /^[!-~]*$/.test(name);
}

function helloReply(connection: Connection): RespReply {
  return array([
    bulkBytes('server'),
    bulkBytes('redis'),
    bulkBytes('version'),
    bulkBytes(EMULATED_REDIS_VERSION),
    bulkBytes('proto'),
    integer(2),
    bulkBytes('id'),
    integer(connection.id),
    bulkBytes('mode'),
    bulkBytes('standalone'),
    bulkBytes('role'),
    bulkBytes('master'),
    bulkBytes('modules'),
    EMPTY_ARRAY,
  ]);
}

const DEFAULT_USER_NOPASS_ERROR =
  'AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?';
const WRONGPASS = '-WRONGPASS invalid username-password pair or user is disabled.';

function subscriptionReply(kind: string, name: string | null, count: number): RespReply {
  return array([bulkBytes(kind), bulkBytes(name), integer(count)]);
}

function connectionCommands(server: RedisFakeServer): CommandSpec[] {
  const connectionCommand = connectionCommandFactory(server);
  const commandInfo = (spec: CommandSpec): RespReply =>
    array([
      bulkBytes(spec.name),
      integer(spec.arity),
      EMPTY_ARRAY,
      integer(0),
      integer(0),
      integer(0),
      EMPTY_ARRAY,
      EMPTY_ARRAY,
      EMPTY_ARRAY,
      EMPTY_ARRAY,
    ]);

  const unsubscribe = (kind: 'unsubscribe' | 'punsubscribe', set: (c: Connection) => Set<string>): ConnectionHandler => {
    return (args, connection) => {
      const names = args.length > 1 ? args.slice(1) : [...set(connection)];
      if (names.length === 0) return subscriptionReply(kind, null, connection.subscriptionCount);
      return {
        kind: 'replies',
        replies: names.map((name) => {
          set(connection).delete(name);
          return subscriptionReply(kind, name, connection.subscriptionCount);
        }),
      };
    };
  };
  const subscribe = (kind: 'subscribe' | 'psubscribe', set: (c: Connection) => Set<string>): ConnectionHandler => {
    return (args, connection) => ({
      kind: 'replies',
      replies: args.slice(1).map((name) => {
        set(connection).add(name);
        return subscriptionReply(kind, name, connection.subscriptionCount);
      }),
    });
  };

  return [
    connectionCommand('ping', -1, (args, connection) => {
      if (args.length > 2) return error(`wrong number of arguments for 'ping' command`);
      if (connection.subscriptionCount > 0) return array([bulkBytes('pong'), bulkBytes(args[1] ?? '')]);
      return args.length === 2 ? bulkBytes(args[1]!) : simple('PONG');
    }),
    connectionCommand('echo', 2, (args) => bulkBytes(args[1]!)),
    connectionCommand('select', 2, (args, connection) => {
      const index = parseLongLong(args[1]!);
      if (index === null) return error('value is not an integer or out of range');
      if (index < 0n || index >= BigInt(server.store.databases.length)) return error('DB index is out of range');
      connection.state.dbIndex = Number(index);
      return OK;
    }),
    connectionCommand('quit', -1, (_args, connection) => {
      connection.quit();
      return OK;
    }),
    connectionCommand('reset', 1, (_args, connection) => {
      connection.reset();
      return simple('RESET');
    }),
    connectionCommand('auth', -2, (args) => {
      if (args.length > 3) return error('syntax error');
      if (args.length === 2) return error(DEFAULT_USER_NOPASS_ERROR);
      // The default user has no password, so Redis accepts any password for it.
      return args[1] === 'default' ? OK : error(WRONGPASS);
    }),
    connectionCommand('hello', -1, (args, connection) => {
      let next = 1;
      if (args.length >= 2) {
        const version = parseLongLong(args[next++]!);
        if (version === null) return error('Protocol version is not an integer or out of range');
        // RESP3 is not emulated: answer as a Redis that does not know it.
        if (version !== 2n) return error('-NOPROTO unsupported protocol version');
      }
      let name: string | null = null;
      for (let j = next; j < args.length; j++) {
        const option = lower(args[j]!);
        const more = args.length - 1 - j;
        if (option === 'auth' && more >= 2) {
          if (args[j + 1] !== 'default') return error(WRONGPASS);
          j += 2;
        } else if (option === 'setname' && more >= 1) {
          name = args[j + 1]!;
          j++;
        } else {
          return error(`Syntax error in HELLO option '${fromByteString(args[j]!)}'`);
        }
      }
      if (name !== null) {
        if (!validClientName(name)) return error('Client names cannot contain spaces, newlines or special characters.');
        connection.name = name === '' ? null : name;
      }
      return helloReply(connection);
    }),
    connectionCommand('client', -2, needsSubcommand, [
      connectionCommand('client|id', 2, (_args, connection) => integer(connection.id)),
      connectionCommand('client|getname', 2, (_args, connection) => bulkBytes(connection.name)),
      connectionCommand('client|setname', 3, (args, connection) => {
        if (!validClientName(args[2]!)) return error('Client names cannot contain spaces, newlines or special characters.');
        connection.name = args[2] === '' ? null : args[2]!;
        return OK;
      }),
      connectionCommand('client|info', 2, (_args, connection) => bulkBytes(`${clientInfoLine(connection, server)}\n`)),
      connectionCommand('client|list', -2, () =>
        bulkBytes([...server.connections].map((each) => `${clientInfoLine(each, server)}\n`).join('')),
      ),
    ]),
    connectionCommand('command', -1, () => array([...server.commands.values()].map(commandInfo)), [
      connectionCommand('command|count', 2, () => integer(server.commands.size)),
      // redis-cli's interactive mode asks for docs to show hints; no docs means no hints.
      connectionCommand('command|docs', -2, () => EMPTY_ARRAY),
      connectionCommand('command|info', -2, (args) =>
        array(
          args.slice(2).map((name) => {
            const spec = server.commands.get(name.toLowerCase());
            return spec ? commandInfo(spec) : NULL_BULK;
          }),
        ),
      ),
      connectionCommand('command|list', -2, () => array([...server.commands.keys()].map((name) => bulkBytes(name)))),
    ]),
    connectionCommand('config', -2, needsSubcommand, [
      connectionCommand('config|get', -3, (args) => {
        const pairs: RespReply[] = [];
        for (const [name, value] of server.config) {
          if (args.slice(2).some((pattern) => globMatch(lower(pattern), name))) pairs.push(bulkBytes(name), bulkBytes(value));
        }
        return array(pairs);
      }),
      connectionCommand('config|set', -4, (args) => {
        if (args.length % 2 === 1) return error(`wrong number of arguments for 'config|set' command`);
        for (let i = 2; i < args.length; i += 2) {
          const name = lower(args[i]!);
          if (!server.config.has(name)) {
            return error(`Unknown option or number of arguments for CONFIG SET - '${fromByteString(args[i]!)}'`);
          }
        }
        for (let i = 2; i < args.length; i += 2) server.config.set(lower(args[i]!), args[i + 1]!);
        return OK;
      }),
      connectionCommand('config|resetstat', 2, () => OK),
      connectionCommand('config|rewrite', 2, () => error('The server is running without a config file')),
    ]),
    connectionCommand('info', -1, () => bulkBytes(infoText(server))),
    connectionCommand('time', 1, () => {
      const now = server.now();
      return array([bulkBytes(String(Math.floor(now / 1000))), bulkBytes(String(Math.round((now % 1000) * 1000)))]);
    }),
    connectionCommand('monitor', 1, (_args, connection) => {
      server.monitors.add(connection);
      return OK;
    }),
    connectionCommand(
      'subscribe',
      -2,
      subscribe('subscribe', (c) => c.channels),
    ),
    connectionCommand(
      'psubscribe',
      -2,
      subscribe('psubscribe', (c) => c.patterns),
    ),
    connectionCommand(
      'unsubscribe',
      -1,
      unsubscribe('unsubscribe', (c) => c.channels),
    ),
    connectionCommand(
      'punsubscribe',
      -1,
      unsubscribe('punsubscribe', (c) => c.patterns),
    ),
    connectionCommand('publish', 3, (args) => integer(server.publish(args[1]!, args[2]!))),
    connectionCommand('pubsub', -2, needsSubcommand, [
      connectionCommand('pubsub|channels', -2, (args) => {
        const pattern = args[2];
        const channels = new Set<string>();
        for (const connection of server.connections) for (const channel of connection.channels) channels.add(channel);
        return array([...channels].filter((channel) => pattern === undefined || globMatch(pattern, channel)).map((c) => bulkBytes(c)));
      }),
      connectionCommand('pubsub|numsub', -2, (args) =>
        array(
          args.slice(2).flatMap((channel) => {
            let count = 0;
            for (const connection of server.connections) if (connection.channels.has(channel)) count++;
            return [bulkBytes(channel), integer(count)];
          }),
        ),
      ),
      connectionCommand('pubsub|numpat', 2, () => {
        const patterns = new Set<string>();
        for (const connection of server.connections) for (const pattern of connection.patterns) patterns.add(pattern);
        return integer(patterns.size);
      }),
    ]),
    connectionCommand('multi', 1, (_args, connection) => {
      if (connection.transaction) return error('MULTI calls can not be nested');
      connection.transaction = { queued: [], failed: false };
      return OK;
    }),
    connectionCommand('discard', 1, (_args, connection) => {
      if (!connection.transaction) return error('DISCARD without MULTI');
      connection.transaction = null;
      return OK;
    }),
    connectionCommand('exec', 1, (_args, connection, ctx) => {
      const transaction = connection.transaction;
      if (!transaction) return error('EXEC without MULTI');
      connection.transaction = null;
      if (transaction.failed) return error('-EXECABORT Transaction discarded because of previous errors.');
      const replies: RespReply[] = [];
      // Synchronous unless an extra command is asynchronous; then the rest waits for it, in order.
      const runFrom = (index: number): RespReply | Promise<RespReply> => {
        for (let i = index; i < transaction.queued.length; i++) {
          const reply = runInTransaction(server, transaction.queued[i]!, ctx);
          if (reply instanceof Promise) {
            return reply.then((settled) => {
              replies.push(settled);
              return runFrom(i + 1);
            });
          }
          replies.push(reply);
        }
        return array(replies);
      };
      return runFrom(0);
    }),
  ];
}

/** One command of an EXEC. It cannot block: Redis answers a blocking pop there as if it timed out. */
function runInTransaction(server: RedisFakeServer, args: string[], ctx: CommandContext): RespReply | Promise<RespReply> {
  const spec = resolveCommand(server.commands, args);
  if (!('run' in spec)) return spec;
  const asReply = (result: CommandResult): RespReply => {
    if (isBlockRequest(result)) return NULL_ARRAY;
    return result.kind === 'replies' ? array(result.replies) : result;
  };
  const result = runSafely(spec, args, ctx);
  return result instanceof Promise ? result.then(asReply, replyForThrown) : asReply(result);
}

function clientInfoLine(connection: Connection, server: RedisFakeServer): string {
  return [
    `id=${connection.id}`,
    `addr=${server.socketPath}:0`,
    `laddr=${server.socketPath}:0`,
    `name=${connection.name ?? ''}`,
    `db=${connection.state.dbIndex}`,
    `sub=${connection.channels.size}`,
    `psub=${connection.patterns.size}`,
    `multi=${connection.transaction ? connection.transaction.queued.length : -1}`,
    'user=default',
    'resp=2',
  ].join(' ');
}

function infoText(server: RedisFakeServer): string {
  const keyspace = server.store.databases.flatMap((db) => {
    const entries = Object.values(db.snapshot());
    if (entries.length === 0) return [];
    const expiring = entries.filter((entry) => entry.ttlMs !== null).length;
    return [`db${db.index}:keys=${entries.length},expires=${expiring},avg_ttl=0`];
  });
  return [
    '# Server',
    `redis_version:${EMULATED_REDIS_VERSION}`,
    'redis_mode:standalone',
    'os:validate-agent-hooks in-memory fake',
    '',
    '# Clients',
    `connected_clients:${server.connections.size}`,
    `blocked_clients:${server.store.blockedClientCount}`,
    '',
    '# Keyspace',
    ...keyspace,
    '',
  ].join('\r\n');
}
