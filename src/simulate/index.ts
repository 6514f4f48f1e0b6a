/**
 * The lifecycle simulator: drives the executor through one agent's blocking
 * lifecycle or a whole CFN Loop swarm, with the profiles' real hooks against
 * one session's fakes, and turns what it saw into a trace and findings.
 */
export { simulateLifecycle, LIFECYCLE_DEFAULTS, type LifecycleOptions } from './lifecycle.js';
export { simulateSwarm, type SwarmOptions } from './cfn-loop.js';
export { reportKeys, swarmKeys, meanAgainst, parseDecision, formatScore, DONE_VALUE, SIGNAL_VALUE } from './protocol.js';
export {
  loadScenario,
  parseScenario,
  forIteration,
  SCENARIO_DEFAULTS,
  DOCUMENTED_AGENT_TIMEOUTS,
  type Scenario,
  type ScenarioLoad,
} from './scenario.js';
export { simulationFindings, locateInHook, SIMULATION_RULES, type SimulationRuleId } from './findings.js';
export { formatTimeline, formatMermaid, traceToJson } from './format.js';
export { checkMermaidSequence } from './mermaid-check.js';
export { HOOK_LOG_KEY, HOOK_METRICS_KEY, RUNTIME_IDENTITY, type HookLogEntry, type HookMetrics } from './world.js';
export type * from './trace.js';
