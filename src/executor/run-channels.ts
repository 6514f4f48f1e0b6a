import { join } from 'node:path';
import { startControlServer } from './control-server.js';
import { startFilteringProxy } from './redis-filter-proxy.js';
import { startFakeRunSocket } from './redis-run-socket.js';
import type { RunContext } from './run-context.js';
import { EVENTBUS_COMMAND_NAME, MEMORY_COMMAND_NAME } from './shims.js';
import { runEventbusCommand } from './eventbus-command.js';
import { runMemoryCommand, runOtherCommand, type SlashCommandContext } from './slash-commands.js';
import type { PublishedEvent, TraceOperation } from './trace.js';
import { HOST_LIMITS, mebibytes } from './host-limits.js';

/**
 * One run's two sockets into the host: the control socket that serves its
 * slash commands, and its Redis socket (the fake's own run socket, or the
 * filter in front of a real server). Each run gets its own, which is how the
 * host knows which agent is calling.
 */

/** Redis commands that wait for data: their time is the hook's. */
const BLOCKING_REDIS =
  /^(b[lr]pop|brpoplpush|blmove|bzpopm(in|ax)|blmpop|bzmpop|xread|xreadgroup|wait|waitaof|subscribe|psubscribe|ssubscribe|monitor)$/i;

/** Bytes of type and data each session's event log holds, by the log. */
const eventBytes = new WeakMap<PublishedEvent[], number>();

export interface RunChannels {
  controlSocket: string;
  redisSocket: string;
  /** Milliseconds the host has spent serving this run (its slash commands and Redis round trips). */
  hostBusyMs: () => number;
  close(): Promise<void>;
}

export async function openRunChannels(
  ctx: RunContext,
  run: { runId: number; agentId: string; swarmId: string; runDir: string },
): Promise<RunChannels> {
  const { trace, clock } = ctx;
  const { runId, agentId } = run;
  const commandContext: SlashCommandContext = {
    identity: { agentId, swarmId: run.swarmId },
    runId,
    memory: ctx.memory,
    record: (operation) => {
      trace.record(operation);
    },
    publish: (event, bytes) => {
      const held = eventBytes.get(ctx.events) ?? 0;
      if (ctx.events.length >= HOST_LIMITS.eventsPerSession || held + bytes > HOST_LIMITS.eventBytesPerSession)
        return `the session's event log is full (it keeps at most ${HOST_LIMITS.eventsPerSession} events and ${mebibytes(HOST_LIMITS.eventBytesPerSession)} of types and data); the event was not recorded`;
      eventBytes.set(ctx.events, held + bytes);
      ctx.events.push({ t: trace.now(), ...event });
      return undefined;
    },
  };
  // Time the host spends serving the hook's slash commands is the host's, not the hook's.
  let commandsBusyMs = 0;
  const control = await startControlServer(join(run.runDir, 'control.sock'), async (command, args) => {
    const served = clock.now();
    try {
      if (command === MEMORY_COMMAND_NAME) return await runMemoryCommand(args, commandContext);
      if (command === EVENTBUS_COMMAND_NAME) return await runEventbusCommand(args, commandContext);
      return runOtherCommand(command, args, commandContext);
    } finally {
      commandsBusyMs += clock.now() - served;
    }
  });
  // The host's side of the hook's Redis round trips too; a blocking pop's wait is the hook's own choice.
  const redisBusyMs = (): number => {
    let busy = 0;
    for (const op of trace.forRun(runId)) {
      if (op.kind !== 'redis' || op.push || BLOCKING_REDIS.test(op.command[0] ?? '')) continue;
      // A command still in flight counts up to now.
      busy += op.reply === undefined ? Math.max(0, trace.now() - op.t) : op.durationMs;
    }
    return busy;
  };
  const socketPath = join(run.runDir, 'redis.sock');
  const redis = ctx.redis;
  // A real server gets the filter (one database, data commands only); the fake traces each run from its own dispatch.
  const proxy = await (redis.fake
    ? startFakeRunSocket({
        socketPath,
        fake: redis.fake,
        fakeNow: Date.now,
        traceNow: () => trace.now(),
        record: (fields) => trace.record({ kind: 'redis', agentId, runId, ...fields }) as TraceOperation & { kind: 'redis' },
      })
    : startFilteringProxy({
        socketPath,
        upstream: redis.upstream,
        now: () => clock.now(),
        record: (fields) => trace.record({ kind: 'redis', agentId, runId, durationMs: 0, ...fields }) as TraceOperation & { kind: 'redis' },
      })
  ).catch(async (error: unknown) => {
    await control.close();
    throw error;
  });
  return {
    controlSocket: control.socketPath,
    redisSocket: proxy.socketPath,
    hostBusyMs: () => commandsBusyMs + redisBusyMs(),
    close: async () => {
      await Promise.all([control.close(), proxy.close()]);
    },
  };
}
