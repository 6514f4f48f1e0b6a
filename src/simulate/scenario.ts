import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Diagnostic, Range } from '../diagnostics.js';
import { parsePositionedYaml, readYamlText, schemaProblems, type YamlProblem } from '../profile/positioned-yaml.js';
import { BLOCKING_TYPES, CFN_AGENT_TIMEOUTS_MS, CFN_MAX_ITERATIONS, CFN_MODES, HOOK_TIMEOUT_MS } from '../runtime/contract.js';
import { validate } from '../schema/generated/scenario-validator.js';

/**
 * A swarm scenario (`simulate --swarm FILE`): YAML checked against
 * schemas/scenario.schema.json, every problem a diagnostic at its line and
 * column, the way profiles and configuration files report theirs.
 */

export type CfnMode = keyof typeof CFN_MODES;
export type Decision = 'PROCEED' | 'ITERATE' | 'ABORT';
export type BlockingType = (typeof BLOCKING_TYPES)[number];
export type TimeoutRole = 'implementer' | 'validator' | 'productOwner' | 'researcher';
export type AfterTimeout = 'escalate' | 'retry' | 'reschedule';

/** One declared blocking wait (agent-lifecycle-hooks.md): the hooks around it, and how it ends. */
export interface BlockingSpec {
  type: BlockingType;
  /** Iterations it happens in; empty: every iteration. */
  iterations: number[];
  /** Counted from on_blocking_start; undefined: no signal comes. */
  signalAfterMs?: number;
  from: string;
  signalData?: string;
  thresholdMs?: number;
  afterTimeout: AfterTimeout;
}

export interface AgentSpec {
  id: string;
  /** Absolute path of the profile. */
  profile: string;
  blocking: BlockingSpec[];
  timeoutRole: TimeoutRole;
  failIn: number[];
  timeoutIn: number[];
  noReportIn: number[];
  noDoneIn: number[];
  /** Where the entry is in the scenario file. */
  range: Range;
}

export interface ImplementerSpec extends AgentSpec {
  confidence: number[];
}

export interface ValidatorSpec extends AgentSpec {
  consensus: number[];
}

export interface ProductOwnerSpec extends AgentSpec {
  decisions: Decision[];
}

export interface Scenario {
  file: string;
  task: string;
  description: string;
  swarmId: string;
  phase: string;
  mode: CfnMode;
  thresholds: { gate: number; consensus: number };
  maxIterations: number;
  blockingTimeoutMs: number;
  agentTimeoutMs: number;
  agentTimeouts: Record<TimeoutRole, number>;
  hookTimeoutMs: number;
  waitingMode: boolean;
  /** Where `waitingMode: true` is, to report it. */
  waitingModeRange?: Range;
  successCriteria?: string;
  maxConcurrentStarts?: number;
  loop3: ImplementerSpec[];
  loop2: ValidatorSpec[];
  productOwner?: ProductOwnerSpec;
}

/** AGENT_LIFECYCLE.md, "Timeout Handling": role-based agent timeouts. */
export const DOCUMENTED_AGENT_TIMEOUTS: Record<TimeoutRole, number> = CFN_AGENT_TIMEOUTS_MS;

export const SCENARIO_DEFAULTS = {
  phase: 'implementation',
  mode: 'standard' as CfnMode,
  blockingTimeoutMs: 300_000,
  agentTimeoutMs: 1000,
} as const;

interface RawBlocking {
  type: BlockingType;
  iterations?: number[];
  signalAfterMs?: number;
  from?: string;
  signalData?: string;
  thresholdMs?: number;
  afterTimeout?: AfterTimeout;
}

interface RawAgent {
  id: string;
  profile: string;
  confidence?: number | number[];
  consensus?: number | number[];
  failIn?: number[];
  noReportIn?: number[];
  noDoneIn?: number[];
  timeoutIn?: number[];
  blocking?: RawBlocking[];
  timeoutRole?: TimeoutRole;
  decisions?: Decision[];
}

interface RawScenario {
  task: string;
  description?: string;
  swarm?: string;
  phase?: string;
  mode?: CfnMode;
  thresholds?: { gate?: number; consensus?: number };
  maxIterations?: number;
  blockingTimeoutMs?: number;
  agentTimeoutMs?: number;
  agentTimeouts?: Partial<Record<TimeoutRole, number>>;
  hookTimeoutMs?: number;
  waitingMode?: boolean;
  successCriteria?: string;
  maxConcurrentStarts?: number;
  loop3: RawAgent[];
  loop2: RawAgent[];
  productOwner?: Omit<RawAgent, 'id'> & { id?: string };
}

export type ScenarioLoad = { ok: true; scenario: Scenario } | { ok: false; diagnostics: Diagnostic[] };

const RULE_ID = 'scenario-invalid';

export async function loadScenario(file: string): Promise<ScenarioLoad> {
  const read = await readYamlText(file, 'scenario');
  if ('problems' in read) return fail(asDiagnostics(read.problems));
  return parseScenario(file, read.text);
}

function asDiagnostics(problems: YamlProblem[]): Diagnostic[] {
  return problems.map((p) => ({ ruleId: RULE_ID, severity: 'error' as const, ...p.range, message: p.message }));
}

export async function parseScenario(file: string, text: string): Promise<ScenarioLoad> {
  const loaded = parsePositionedYaml(text);
  if (!loaded.ok) return fail(asDiagnostics(loaded.problems));
  const { data, at } = loaded.yaml;
  if (!validate(data)) return fail(asDiagnostics(schemaProblems(loaded.yaml, validate.errors ?? [], 'scenario')));

  const raw = data as RawScenario;
  const base = dirname(resolve(file));
  const diagnostics: Diagnostic[] = [];
  const ids = new Map<string, string>();
  const checkAgent = async (
    agent: { id?: string; profile: string },
    path: string[],
    fallbackId: string,
  ): Promise<{ id: string; profile: string }> => {
    const id = agent.id ?? fallbackId;
    const previous = ids.get(id);
    if (previous)
      diagnostics.push({
        ruleId: RULE_ID,
        severity: 'error',
        ...at([...path, 'id']),
        message: `Unexpected duplicate agent id \`${id}\` (also used at ${previous}).`,
      });
    else ids.set(id, path.join('.'));
    const profile = resolve(base, agent.profile);
    const isFile = await stat(profile).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!isFile)
      diagnostics.push({
        ruleId: RULE_ID,
        severity: 'error',
        ...at([...path, 'profile']),
        message: `Invalid profile path \`${agent.profile}\`: no such file (paths are relative to the scenario file).`,
      });
    return { id, profile };
  };

  const common = (agent: RawAgent | NonNullable<RawScenario['productOwner']>, role: TimeoutRole) => ({
    blocking: (agent.blocking ?? []).map(
      (b): BlockingSpec => ({
        type: b.type,
        iterations: b.iterations ?? [],
        ...(b.signalAfterMs !== undefined ? { signalAfterMs: b.signalAfterMs } : {}),
        from: b.from ?? 'coordinator',
        ...(b.signalData !== undefined ? { signalData: b.signalData } : {}),
        ...(b.thresholdMs !== undefined ? { thresholdMs: b.thresholdMs } : {}),
        afterTimeout: b.afterTimeout ?? 'escalate',
      }),
    ),
    timeoutRole: agent.timeoutRole ?? role,
    failIn: agent.failIn ?? [],
    timeoutIn: agent.timeoutIn ?? [],
    noReportIn: agent.noReportIn ?? [],
    noDoneIn: agent.noDoneIn ?? [],
  });
  const loop3: ImplementerSpec[] = [];
  for (const [index, agent] of raw.loop3.entries()) {
    const path = ['loop3', String(index)];
    const { id, profile } = await checkAgent(agent, path, agent.id);
    loop3.push({ id, profile, confidence: list(agent.confidence ?? 0), ...common(agent, 'implementer'), range: at(path) });
  }
  const loop2: ValidatorSpec[] = [];
  for (const [index, agent] of raw.loop2.entries()) {
    const path = ['loop2', String(index)];
    const { id, profile } = await checkAgent(agent, path, agent.id);
    loop2.push({ id, profile, consensus: list(agent.consensus ?? 0), ...common(agent, 'validator'), range: at(path) });
  }
  let productOwner: ProductOwnerSpec | undefined;
  if (raw.productOwner) {
    const { id, profile } = await checkAgent(raw.productOwner, ['productOwner'], 'product-owner-1');
    productOwner = {
      id,
      profile,
      decisions: raw.productOwner.decisions ?? [],
      ...common(raw.productOwner, 'productOwner'),
      range: at(['productOwner']),
    };
  }
  if (diagnostics.length > 0) return fail(diagnostics);

  const mode = raw.mode ?? SCENARIO_DEFAULTS.mode;
  return {
    ok: true,
    scenario: {
      file: resolve(file),
      task: raw.task,
      description: raw.description ?? raw.task,
      swarmId: raw.swarm ?? `swarm-${raw.task}`,
      phase: raw.phase ?? SCENARIO_DEFAULTS.phase,
      mode,
      thresholds: { gate: raw.thresholds?.gate ?? CFN_MODES[mode].gate, consensus: raw.thresholds?.consensus ?? CFN_MODES[mode].consensus },
      maxIterations: raw.maxIterations ?? CFN_MAX_ITERATIONS,
      blockingTimeoutMs: raw.blockingTimeoutMs ?? SCENARIO_DEFAULTS.blockingTimeoutMs,
      agentTimeoutMs: raw.agentTimeoutMs ?? SCENARIO_DEFAULTS.agentTimeoutMs,
      agentTimeouts: { ...DOCUMENTED_AGENT_TIMEOUTS, ...raw.agentTimeouts },
      hookTimeoutMs: raw.hookTimeoutMs ?? HOOK_TIMEOUT_MS,
      waitingMode: raw.waitingMode ?? false,
      ...(raw.waitingMode ? { waitingModeRange: at(['waitingMode']) } : {}),
      ...(raw.successCriteria !== undefined ? { successCriteria: raw.successCriteria } : {}),
      ...(raw.maxConcurrentStarts !== undefined ? { maxConcurrentStarts: raw.maxConcurrentStarts } : {}),
      loop3,
      loop2,
      ...(productOwner ? { productOwner } : {}),
    },
  };
}

function list(value: number | number[]): number[] {
  return Array.isArray(value) ? value : [value];
}

function fail(diagnostics: Diagnostic[]): ScenarioLoad {
  return { ok: false, diagnostics };
}

/** The value for an iteration (1-based) of a per-iteration list: the last one repeats. */
export function forIteration<T>(values: readonly T[], iteration: number): T {
  return values[Math.min(iteration, values.length) - 1]!;
}
