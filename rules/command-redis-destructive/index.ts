import { own } from '../../src/records.js';
import { everyCommand } from '../../src/engine/command-rule.js';
import { defineRule } from '../../src/engine/rule.js';
import { commandBase } from '../../src/shell/analysis.js';
import type { PlainCommand } from '../../src/shell/commands.js';

/** The Redis command-line clients. */
const CLIENTS = new Set(['redis-cli', 'valkey-cli', 'keydb-cli']);
/** redis-cli's options that take the next word (`-h host`, `-n 2`, `--user u`). */
const VALUE_OPTIONS = new Set([
  ...['-h', '-p', '-s', '-a', '-u', '-r', '-i', '-n', '-d', '-D', '-t'],
  ...['--user', '--pass', '--sni', '--cacert', '--cacertdir', '--tls-ciphers', '--tls-ciphersuites', '--cert', '--key'],
  ...['--pattern', '--count', '--eval', '--cluster', '--functions-rdb', '--rdb', '--replica'],
]);
/** Operations that delete every key of the server, or of its database. */
const FLUSHES = new Set(['flushall', 'flushdb']);
/** Operations that stop the server or change it for every client, with the word that follows them where it matters. */
const ADMIN: Record<string, ReadonlySet<string> | true> = {
  shutdown: true,
  replicaof: true,
  slaveof: true,
  debug: true,
  swapdb: true,
  config: new Set(['set', 'rewrite', 'resetstat']),
  script: new Set(['flush', 'kill']),
  function: new Set(['flush', 'delete', 'restore']),
  client: new Set(['kill', 'pause']),
  acl: new Set(['setuser', 'deluser', 'load']),
  module: new Set(['load', 'loadex', 'unload']),
};

/**
 * The swarm's agents share one Redis: its keys are their memory and
 * coordination state. A hook that flushes it wipes every agent's; one that
 * stops or reconfigures it stalls them all (and `CONFIG SET dir` with `SAVE`
 * writes files wherever the server may).
 */
export default defineRule({
  id: 'command-redis-destructive',
  meta: {
    description:
      'A `redis-cli` command that wipes, stops or reconfigures the shared Redis server (`FLUSHALL`, `FLUSHDB`, `SHUTDOWN`, `CONFIG SET`, `REPLICAOF`, …) in a hook.',
    severity: 'error',
    category: 'shell',
    runtimes: ['claude-flow', 'claude-code'],
    securitySeverity: 8.0,
  },
  messages: {
    flush:
      'Disallowed `{{client}} {{operation}}`: it deletes every key of the Redis server (FLUSHDB: of its database), the memory and coordination state of every agent that shares it. Delete the keys the hook wrote, by name.',
    admin:
      'Disallowed `{{client}} {{operation}}`: it stops or changes the Redis server every agent shares (and `CONFIG SET` can make it write files anywhere it may). Leave the server to its owner.',
  },
  checkScript(context) {
    for (const command of everyCommand(context)) {
      const client = commandBase(command);
      if (!client || !CLIENTS.has(client)) continue;
      const operation = redisOperation(command);
      if (!operation) continue;
      context.report({
        messageId: FLUSHES.has(operation.split(' ')[0]!) ? 'flush' : 'admin',
        data: { client, operation: operation.toUpperCase() },
        range: context.range(command.start, command.end),
      });
    }
  },
});

/** The destructive operation a redis-cli call sends (`flushall`, `config set`), from its first word after the options. */
function redisOperation(command: PlainCommand): string | undefined {
  const args = command.args;
  let i = 0;
  while (i < args.length && args[i]!.value?.startsWith('-')) i += VALUE_OPTIONS.has(args[i]!.value!) ? 2 : 1;
  const first = args[i]?.value?.toLowerCase();
  if (first === undefined) return undefined;
  if (FLUSHES.has(first)) return first;
  const admin = own(ADMIN, first);
  if (admin === true) return first;
  const second = args[i + 1]?.value?.toLowerCase();
  return admin && second !== undefined && admin.has(second) ? `${first} ${second}` : undefined;
}
