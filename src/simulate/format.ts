import { relative } from 'node:path';
import { escapeControl, escapeControlBlock } from '../text/control-chars.js';
import { formatScore } from './protocol.js';
import type { SimulationTrace, TimelineStep } from './trace.js';
import { safeJsonStringify } from '../text/json-safe.js';

/**
 * The three ways a simulation is shown: a timeline people read, the whole
 * trace as JSON, and a Mermaid sequence diagram. All pure functions of the trace.
 */

export function traceToJson(trace: SimulationTrace, cwd: string): string {
  const rel = (file: string): string => relative(cwd, file) || file;
  const shown = {
    ...trace,
    source: rel(trace.source),
    agents: trace.agents.map((agent) => ({ ...agent, profile: rel(agent.profile) })),
    hookRuns: trace.hookRuns.map((run) => ({ ...run, profile: rel(run.profile) })),
    findings: trace.findings.map((result) => ({ ...result, filePath: rel(result.filePath) })),
  };
  return `${safeJsonStringify(shown, 2)}\n`;
}

export function formatTimeline(trace: SimulationTrace, cwd: string): string {
  const rel = (file: string): string => escapeControl(relative(cwd, file) || file);
  const lines: string[] = [];
  if (trace.kind === 'lifecycle') {
    lines.push(
      `Blocking lifecycle of ${rel(trace.source)} (scenario: ${trace.outcome === 'signal' ? 'signal' : 'timeout'}), swarm ${trace.swarmId}, sandbox ${trace.sandbox}`,
    );
  } else {
    lines.push(
      `CFN Loop swarm ${rel(trace.source)}: task ${trace.taskId ?? '?'}, swarm ${trace.swarmId}, mode ${trace.mode ?? '?'} ` +
        `(gate ≥ ${trace.thresholds?.gate ?? '?'}, consensus ≥ ${trace.thresholds?.consensus ?? '?'}), at most ${trace.maxIterations ?? '?'} iterations, sandbox ${trace.sandbox}`,
    );
  }
  lines.push('');
  const width = Math.min(28, Math.max(12, ...trace.timeline.map((step) => step.actor.length)));
  const runs = new Map(trace.hookRuns.map((run) => [run.runId, run]));
  for (const step of trace.timeline) {
    lines.push(`${formatTime(step.t)}  ${escapeControl(step.actor).padEnd(width)}  ${marker(step)} ${escapeControl(step.text)}`);
    const run = step.runId !== undefined ? runs.get(step.runId) : undefined;
    if (!run) continue;
    const pad = ' '.repeat(10 + width + 4);
    for (const op of run.operations) {
      if (op.kind === 'memory')
        lines.push(
          `${pad}memory  ${clip(op.action, 40)}${op.level ? ` [${clip(op.level, 40)}]` : ''} ${clip(op.key ?? op.pattern ?? '', 200)} → ${op.outcome}${op.value !== undefined ? ` = ${clip(op.value, 80)}` : ''}`,
        );
      else if (op.kind === 'redis' && !op.push)
        lines.push(
          `${pad}redis   ${op.command.map((word) => clip(word, 60)).join(' ')} → ${op.reply === undefined ? '(no reply: still waiting when the hook ended)' : clip(JSON.stringify(op.reply), 80)}`,
        );
      else if (op.kind === 'event')
        lines.push(
          `${pad}event   ${clip(op.action, 40)} ${clip(op.type ?? '', 100)}${op.priority !== undefined ? ` priority ${op.priority}` : ''}${op.valid ? '' : ` INVALID: ${clip((op.problems ?? []).join('; '), 200)}`}`,
        );
      else if (op.kind === 'command') lines.push(`${pad}command ${clip(op.command, 60)} ${clip(op.args.join(' '), 200)}`);
    }
    for (const text of [run.stdout, run.stderr]) {
      const first = text.split('\n').find((line) => line.trim());
      if (first)
        lines.push(
          `${pad}${text === run.stdout ? 'stdout' : 'stderr'}  ${clip(first.trim(), 100)}${text.trim().includes('\n') ? ' …' : ''}`,
        );
    }
  }
  lines.push('');
  if (trace.kind === 'swarm') {
    lines.push('Decisions');
    for (const decision of trace.decisions) {
      lines.push(
        `  iteration ${decision.iteration}: ${decision.decision} by ${decision.by}` +
          `${decision.confidence !== undefined ? `, confidence ${formatScore(decision.confidence)}` : ''}${decision.consensus !== undefined ? `, consensus ${formatScore(decision.consensus)}` : ''}`,
      );
    }
    lines.push(`Outcome: ${trace.outcome}`);
    lines.push('');
    lines.push(`Redis keys at the end (${trace.redisKeys.length})`);
    for (const key of trace.redisKeys.filter((entry) => entry.key.startsWith(`swarm:${trace.taskId ?? ''}:`))) {
      lines.push(`  ${clip(key.key, 200)}  (${key.type})  ${clip(JSON.stringify(key.value), 100)}`);
    }
    const others = trace.redisKeys.length - trace.redisKeys.filter((entry) => entry.key.startsWith(`swarm:${trace.taskId ?? ''}:`)).length;
    if (others > 0) lines.push(`  … and ${others} other key(s) (see --format json)`);
  } else {
    lines.push(`Outcome: ${trace.outcome === 'signal' ? 'signal received, work resumed' : 'blocking timeout'}`);
  }
  lines.push(
    `Memory at the end: ${trace.memory.length} entr${trace.memory.length === 1 ? 'y' : 'ies'}; events published: ${trace.events.length}; hook runs: ${trace.hookRuns.length} (${trace.hookRuns.filter((run) => run.failed).length} failed)`,
  );
  for (const entry of trace.memory.filter((e) => !e.key.startsWith('hook:') && e.key !== 'metrics:hooks:execution').slice(0, 20)) {
    lines.push(
      `  ${escapeControl(entry.level === 'swarm' ? `swarm ${entry.swarmId ?? '?'}` : entry.level).padEnd(16)} ${clip(entry.key, 200)}  (owner ${clip(entry.owner, 80)})  ${clip(entry.value, 80)}`,
    );
  }
  for (const event of trace.events.slice(0, 20))
    lines.push(`  event ${clip(event.type, 100)}  priority ${event.priority}  by ${clip(event.agentId, 80)}`);
  lines.push('');
  const findings = trace.findings.flatMap((result) => result.diagnostics.map((d) => ({ file: result.filePath, d })));
  if (findings.length === 0) {
    lines.push('Findings: none');
  } else {
    lines.push(`Findings (${findings.length})`);
    for (const { file, d } of findings) {
      lines.push(`  ${rel(file)}:${d.line}:${d.column}  ${d.severity}  ${escapeControl(d.message)}  ${d.ruleId}`);
      for (const related of d.related ?? [])
        lines.push(`      ${escapeControl(related.message)}: ${rel(related.file)}:${related.range.line}:${related.range.column}`);
    }
  }
  // Fields are escaped where they are placed; this pass is the net for one that is not.
  return `${escapeControlBlock(lines.join('\n'))}\n`;
}

function formatTime(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`.padStart(8);
}

function marker(step: TimelineStep): string {
  return {
    spawn: '+',
    hook: '▸',
    block: '⏸',
    signal: '⚡',
    timeout: '⏰',
    report: '✓',
    'missing-report': '✗',
    replace: '↻',
    gate: '◆',
    consensus: '◆',
    decision: '★',
    iteration: '═',
    outcome: '■',
    note: '·',
    exit: '⏻',
    escalate: '⇡',
    retry: '↺',
    reschedule: '⇢',
  }[step.kind];
}

/** One line of hook-controlled text, control characters shown as escapes. */
function clip(text: string, max: number): string {
  const flat = escapeControl(text);
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A Mermaid sequence diagram of the run. It uses a small, safe subset —
 * `participant X as label`, `->>`, `-->>`, `-)` messages, `Note over`, and
 * `loop`/`end` blocks per iteration — and cleans every text of what Mermaid
 * would read as syntax (`;`, `#`, `<`, `>`, line breaks); see
 * mermaid-check.ts for the grammar the output keeps to.
 */
export function formatMermaid(trace: SimulationTrace): string {
  const ids = new Map<string, string>();
  const lines = ['sequenceDiagram'];
  const participant = (name: string): string => {
    let id = ids.get(name);
    if (!id) {
      id = name === 'orchestrator' ? 'O' : name === 'Redis' ? 'R' : name === 'Memory' ? 'M' : name === 'EventBus' ? 'E' : `A${ids.size}`;
      ids.set(name, id);
      lines.push(`  participant ${id} as ${label(name)}`);
    }
    return id;
  };
  const body: string[] = [];
  let openLoop: number | undefined;
  const runs = new Map(trace.hookRuns.map((run) => [run.runId, run]));
  participant('orchestrator');
  participant('Redis');
  participant('Memory');
  participant('EventBus');
  const hostWrites = trace.redisWrites.filter((write) => write.runId === undefined);
  let hostIndex = 0;
  const flushHostWrites = (until: number): void => {
    while (hostIndex < hostWrites.length && hostWrites[hostIndex]!.t <= until) {
      const write = hostWrites[hostIndex++]!;
      body.push(`  ${participant(write.agentId)}->>R: ${text(write.command.slice(0, 2).join(' '))}`);
    }
  };
  for (const step of trace.timeline) {
    flushHostWrites(step.t);
    if (step.kind === 'iteration') {
      if (openLoop !== undefined) body.push('  end');
      body.push(`  loop ${text(`Iteration ${step.iteration ?? '?'}`)}`);
      openLoop = step.iteration;
      continue;
    }
    const actor = participant(step.actor === 'coordinator' ? 'orchestrator' : step.actor);
    switch (step.kind) {
      case 'hook': {
        const run = step.runId !== undefined ? runs.get(step.runId) : undefined;
        body.push(`  Note over ${actor}: ${text(step.text)}`);
        for (const op of run?.operations ?? []) {
          if (op.kind === 'memory')
            body.push(`  ${actor}->>M: ${text(`${op.action} ${op.level ?? ''} ${op.key ?? op.pattern ?? ''} → ${op.outcome}`)}`);
          else if (op.kind === 'redis' && !op.push) body.push(`  ${actor}->>R: ${text(op.command.slice(0, 2).join(' '))}`);
          else if (op.kind === 'event')
            body.push(`  ${actor}-)E: ${text(`${op.type ?? 'event'} p${op.priority ?? '?'}${op.valid ? '' : ' INVALID'}`)}`);
        }
        break;
      }
      case 'signal':
        if (step.to && step.to.length > 0) for (const to of step.to) body.push(`  ${actor}-->>${participant(to)}: ${text(step.text)}`);
        else body.push(`  Note over ${actor}: ${text(step.text)}`);
        break;
      default:
        body.push(`  Note over ${actor}: ${text(step.text)}`);
    }
  }
  flushHostWrites(Infinity);
  if (openLoop !== undefined) body.push('  end');
  return `${[...lines, ...body].join('\n')}\n`;
}

function label(name: string): string {
  return text(name).replace(/ as /g, ' ');
}

/** Mermaid message text: one line, no statement separators, entity markers or HTML. */
function text(value: string): string {
  const cleaned = escapeControl(value.replace(/[\r\n]+/g, ' '))
    .replace(/;/g, ',')
    .replace(/#/g, 'no.')
    .replace(/[<>]/g, '')
    .replace(/%%/g, '%')
    .replace(/[{}]/g, (c) => (c === '{' ? '(' : ')'))
    .trim();
  const clipped = cleaned.length > 120 ? `${cleaned.slice(0, 120)}…` : cleaned;
  return clipped || '-';
}
