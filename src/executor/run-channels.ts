import { join } from 'node:path';
import { startControlServer } from './control-server.js';
import { startFilteringProxy } from './redis-filter-proxy.js';
import { startFakeRunSocket } from './redis-run-socket.js';
import type { RunContext } from './run-context.js';
import { RUN_FILES } from './sandbox.js';
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

/** The length of the union of time spans: each moment counted once, however many spans cover it. */
export function coveredMs(spans: [number, number][]): number {
  spans.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [start, stop] of spans) {
    if (stop <= end) continue;
    total += stop - Math.max(start, end);
    end = stop;
  }
  return total;
}

/** Bytes of type and data each session's event log holds, by the log. */
const eventBytes = new WeakMap<PublishedEvent[], number>();

export interface RunChannels {
  controlSocket: string;
  redisSocket: string;
  /** Milliseconds the host has spent serving this run (its slash commands and Redis round trips). */
  hostBusyMs: () => number;
  /** Connections to the run's sockets refused because HOST_LIMITS.runSocketConnections were open. */
  refusedConnections: () => number;
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
  // Time the host spends serving the hook's slash commands is the host's, not the hook's: the periods
  // when at least one is in flight (calls served side by side are one stretch of host time, not several).
  const commandPeriods: [number, number][] = [];
  let inFlight = 0;
  let busySince = 0;
  const control = await startControlServer(join(run.runDir, RUN_FILES.controlSocket), async (command, args) => {
    if (inFlight++ === 0) busySince = trace.now();
    try {
      if (command === MEMORY_COMMAND_NAME) return await runMemoryCommand(args, commandContext);
      if (command === EVENTBUS_COMMAND_NAME) return await runEventbusCommand(args, commandContext);
      return runOtherCommand(command, args, commandContext);
    } finally {
      if (--inFlight === 0) {
        const last = commandPeriods[commandPeriods.length - 1];
        if (last && busySince <= last[1]) last[1] = trace.now();
        else commandPeriods.push([busySince, trace.now()]);
      }
    }
  });
  // The host's side of the hook's Redis round trips too; a blocking pop's wait is the hook's own choice.
  // Counted as the time covered by any of them: forty connections served at once for a second are a second.
  const hostBusyMs = (): number => {
    const now = trace.now();
    const spans: [number, number][] = [...commandPeriods];
    if (inFlight > 0) spans.push([busySince, now]);
    for (const op of trace.forRun(runId)) {
      if (op.kind !== 'redis' || op.push || BLOCKING_REDIS.test(op.command[0] ?? '')) continue;
      // A command still in flight counts up to now.
      spans.push([op.t, op.reply === undefined ? now : op.t + op.durationMs]);
    }
    return coveredMs(spans);
  };
  const socketPath = join(run.runDir, RUN_FILES.redisSocket);
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
    hostBusyMs,
    refusedConnections: () => (control.refused?.() ?? 0) + (proxy.refused?.() ?? 0),
    close: async () => {
      await Promise.all([control.close(), proxy.close()]);
    },
  };
}
