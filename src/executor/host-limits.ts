/**
 * What the host (the executor's Node process) does for a hook, bounded: the
 * fakes a hook drives over its sockets live in this process, so every
 * structure they grow has a ceiling here, in one place. The README's threat
 * model lists each bound with the test that replays its attack.
 *
 * Session-wide bounds hold for every run of a session together: the Redis
 * fake, the memory store and the event log are shared by a session's hooks.
 */
const MiB = 1024 * 1024;

export const HOST_LIMITS = {
  /** `/sqlite-memory`: bytes of keys and values the memory store holds (session). */
  memoryStoreBytes: 64 * MiB,
  /** `/sqlite-memory` and `/eventbus`: characters of one argument (`--data` included). */
  slashArgumentBytes: 4 * MiB,
  /**
   * The embedded Redis: bytes its sixteen databases hold, keys, values,
   * list items, hash fields, set and sorted-set members, each with a fixed
   * overhead (session). Past it, commands that add data get Redis's OOM error.
   */
  redisKeyspaceBytes: 64 * MiB,
  /**
   * The embedded Redis: bytes of requests all its connections have read and
   * not yet run (one connection may buffer one 64 MiB argument twice over,
   * Redis's query-buffer rule); the connection that takes it past is dropped (session).
   */
  redisInputBytes: 160 * MiB,
  /**
   * The embedded Redis: bytes of values in one command's reply, EXEC's
   * included (the keyspace twice over). MGET k k k … repeats one value as
   * often as it is named: 200 copies of 1 MiB took 2 GB of the host.
   */
  redisReplyBytes: 128 * MiB,
  /**
   * The embedded Redis: steps of glob matching one command may take (KEYS,
   * SCAN MATCH, a PUBLISH to pattern subscribers). Matching is O(pattern ×
   * key) at worst, as in Redis: `KEYS *aaa…b` against an 80 KB key of `a`s
   * held the event loop for 11 s.
   */
  redisGlobSteps: 100_000_000,
  /**
   * The embedded Redis: bytes of channel and pattern names its connections
   * are subscribed to, each subscription counted with a fixed overhead
   * (session). Past it, SUBSCRIBE and PSUBSCRIBE get an error and subscribe
   * nothing: 60,000 names of 1 KB a command, ten commands on one connection,
   * took the host to 1.07 GB.
   */
  redisSubscriptionBytes: 64 * MiB,
  /**
   * The embedded Redis: bytes of a client name (CLIENT SETNAME, HELLO …
   * SETNAME) and of a CONFIG SET value. Both outlive their command, outside
   * the keyspace: twenty connections named with 60 MB each held 1.5 GB of
   * the host, and ten 60 MB config values 0.8 GB, which CONFIG GET * then
   * copied into one reply (2 GB).
   */
  redisSettingBytes: 4096,
  /**
   * Connections open at once on each of a run's sockets (control, Redis);
   * past it a new one is closed as soon as it is accepted, and the run's
   * warnings count them. Each is a descriptor of the executor's process: a
   * hook holding 22,000 took the process to its open-file limit.
   */
  runSocketConnections: 256,
  /** A run's control socket: bytes of requests its connections have read and not yet served; past it, the connection is refused. */
  controlInputBytes: 64 * MiB,
  /**
   * A connection of any fake (Redis or control socket) stops being read while
   * this much of its output is unsent, and is read again when it drains.
   */
  outputHighWaterMark: 4 * MiB,
  /**
   * The embedded Redis: bytes of replies written to its connections and not
   * yet sent, all of them together (session). Each is held to
   * `outputHighWaterMark` and one reply, but a hook may open many: 30 that
   * each asked for a 32 MiB value and read nothing took the host to 1.16 GB.
   * Past it, the connection holding the most is dropped, as Redis's
   * `maxmemory-clients` evicts clients.
   */
  redisUnsentOutputBytes: 256 * MiB,
  /**
   * A Redis subscriber (or MONITOR client) that lets this much of pushed
   * messages pile up unread is disconnected, as Redis's
   * `client-output-buffer-limit pubsub` does.
   */
  subscriberOutputBytes: 8 * MiB,
  /** Requests of one control-socket connection read ahead of the one being served; reading pauses past it. */
  controlPendingRequests: 16,
  /** One slash command's reply (its stdout and stderr); a bigger one is refused with an error. */
  slashReplyBytes: 16 * MiB,
  /** `/eventbus publish`: events the session records, and the bytes of their types and data. */
  eventsPerSession: 10_000,
  eventBytesPerSession: 16 * MiB,
} as const;

/** "64 MiB", for error messages. */
export function mebibytes(bytes: number): string {
  return `${bytes / MiB} MiB`;
}
