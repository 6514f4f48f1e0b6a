/**
 * The commands about the connection and the server (networking.c, server.c,
 * config.c): PING, ECHO, SELECT, QUIT, RESET, AUTH, HELLO, CLIENT, COMMAND,
 * CONFIG, INFO, TIME, MONITOR; pub/sub and MULTI come from their own modules.
 */
import { asciiLower, fromByteString } from './bytes.js';
import type { CommandSpec } from './commands.js';
import { connectionCommandFactory, needsSubcommand, type Connection } from './connection.js';
import { globMatch } from './glob.js';
import { HOST_LIMITS } from '../host-limits.js';
import { transactionCommands } from './multi.js';
import { parseLongLong } from './numbers.js';
import { pubsubCommands } from './pubsub.js';
import { EMPTY_ARRAY, NULL_BULK, OK, array, bulkBytes, error, integer, simple, type RespReply } from './resp.js';
import type { RedisFakeServer } from './server.js';

/** The version the fake answers to in HELLO and INFO: the one its replies were checked against. */
export const EMULATED_REDIS_VERSION = '7.0.15';

const lower = asciiLower;

/** CLIENT SETNAME's rule: printable ASCII without spaces. */
function validClientName(name: string): boolean {
  return /^[!-~]*$/.test(name);
}

/** A client name or a config value past the host's bound: it would be held outside the keyspace budget. */
function settingTooLong(what: string, value: string): RespReply | undefined {
  if (value.length <= HOST_LIMITS.redisSettingBytes) return undefined;
  return error(`${what} too long (${value.length} bytes; the executor's Redis keeps at most ${HOST_LIMITS.redisSettingBytes})`);
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

export function connectionCommands(server: RedisFakeServer): CommandSpec[] {
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

  return [
    connectionCommand('ping', -1, (args, connection) => {
      if (args.length > 2) return error(`wrong number of arguments for 'ping' command`);
      if (connection.subscriptions.count > 0) return array([bulkBytes('pong'), bulkBytes(args[1] ?? '')]);
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
        const tooLong = settingTooLong('client name', name);
        if (tooLong) return tooLong;
        if (!validClientName(name)) return error('Client names cannot contain spaces, newlines or special characters.');
        connection.name = name === '' ? null : name;
      }
      return helloReply(connection);
    }),
    connectionCommand('client', -2, needsSubcommand, [
      connectionCommand('client|id', 2, (_args, connection) => integer(connection.id)),
      connectionCommand('client|getname', 2, (_args, connection) => bulkBytes(connection.name)),
      connectionCommand('client|setname', 3, (args, connection) => {
        const tooLong = settingTooLong('client name', args[2]!);
        if (tooLong) return tooLong;
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
          const tooLong = settingTooLong(`CONFIG SET failed (possibly related to argument '${name}') - value`, args[i + 1]!);
          if (tooLong) return tooLong;
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
    ...pubsubCommands(server),
    ...transactionCommands(server),
  ];
}

function clientInfoLine(connection: Connection, server: RedisFakeServer): string {
  return [
    `id=${connection.id}`,
    `addr=${server.socketPath}:0`,
    `laddr=${server.socketPath}:0`,
    `name=${connection.name ?? ''}`,
    `db=${connection.state.dbIndex}`,
    `sub=${connection.subscriptions.channels.size}`,
    `psub=${connection.subscriptions.patterns.size}`,
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
