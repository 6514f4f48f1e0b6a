import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { countBySeverity, type LintResult } from '../diagnostics.js';
import { NO_SANDBOX_WARNING, SandboxUnavailableError, type ExecutorSession, type ExecutorSessionOptions } from '../executor/session.js';
import { isReporterName, loadReporter } from '../reporters/index.js';
import { BLOCKING_TYPES, HOOK_TIMEOUT_MS } from '../runtime/contract.js';
import { simulateSwarm } from '../simulate/cfn-loop.js';
import { formatMermaid, formatTimeline, traceToJson } from '../simulate/format.js';
import { LIFECYCLE_DEFAULTS, simulateLifecycle } from '../simulate/lifecycle.js';
import { loadScenario } from '../simulate/scenario.js';
import type { SimulationTrace } from '../simulate/trace.js';
import { toolVersion } from '../version.js';
import type { CliIO } from '../io.js';
import { escapeControl } from '../text/control-chars.js';
import { colorFor, OUTPUT_FLAGS_HELP, parseCommandArgs } from './output-flags.js';

export const SIMULATE_HELP = `Usage: validate-agent-hooks simulate PROFILE --scenario signal|timeout [options]
       validate-agent-hooks simulate --swarm SCENARIO.yaml [options]

Play agent lifecycles with the profiles' real hooks, each run sandboxed as
\`run\` does, all sharing one embedded Redis, one SQLite memory and one event
log, and report what the run proves wrong at the hooks' lines.

One agent's blocking lifecycle:
  --scenario signal        on_blocking_start, a signal after --signal-after-ms, on_signal_received
                           (SIGNAL_DATA, WAIT_DURATION set)
  --scenario timeout       on_blocking_start, the threshold passes, on_blocking_timeout
                           (TIMEOUT_DURATION, EXCEEDED_BY set)
  --signal-after-ms N      When the signal arrives (default ${LIFECYCLE_DEFAULTS.signalAfterMs})
  --timeout-threshold-ms N TIMEOUT_THRESHOLD (default ${LIFECYCLE_DEFAULTS.timeoutThresholdMs} for timeout, ${LIFECYCLE_DEFAULTS.signalThresholdMs} for signal)
  --signal-data JSON       SIGNAL_DATA (default: a coordinator's completion signal)
  --blocking-type TYPE     BLOCKING_TYPE: consensus (default), validation or dependency
  --agent-id ID, --swarm-id ID, --task TEXT, --iteration N, --phase NAME

A CFN Loop swarm, as AGENT_LIFECYCLE v2 plays it (agents report and exit):
  --swarm FILE             Scenario file (YAML, schemas/scenario.schema.json): Loop 3 implementers,
                           Loop 2 validators, the Product Owner, what each does per iteration, and
                           the blocking coordination each enters (its blocking hooks run only there)

Run:
  --hook-timeout-ms N      Per-hook timeout (default ${HOOK_TIMEOUT_MS}, the runtime's; a scenario may set its own)
  --workspace DIR          Copy DIR into each agent's fresh workspace
  --redis-url URL          A real Redis instead of the embedded fake
  --no-sandbox             Run hooks unconfined on this machine (prints a warning; not recommended)

Output:
  -f, --format NAME        timeline (default): what happened, in order, with each hook's calls
                           json: the whole trace (iterations, hook runs, Redis keys written and left,
                                 memory, events, decisions, findings)
                           mermaid: a Mermaid sequence diagram
                           stylish | sarif | github | lsp: the findings only, as the linter prints them
${OUTPUT_FLAGS_HELP}  -h, --help               Show this help

The runtime's own bookkeeping is written to project-level memory: each hook
run is appended to hook:{AGENT_ID}:execution and counted in
metrics:hooks:execution ({hooks: {NAME: {executions, failures,
avg_duration_ms, max_duration_ms}}}).

Exit codes: 0 no error-severity finding, 1 error findings (a hook timed out, a
denied read, an invalid event, a wait that blocked forever, a Redis error
reply), 2 usage error,
invalid scenario, or the sandbox is unavailable.
`;

export interface SimulateDependencies {
  createSession?: (options: ExecutorSessionOptions) => Promise<ExecutorSession>;
}

const FORMATS = ['timeline', 'json', 'mermaid', 'stylish', 'sarif', 'github', 'lsp'] as const;
type Format = (typeof FORMATS)[number];

class SimulateUsageError extends Error {}

export async function simulateCommand(args: string[], io: CliIO, dependencies: SimulateDependencies = {}): Promise<number> {
  let options: ReturnType<typeof parseSimulateArgs>;
  try {
    options = parseSimulateArgs(args);
  } catch (error) {
    io.stderr(`validate-agent-hooks simulate: ${(error as Error).message}\nTry 'validate-agent-hooks simulate --help'.\n`);
    return 2;
  }
  if (options.help) {
    io.stdout(SIMULATE_HELP);
    return 0;
  }
  const session: Partial<ExecutorSessionOptions> = {
    sandbox: options.noSandbox ? 'none' : 'bwrap',
    ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
  };
  if (options.workspace) {
    const workspace = resolve(io.cwd, options.workspace);
    if (
      !(await stat(workspace).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      io.stderr(`validate-agent-hooks simulate: --workspace ${escapeControl(options.workspace)} is not a directory\n`);
      return 2;
    }
    session.workspaceSeed = workspace;
  }
  if (options.noSandbox) io.stderr(`${NO_SANDBOX_WARNING}\n`);

  let trace: SimulationTrace;
  try {
    if (options.swarm !== undefined) {
      const file = resolve(io.cwd, options.swarm);
      const loaded = await loadScenario(file);
      if (!loaded.ok) {
        for (const d of loaded.diagnostics) io.stderr(`${relative(io.cwd, file) || file}:${d.line}:${d.column}: ${d.message}\n`);
        return 2;
      }
      const scenario = options.hookTimeoutMs !== undefined ? { ...loaded.scenario, hookTimeoutMs: options.hookTimeoutMs } : loaded.scenario;
      trace = await simulateSwarm(scenario, {
        session,
        ...(dependencies.createSession ? { createSession: dependencies.createSession } : {}),
      });
    } else {
      const profile = resolve(io.cwd, options.profile!);
      if (
        !(await stat(profile).then(
          (s) => s.isFile(),
          () => false,
        ))
      ) {
        io.stderr(`validate-agent-hooks simulate: ${escapeControl(options.profile!)}: no such file\n`);
        return 2;
      }
      trace = await simulateLifecycle(profile, {
        scenario: options.scenario!,
        ...(options.signalAfterMs !== undefined ? { signalAfterMs: options.signalAfterMs } : {}),
        ...(options.timeoutThresholdMs !== undefined ? { timeoutThresholdMs: options.timeoutThresholdMs } : {}),
        ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
        ...(options.swarmId !== undefined ? { swarmId: options.swarmId } : {}),
        ...(options.task !== undefined ? { task: options.task } : {}),
        ...(options.iteration !== undefined ? { iteration: options.iteration } : {}),
        ...(options.phase !== undefined ? { phase: options.phase } : {}),
        ...(options.blockingType !== undefined ? { blockingType: options.blockingType } : {}),
        ...(options.signalData !== undefined ? { signalData: options.signalData } : {}),
        ...(options.hookTimeoutMs !== undefined ? { hookTimeoutMs: options.hookTimeoutMs } : {}),
        session,
        ...(dependencies.createSession ? { createSession: dependencies.createSession } : {}),
      });
    }
  } catch (error) {
    const message = (error as Error).message;
    io.stderr(`validate-agent-hooks simulate: ${error instanceof SandboxUnavailableError ? 'cannot sandbox the hooks: ' : ''}${message}\n`);
    return 2;
  }

  io.stdout(await render(trace, options.format, io, colorFor(options.output, io)));
  const { errors } = countBySeverity(trace.findings.flatMap((result) => result.diagnostics));
  return errors > 0 ? 1 : 0;
}

async function render(trace: SimulationTrace, format: Format, io: CliIO, color: boolean): Promise<string> {
  switch (format) {
    case 'timeline':
      return formatTimeline(trace, io.cwd);
    case 'json':
      return traceToJson(trace, io.cwd);
    case 'mermaid':
      return formatMermaid(trace);
    default: {
      const reporter = await loadReporter(format);
      const results: LintResult[] = trace.findings;
      const root = format === 'sarif' || format === 'github' ? (await import('./repo-root.js')).repositoryRoot(io.cwd, io.env) : io.cwd;
      const painted = color && format === 'stylish';
      return reporter(results, {
        cwd: io.cwd,
        root,
        color: painted,
        verbose: false,
        toolVersion: toolVersion(),
        ...(painted ? { painter: await (await import('../reporters/types.js')).chalkPainter() } : {}),
      });
    }
  }
}

export function parseSimulateArgs(args: string[]): {
  help: boolean;
  profile?: string;
  swarm?: string;
  scenario?: 'signal' | 'timeout';
  format: Format;
  signalAfterMs?: number;
  timeoutThresholdMs?: number;
  hookTimeoutMs?: number;
  signalData?: string;
  agentId?: string;
  swarmId?: string;
  task?: string;
  iteration?: number;
  phase?: string;
  blockingType?: (typeof BLOCKING_TYPES)[number];
  workspace?: string;
  redisUrl?: string;
  noSandbox: boolean;
  /** --color, --no-color, --ci: colour for the stylish findings (the other formats have none). */
  output: { color?: boolean; 'no-color'?: boolean; ci?: boolean };
} {
  const parsed = parseCommandArgs(args, {
    scenario: { type: 'string' },
    swarm: { type: 'string' },
    format: { type: 'string', short: 'f' },
    'signal-after-ms': { type: 'string' },
    'timeout-threshold-ms': { type: 'string' },
    'hook-timeout-ms': { type: 'string' },
    'signal-data': { type: 'string' },
    'agent-id': { type: 'string' },
    'swarm-id': { type: 'string' },
    task: { type: 'string' },
    iteration: { type: 'string' },
    phase: { type: 'string' },
    'blocking-type': { type: 'string' },
    workspace: { type: 'string' },
    'redis-url': { type: 'string' },
    'no-sandbox': { type: 'boolean' },
  });
  if ('error' in parsed) throw new SimulateUsageError(parsed.error);
  const { values, positionals } = parsed;
  const format = (values.format ?? 'timeline') as Format;
  if (values.help) return { help: true, format: 'timeline', noSandbox: false, output: {} };
  if (!(FORMATS as readonly string[]).includes(format) || (!['timeline', 'json', 'mermaid'].includes(format) && !isReporterName(format))) {
    throw new SimulateUsageError(`unknown --format '${format}' (expected ${FORMATS.join(', ')})`);
  }
  const number = (flag: string, text: string | undefined, min = 0): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text) || Number(text) < min)
      throw new SimulateUsageError(`invalid ${flag} '${text}' (expected a whole number${min > 0 ? ` ≥ ${min}` : ''})`);
    return Number(text);
  };
  const common = {
    help: false,
    output: { color: values.color, 'no-color': values['no-color'], ci: values.ci },
    format,
    ...optional('hookTimeoutMs', number('--hook-timeout-ms', values['hook-timeout-ms'], 1)),
    ...optional('workspace', values.workspace),
    ...optional('redisUrl', values['redis-url']),
    noSandbox: values['no-sandbox'] ?? false,
  };
  if (values.swarm !== undefined) {
    if (positionals.length > 0)
      throw new SimulateUsageError(`--swarm takes no PROFILE (got ${positionals.join(' ')}): the scenario names the profiles`);
    for (const flag of [
      'scenario',
      'signal-after-ms',
      'timeout-threshold-ms',
      'signal-data',
      'agent-id',
      'swarm-id',
      'task',
      'iteration',
      'phase',
      'blocking-type',
    ] as const) {
      if (values[flag] !== undefined)
        throw new SimulateUsageError(`--${flag} is for one agent's lifecycle; a --swarm scenario sets it in the scenario file`);
    }
    return { ...common, swarm: values.swarm };
  }
  if (positionals.length !== 1)
    throw new SimulateUsageError(
      positionals.length === 0 ? 'missing PROFILE (or --swarm SCENARIO.yaml)' : `expected one PROFILE, got ${positionals.length}`,
    );
  if (values.scenario !== 'signal' && values.scenario !== 'timeout') {
    throw new SimulateUsageError(
      values.scenario === undefined
        ? 'missing --scenario signal|timeout'
        : `unknown --scenario '${values.scenario}' (expected signal or timeout)`,
    );
  }
  const blockingType = values['blocking-type'];
  if (blockingType !== undefined && !(BLOCKING_TYPES as readonly string[]).includes(blockingType))
    throw new SimulateUsageError(`unknown --blocking-type '${blockingType}' (the hooks document lists ${BLOCKING_TYPES.join(', ')})`);
  if (values['signal-data'] !== undefined) {
    try {
      JSON.parse(values['signal-data']);
    } catch {
      throw new SimulateUsageError('--signal-data must be JSON');
    }
  }
  return {
    ...common,
    profile: positionals[0]!,
    scenario: values.scenario,
    ...optional('signalAfterMs', number('--signal-after-ms', values['signal-after-ms'])),
    ...optional('timeoutThresholdMs', number('--timeout-threshold-ms', values['timeout-threshold-ms'], 1)),
    ...optional('signalData', values['signal-data']),
    ...optional('agentId', values['agent-id']),
    ...optional('swarmId', values['swarm-id']),
    ...optional('task', values.task),
    ...optional('iteration', number('--iteration', values.iteration, 1)),
    ...optional('phase', values.phase),
    ...optional('blockingType', blockingType as (typeof BLOCKING_TYPES)[number] | undefined),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
