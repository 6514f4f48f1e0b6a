import type { Range } from '../diagnostics.js';
import type { RedisOperation } from '../executor/trace.js';
import { loadShellParser } from '../shell/parser.js';
import { HookSyntax } from './command-site.js';
import { simulationFindings } from './findings.js';
import type { DecisionRecord, IterationRecord, SimulationTrace } from './trace.js';
import type { LoadedProfile, World } from './world.js';

const WRITE_COMMANDS =
  /^(set|setex|psetex|setnx|mset|msetnx|getset|getdel|append|incr|incrby|incrbyfloat|decr|decrby|del|unlink|expire|pexpire|persist|lpush|rpush|lpushx|rpushx|lpop|rpop|blpop|brpop|lset|lrem|ltrim|linsert|rpoplpush|lmove|hset|hmset|hsetnx|hdel|hincrby|sadd|srem|smove|spop|zadd|zrem|zincrby|xadd|rename|copy|flushall|flushdb|publish)$/i;

/** Turns a finished world into the trace: findings computed, Redis and memory read back, the session closed. */
export async function finishTrace(
  world: World,
  fields: {
    kind: SimulationTrace['kind'];
    source: string;
    task: string;
    taskId?: string;
    phase?: string;
    mode?: string;
    thresholds?: { gate: number; consensus: number };
    maxIterations?: number;
    outcome: string;
    iterations?: IterationRecord[];
    decisions?: DecisionRecord[];
    /** Where a scenario asked for the v1 waiting mode, to report it. */
    waitingMode?: { file: string; range: Range };
  },
): Promise<SimulationTrace> {
  let syntax: HookSyntax | undefined;
  try {
    const profiles = new Map<string, LoadedProfile>();
    for (const [file, loaded] of world.profiles) profiles.set(file, await loaded);
    const operations = world.allOperations();
    const redisWrites = operations
      .filter(
        (op): op is RedisOperation =>
          op.kind === 'redis' &&
          !op.push &&
          WRITE_COMMANDS.test(op.command[0] ?? '') &&
          !(isEmpty(op.reply) && /^(b?[lr]pop|getdel)$/i.test(op.command[0] ?? '')),
      )
      .map((op) => ({ t: op.t, agentId: op.agentId, ...(op.runId !== undefined ? { runId: op.runId } : {}), command: op.command }));
    syntax = new HookSyntax(await loadShellParser());
    const memory = (await world.session.memoryEntries()).map((entry) => ({
      level: entry.level,
      key: entry.key,
      owner: entry.owner,
      ...(entry.level === 'swarm' ? { swarmId: entry.swarmId } : {}),
      value: entry.value,
    }));
    return {
      kind: fields.kind,
      source: fields.source,
      task: fields.task,
      ...(fields.taskId !== undefined ? { taskId: fields.taskId } : {}),
      swarmId: world.options.swarmId,
      ...(fields.phase !== undefined ? { phase: fields.phase } : {}),
      ...(fields.mode !== undefined ? { mode: fields.mode } : {}),
      ...(fields.thresholds ? { thresholds: fields.thresholds } : {}),
      ...(fields.maxIterations !== undefined ? { maxIterations: fields.maxIterations } : {}),
      outcome: fields.outcome,
      durationMs: world.now(),
      sandbox: world.session.mode,
      agents: world.agents,
      iterations: fields.iterations ?? [],
      decisions: fields.decisions ?? [],
      hookRuns: [...world.hookRuns].sort((a, b) => a.startedAt - b.startedAt || a.runId - b.runId),
      timeline: world.steps,
      redisWrites,
      redisKeys: await world.redisSnapshot(),
      memory,
      events: world.allEvents(),
      findings: simulationFindings(
        world.hookRuns,
        operations,
        profiles,
        syntax,
        fields.waitingMode ? { waitingMode: fields.waitingMode } : {},
      ),
    };
  } finally {
    syntax?.dispose();
    await world.close();
  }
}

function isEmpty(reply: unknown): boolean {
  return reply === null || reply === undefined || (Array.isArray(reply) && reply.length === 0);
}
