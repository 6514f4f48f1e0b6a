import type { LintResult } from '../diagnostics.js';
import type { PublishedEvent, TraceOperation } from '../executor/trace.js';

/**
 * What a simulation did, as data: the shape of `simulate --format json`.
 * Times are milliseconds since the simulation began.
 */

export type AgentRole = 'agent' | 'implementer' | 'validator' | 'product-owner';

export interface AgentRecord {
  /** The instance's id: AGENT_ID, and who it is to memory and Redis. */
  id: string;
  /** The scenario's id for the role this instance plays (fresh instances each iteration share it). */
  specId: string;
  role: AgentRole;
  profile: string;
  iteration?: number;
  /** The instance this one replaced after it failed, timed out or gave its task back. */
  replaces?: string;
  status:
    | 'running'
    | 'reported'
    | 'no-report'
    | 'failed'
    | 'timed-out'
    | 'replaced'
    | 'rescheduled'
    | 'blocked'
    | 'resumed'
    | 'exited'
    | 'done';
  spawnedAt: number;
  /** Its documented role timeout (AGENT_LIFECYCLE.md, "Timeout Handling"), in ms. */
  timeoutMs?: number;
  /** How its process ended: 0, non-zero, or null when it was killed. */
  exitCode?: number | null;
  /** What it reported (confidence for Loop 3, consensus score for Loop 2). */
  reported?: number;
}

export interface HookRunRecord {
  runId: number;
  agentId: string;
  role: AgentRole;
  profile: string;
  hook: string;
  iteration?: number;
  startedAt: number;
  durationMs: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  failed: boolean;
  stdout: string;
  stderr: string;
  /** Characters of stdout and stderr not kept: the simulation's runs share SIMULATION_OUTPUT_BUDGET (world.ts). */
  stdoutOmitted?: number;
  stderrOmitted?: number;
  /** The runtime's variables the hook ran with. */
  env: Record<string, string>;
  operations: TraceOperation[];
  events: PublishedEvent[];
  error?: string;
}

export type StepKind =
  | 'spawn'
  | 'hook'
  | 'block'
  | 'signal'
  | 'timeout'
  | 'report'
  | 'missing-report'
  | 'replace'
  | 'gate'
  | 'consensus'
  | 'decision'
  | 'iteration'
  | 'outcome'
  | 'note'
  | 'exit'
  | 'escalate'
  | 'retry'
  | 'reschedule';

export interface TimelineStep {
  t: number;
  /** An agent id, or `orchestrator`. */
  actor: string;
  kind: StepKind;
  text: string;
  iteration?: number;
  runId?: number;
  /** For signals sent by the orchestrator: who receives them. */
  to?: string[];
}

export interface DecisionRecord {
  iteration: number;
  /** Who decided: the gate or consensus (a failed check iterates), the Product Owner, or the iteration limit. */
  by: 'gate' | 'consensus' | 'product-owner' | 'iteration-limit';
  decision: 'PROCEED' | 'ITERATE' | 'ABORT';
  confidence?: number;
  consensus?: number;
}

/** One agent's score as the orchestrator read it: 0.0 unless it signalled `:done` and reported a confidence. */
export interface ScoreRecord {
  agentId: string;
  score: number;
  reported: boolean;
  /** Why it counts 0.0. */
  reason?: string;
}

export interface IterationRecord {
  iteration: number;
  implementers: ScoreRecord[];
  gate: { threshold: number; confidence: number; passed: boolean };
  validators?: ScoreRecord[];
  consensus?: { threshold: number; score: number; passed: boolean };
  decision: DecisionRecord;
}

export interface RedisKeyRecord {
  key: string;
  type: string;
  value: unknown;
  ttlMs?: number;
}

export interface SimulationTrace {
  kind: 'lifecycle' | 'swarm';
  /** The profile (lifecycle) or scenario file (swarm). */
  source: string;
  task: string;
  taskId?: string;
  swarmId: string;
  phase?: string;
  mode?: string;
  thresholds?: { gate: number; consensus: number };
  maxIterations?: number;
  /** lifecycle: `signal` | `timeout`; swarm: `completed` (PROCEED) | `aborted` | `iteration-limit`. */
  outcome: string;
  durationMs: number;
  sandbox: string;
  agents: AgentRecord[];
  iterations: IterationRecord[];
  decisions: DecisionRecord[];
  hookRuns: HookRunRecord[];
  timeline: TimelineStep[];
  /** Every Redis command that changed something, by whom. */
  redisWrites: Array<{ t: number; agentId: string; runId?: number; command: string[] }>;
  /** Redis at the end of the run. */
  redisKeys: RedisKeyRecord[];
  memory: Array<{ level: string; key: string; owner: string; swarmId?: string; value: string }>;
  events: PublishedEvent[];
  /** What the run proves wrong, per profile, in the linter's model. */
  findings: LintResult[];
}
