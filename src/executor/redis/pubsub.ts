/** Pub/sub (pubsub.c): SUBSCRIBE, PSUBSCRIBE, their UNSUBSCRIBEs, PUBLISH and PUBSUB; delivery is RedisFakeServer.publish. */
import type { CommandSpec } from './commands.js';
import { connectionCommandFactory, needsSubcommand, type Connection, type ConnectionHandler } from './connection.js';
import { globBudget, globMatch } from './glob.js';
import { array, bulkBytes, integer, type RespReply } from './resp.js';
import type { RedisFakeServer } from './server.js';

function subscriptionReply(kind: string, name: string | null, count: number): RespReply {
  return array([bulkBytes(kind), bulkBytes(name), integer(count)]);
}

export function pubsubCommands(server: RedisFakeServer): CommandSpec[] {
  const connectionCommand = connectionCommandFactory(server);
  const unsubscribe = (kind: 'unsubscribe' | 'punsubscribe', set: (c: Connection) => Set<string>): ConnectionHandler => {
    return (args, connection) => {
      const names = args.length > 1 ? args.slice(1) : [...set(connection)];
      if (names.length === 0) return subscriptionReply(kind, null, connection.subscriptions.count);
      return {
        kind: 'replies',
        replies: names.map((name) => {
          connection.subscriptions.remove(set(connection), name);
          return subscriptionReply(kind, name, connection.subscriptions.count);
        }),
      };
    };
  };
  const subscribe = (kind: 'subscribe' | 'psubscribe', set: (c: Connection) => Set<string>): ConnectionHandler => {
    return (args, connection) => ({
      kind: 'replies',
      replies: connection.subscriptions.add(set(connection), args.slice(1), (name) =>
        subscriptionReply(kind, name, connection.subscriptions.count),
      ),
    });
  };

  return [
    connectionCommand(
      'subscribe',
      -2,
      subscribe('subscribe', (c) => c.subscriptions.channels),
    ),
    connectionCommand(
      'psubscribe',
      -2,
      subscribe('psubscribe', (c) => c.subscriptions.patterns),
    ),
    connectionCommand(
      'unsubscribe',
      -1,
      unsubscribe('unsubscribe', (c) => c.subscriptions.channels),
    ),
    connectionCommand(
      'punsubscribe',
      -1,
      unsubscribe('punsubscribe', (c) => c.subscriptions.patterns),
    ),
    connectionCommand('publish', 3, (args) => integer(server.publish(args[1]!, args[2]!))),
    connectionCommand('pubsub', -2, needsSubcommand, [
      connectionCommand('pubsub|channels', -2, (args) => {
        const pattern = args[2];
        const channels = new Set<string>();
        for (const connection of server.connections) for (const channel of connection.subscriptions.channels) channels.add(channel);
        const budget = globBudget();
        return array(
          [...channels].filter((channel) => pattern === undefined || globMatch(pattern, channel, budget)).map((c) => bulkBytes(c)),
        );
      }),
      connectionCommand('pubsub|numsub', -2, (args) =>
        array(
          args.slice(2).flatMap((channel) => {
            let count = 0;
            for (const connection of server.connections) if (connection.subscriptions.channels.has(channel)) count++;
            return [bulkBytes(channel), integer(count)];
          }),
        ),
      ),
      connectionCommand('pubsub|numpat', 2, () => {
        const patterns = new Set<string>();
        for (const connection of server.connections) for (const pattern of connection.subscriptions.patterns) patterns.add(pattern);
        return integer(patterns.size);
      }),
    ]),
  ];
}
