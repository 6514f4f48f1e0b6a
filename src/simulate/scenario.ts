import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { Diagnostic, Range } from '../diagnostics.js';
import { nodeAtPath } from '../profile/profile.js';
import { CFN_MAX_ITERATIONS, CFN_MODES, HOOK_TIMEOUT_MS } from '../runtime/contract.js';
import { validate } from '../schema/generated/scenario-validator.js';

/**
 * A swarm scenario (`simulate --swarm FILE`): YAML checked against
 * schemas/scenario.schema.json, every problem a diagnostic at its line and
 * column, the way profiles and configuration files report theirs.
 */

export type CfnMode = keyof typeof CFN_MODES;
export type Decision = 'PROCEED' | 'ITERATE' | 'ABORT';
export type BlockingSpec = 'timeout' | { signalAfterMs: number };

export interface ImplementerSpec {
  id: string;
  /** Absolute path of the profile. */
  profile: string;
  confidence: number[];
  failIn: number[];
  noReportIn: number[];
  timeoutIn: number[];
  blockingTimeoutMs?: number;
  /** Where the entry is in the scenario file. */
  range: Range;
}

export interface ValidatorSpec {
  id: string;
  profile: string;
  consensus: number[];
  blocking: BlockingSpec[];
  blockingTimeoutMs?: number;
  range: Range;
}

export interface ProductOwnerSpec {
  id: string;
  profile: string;
  decisions: Decision[];
  blockingTimeoutMs?: number;
  range: Range;
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
  hookTimeoutMs: number;
  loop3: ImplementerSpec[];
  loop2: ValidatorSpec[];
  productOwner?: ProductOwnerSpec;
}

export const SCENARIO_DEFAULTS = {
  phase: 'implementation',
  mode: 'standard' as CfnMode,
  blockingTimeoutMs: 300_000,
  agentTimeoutMs: 1000,
} as const;

interface RawAgent {
  id: string;
  profile: string;
  confidence?: number | number[];
  consensus?: number | number[];
  failIn?: number[];
  noReportIn?: number[];
  timeoutIn?: number[];
  blocking?: BlockingSpec | BlockingSpec[];
  decisions?: Decision[];
  blockingTimeoutMs?: number;
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
  hookTimeoutMs?: number;
  loop3: RawAgent[];
  loop2: RawAgent[];
  productOwner?: Omit<RawAgent, 'id'> & { id?: string };
}

export type ScenarioLoad = { ok: true; scenario: Scenario } | { ok: false; diagnostics: Diagnostic[] };

const RULE_ID = 'scenario-invalid';

export async function loadScenario(file: string): Promise<ScenarioLoad> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return fail([
      {
        ruleId: RULE_ID,
        severity: 'error',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 1,
        message: `Unreadable scenario: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
      },
    ]);
  }
  return parseScenario(file, text.replace(/^\uFEFF/, ''));
}

export async function parseScenario(file: string, text: string): Promise<ScenarioLoad> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const rangeOf = (start: number, end: number): Range => {
    const from = lineCounter.linePos(start);
    const to = lineCounter.linePos(Math.max(end, start + 1));
    return { line: from.line, column: from.col, endLine: to.line, endColumn: to.col };
  };
  const nodeRange = (node: unknown): Range => {
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    return range ? rangeOf(range[0], range[1]) : { line: 1, column: 1, endLine: 1, endColumn: 1 };
  };
  if (doc.errors.length > 0) {
    return fail(
      doc.errors.map((error) => ({
        ruleId: RULE_ID,
        severity: 'error' as const,
        ...rangeOf(error.pos[0], error.pos[1]),
        message: `Invalid YAML: ${error.message.split('\n')[0]!}`,
      })),
    );
  }
  const data = doc.toJS({ maxAliasCount: 50 }) as unknown;
  const at = (segments: string[]): Range => {
    const { node, pair } = nodeAtPath(doc.contents, segments);
    return nodeRange(node ?? pair?.key ?? (segments.length > 0 ? undefined : doc.contents));
  };

  if (!validate(data)) {
    const diagnostics: Diagnostic[] = [];
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      // oneOf reports every branch; the branch errors underneath say what is wrong.
      if (error.keyword === 'oneOf' || error.keyword === 'if') continue;
      const segments = error.instancePath
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      let range: Range;
      let message: string;
      const where = segments.join('.') || 'scenario';
      if (error.keyword === 'additionalProperties') {
        const name = String(error.params.additionalProperty);
        const { pair } = nodeAtPath(doc.contents, [...segments, name]);
        range = nodeRange(pair?.key);
        message = `Unexpected key \`${name}\` in ${where}.`;
      } else if (error.keyword === 'required') {
        range = at(segments);
        message = `Expected \`${String(error.params.missingProperty)}\` in ${where}.`;
      } else if (error.keyword === 'enum') {
        range = at(segments);
        message = `Invalid \`${where}\`: expected one of ${(error.params.allowedValues as unknown[]).map((v) => String(v)).join(', ')}.`;
      } else {
        range = at(segments);
        message = `Invalid \`${where}\`: ${error.message ?? 'is invalid'}.`;
      }
      const key = `${range.line}:${range.column}:${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      diagnostics.push({ ruleId: RULE_ID, severity: 'error', ...range, message });
    }
    return fail(diagnostics);
  }

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

  const loop3: ImplementerSpec[] = [];
  for (const [index, agent] of raw.loop3.entries()) {
    const path = ['loop3', String(index)];
    const { id, profile } = await checkAgent(agent, path, agent.id);
    loop3.push({
      id,
      profile,
      confidence: list(agent.confidence ?? 0),
      failIn: agent.failIn ?? [],
      noReportIn: agent.noReportIn ?? [],
      timeoutIn: agent.timeoutIn ?? [],
      ...(agent.blockingTimeoutMs !== undefined ? { blockingTimeoutMs: agent.blockingTimeoutMs } : {}),
      range: at(path),
    });
  }
  const loop2: ValidatorSpec[] = [];
  for (const [index, agent] of raw.loop2.entries()) {
    const path = ['loop2', String(index)];
    const { id, profile } = await checkAgent(agent, path, agent.id);
    loop2.push({
      id,
      profile,
      consensus: list(agent.consensus ?? 0),
      blocking: agent.blocking === undefined ? [{ signalAfterMs: 0 }] : Array.isArray(agent.blocking) ? agent.blocking : [agent.blocking],
      ...(agent.blockingTimeoutMs !== undefined ? { blockingTimeoutMs: agent.blockingTimeoutMs } : {}),
      range: at(path),
    });
  }
  let productOwner: ProductOwnerSpec | undefined;
  if (raw.productOwner) {
    const { id, profile } = await checkAgent(raw.productOwner, ['productOwner'], 'product-owner-1');
    productOwner = {
      id,
      profile,
      decisions: raw.productOwner.decisions ?? [],
      ...(raw.productOwner.blockingTimeoutMs !== undefined ? { blockingTimeoutMs: raw.productOwner.blockingTimeoutMs } : {}),
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
      hookTimeoutMs: raw.hookTimeoutMs ?? HOOK_TIMEOUT_MS,
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
