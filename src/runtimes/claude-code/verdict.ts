import {
  askRefusedBecause,
  blockExemption,
  eventSpec,
  exit2Blocks,
  PATH_OUTPUT_EVENT,
  PERMISSION_DECISIONS,
  TIMEOUT_BLOCKS_EVENTS,
  worktreePathOf,
  worktreePathProblem,
} from './contract.js';
import { checkOutputJson, type OutputProblem } from './output-json.js';
import { escapeControl } from '../../text/control-chars.js';

/**
 * What Claude Code makes of one command handler's run, and of all the
 * handlers of an event together (../shared/runtimes/claude-code-hooks.md
 * §3.3, §3.4, §5): exit 2 blocks with stderr as the reason (JSON cannot
 * override it); any other non-zero code is a non-blocking error unless a
 * valid JSON object on stdout decides; stdout is JSON only when it starts
 * with `{`; a handler that timed out renders no decision (except on
 * PreModelSwitch, where a timeout blocks the switch); PreToolUse and
 * PreModelSwitch decisions merge most restrictive first, deny > defer > ask
 * > allow.
 */

export type { OutputProblem } from './output-json.js';

export type Decision = 'deny' | 'defer' | 'ask' | 'allow' | 'block' | 'none';

export type HandlerStatus = 'success' | 'blocking-error' | 'non-blocking-error' | 'timed-out' | 'not-started';

export interface HandlerOutcome {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  timeoutSeconds: number;
  /** The handler could not be started at all. */
  startError?: string;
  /** `async: true`: Claude Code does not wait for it, and its decision fields have no effect (§3.6). */
  async?: boolean;
  /** `asyncRewake: true` (implies `async`): its exit 2 wakes Claude with stderr, or stdout if stderr is empty (§2.4). */
  asyncRewake?: boolean;
  /** Bytes the handler wrote to stdout when the executor kept fewer of them (its output cap). */
  stdoutBytesCut?: number;
}

export interface HandlerVerdict {
  status: HandlerStatus;
  /** This handler's own contribution to the verdict. */
  decision: Decision;
  reason?: string;
  /** The JSON object on stdout, when stdout was one. */
  json?: Record<string, unknown>;
  /** Whether Claude Code would act on that JSON (it is schema-valid and the exit code lets it). */
  jsonApplied: boolean;
  /** `continue: false` in applied JSON: Claude stops after the hook. */
  stop?: { reason?: string };
  /** One clause saying why the handler decided what it did, for reports and failed test cases. */
  why: string;
  problems: OutputProblem[];
}

export interface EventVerdict {
  blocked: boolean;
  decision: Decision;
  reason?: string;
  /** False when a handler's JSON said `continue: false`. */
  continue: boolean;
  stopReason?: string;
}

/** Decisions from most to least restrictive; merging keeps the first that any handler gave. */
const MERGE_ORDER: readonly Decision[] = [...PERMISSION_DECISIONS.slice(0, 1), 'block', ...PERMISSION_DECISIONS.slice(1), 'none'];

/**
 * `input` is the event's stdin JSON: some firings of an event that can block
 * cannot (a ConfigChange from `policy_settings`), and the verdict says so.
 */
export function interpretHandler(event: string, outcome: HandlerOutcome, input?: Readonly<Record<string, unknown>>): HandlerVerdict {
  const verdict = judgeHandler(event, outcome, input);
  // Messages and clauses quote what the hook printed (a JSON.parse error quotes stdout, a worktree
  // path is stdout): escaped here, so no printer of them can be made to repaint a terminal.
  return {
    ...verdict,
    why: escapeControl(verdict.why),
    problems: verdict.problems.map((problem) => ({ ...problem, message: escapeControl(problem.message) })),
  };
}

function judgeHandler(event: string, outcome: HandlerOutcome, input?: Readonly<Record<string, unknown>>): HandlerVerdict {
  const verdict = interpretOutcome(event, outcome);
  const refusal = verdict.decision === 'ask' ? askRefusedBecause(event, input) : undefined;
  if (refusal !== undefined) return { ...verdict, decision: 'deny', why: `${verdict.why}, but ${refusal}` };
  const exemption = blockExemption(event, input);
  if (exemption === undefined || (verdict.decision !== 'block' && verdict.decision !== 'deny')) return verdict;
  verdict.problems.push({
    id: 'cannot-block',
    severity: 'warning',
    message: `Unexpected ${verdict.status === 'blocking-error' ? 'exit 2' : `\`${verdict.decision}\` decision`}: ${exemption}.`,
  });
  const { reason: _reason, ...rest } = verdict;
  return {
    ...rest,
    status: verdict.status === 'blocking-error' ? 'non-blocking-error' : verdict.status,
    decision: 'none',
    why: `${verdict.why}, but ${exemption}`,
  };
}

function interpretOutcome(event: string, outcome: HandlerOutcome): HandlerVerdict {
  const problems: OutputProblem[] = [];
  if (outcome.startError) {
    return { status: 'not-started', decision: 'none', jsonApplied: false, why: `could not start: ${outcome.startError}`, problems };
  }
  if (outcome.timedOut && TIMEOUT_BLOCKS_EVENTS.has(event)) {
    problems.push({
      id: 'timed-out',
      severity: 'warning',
      message: `Timed out after ${outcome.timeoutSeconds} s: Claude Code cancels the handler, and on ${event} a timeout blocks (it fails closed).`,
    });
    return { status: 'timed-out', decision: 'block', jsonApplied: false, why: `it timed out, which blocks ${event}`, problems };
  }
  if (outcome.timedOut) {
    problems.push({
      id: 'timed-out',
      severity: 'warning',
      message:
        `Timed out after ${outcome.timeoutSeconds} s: Claude Code cancels the handler and it renders no decision` +
        (event === 'PreToolUse' ? ' (the call goes through the normal permission flow: a stalled guard fails open).' : '.'),
    });
    return { status: 'timed-out', decision: 'none', jsonApplied: false, why: 'it timed out, which renders no decision', problems };
  }

  if (outcome.stdoutBytesCut !== undefined)
    problems.push({
      id: 'output-cut',
      severity: 'warning',
      message: `Unexpected stdout of ${outcome.stdoutBytesCut} bytes: this tool keeps the first ${Buffer.byteLength(outcome.stdout)} and judged those; Claude Code reads the whole output and may decide otherwise.`,
    });
  if (event === PATH_OUTPUT_EVENT && outcome.exitCode === 0 && !outcome.async) return worktreeVerdict(outcome.stdout, problems);
  const parsed = parseStdout(outcome.stdout, problems);
  const exit = outcome.exitCode;
  const checked = parsed ? checkOutputJson(event, readOnExit(event, exit, parsed, problems), problems) : undefined;
  const base = { ...(parsed ? { json: parsed } : {}), problems };

  if (outcome.async) {
    if (checked?.decision && checked.decision !== 'none')
      problems.push({
        id: 'async-decision',
        severity: 'warning',
        message: 'Unexpected decision from an async handler: Claude Code does not wait for it, so decision fields have no effect.',
      });
    const rewake = outcome.asyncRewake && exit === 2;
    return {
      status: exit === 0 || rewake ? 'success' : 'non-blocking-error',
      decision: 'none',
      jsonApplied: false,
      why: rewake
        ? `it runs async, so it cannot decide; its exit 2 wakes Claude with its ${outcome.stderr.trim() ? 'stderr' : 'stdout'} as a system reminder`
        : 'it runs async, so it cannot decide',
      ...base,
    };
  }

  if (exit === 2 && exit2Blocks(event)) {
    const decision: Decision = event === 'PreToolUse' ? 'deny' : 'block';
    const jsonReason = checked?.valid ? checked.blockingReason : undefined;
    const reason = jsonReason ?? (outcome.stderr.trim() || undefined);
    if (checked?.valid && (checked.decision === 'allow' || checked.decision === 'ask'))
      problems.push({
        id: 'exit-2-overrides-json',
        severity: 'warning',
        message: `Unexpected \`${checked.decision}\` in the JSON of a handler that exits 2: exit 2 blocks whatever the JSON says.`,
      });
    if (reason === undefined)
      problems.push({
        id: 'block-without-reason',
        severity: 'warning',
        message: 'Expected a reason on stderr with exit 2: Claude gets an empty reason and cannot adjust.',
      });
    return {
      status: 'blocking-error',
      decision,
      ...(reason !== undefined ? { reason } : {}),
      jsonApplied: Boolean(checked?.valid),
      // Valid JSON is still read on exit 2 (§5.1): its `continue: false` stops Claude too.
      ...(checked?.valid && checked.stop ? { stop: checked.stop } : {}),
      why: `it exited 2, which ${decision === 'deny' ? 'denies the call' : 'blocks'} with ${jsonReason !== undefined ? "its JSON's reason" : 'stderr as the reason'}`,
      ...base,
    };
  }

  if (exit !== 0 && eventSpec(event)?.block === 'any-nonzero') {
    return {
      status: 'blocking-error',
      decision: 'block',
      jsonApplied: false,
      why: `it exited ${exit ?? 'by a signal'}: WorktreeCreate fails on any non-zero exit`,
      ...base,
    };
  }

  if (checked?.valid) {
    const decision = checked.decision ?? 'none';
    const stop = checked.stop;
    const exitNote = exit === 0 ? '' : ` (exit ${exit ?? 'by a signal'} is ignored when valid JSON decides)`;
    return {
      status: exit === 0 ? 'success' : 'non-blocking-error',
      decision,
      ...(checked.reason !== undefined ? { reason: checked.reason } : {}),
      jsonApplied: true,
      ...(stop ? { stop } : {}),
      why: (decision === 'none' ? 'its JSON makes no decision' : `its JSON says ${decision}`) + exitNote,
      ...base,
    };
  }

  if (exit === 0) {
    // Since v2.1.248 stdout that starts with `{` but does not parse is a hook error, not plain text (§9).
    const unparsable = !parsed && problems.some((problem) => problem.id === 'invalid-json');
    const kept = Buffer.byteLength(outcome.stdout);
    const why = parsed
      ? 'its JSON is invalid, a non-blocking error'
      : outcome.stdoutBytesCut !== undefined
        ? `the first ${kept} of ${outcome.stdoutBytesCut} bytes of its stdout (this tool's output cap) decide nothing; Claude Code reads them all`
        : unparsable
          ? 'its stdout starts with `{` but is not one JSON object, a non-blocking error'
          : outcome.stdout.trim() === ''
            ? 'it exited 0 without output, which makes no decision'
            : 'it exited 0 with plain text, which makes no decision';
    return { status: parsed || unparsable ? 'non-blocking-error' : 'success', decision: 'none', jsonApplied: false, why, ...base };
  }

  if (exit === 2) {
    problems.push({
      id: 'exit-2-ignored',
      severity: 'warning',
      message:
        eventSpec(event)?.block === 'json-only'
          ? `Unexpected exit 2 on ${event}: it is not honoured; answer \`${eventSpec(event)?.jsonDecision ?? 'a JSON decision'}\` to refuse.`
          : `Unexpected exit 2 on ${event}: this event cannot be blocked, so it is only shown as an error.`,
    });
    return { status: 'non-blocking-error', decision: 'none', jsonApplied: false, why: `exit 2 cannot block ${event}`, ...base };
  }

  const code = exit === null ? 'was killed' : `exited ${exit}`;
  const canBlock = exit2Blocks(event) || eventSpec(event)?.block === 'json-only';
  if (exit === 127)
    problems.push({
      id: 'command-not-found',
      severity: 'error',
      message: 'Unexpected exit 127 (command not found): a mistyped or missing script disables the hook silently; the action proceeds.',
    });
  else if (exit !== null && canBlock)
    problems.push({
      id: 'exit-1-refusal',
      severity: 'error',
      message:
        eventSpec(event)?.block === 'none'
          ? `Unexpected exit ${exit}: Claude Code treats it as a non-blocking error and Claude never sees stderr; exit 2 or a block decision feeds the reason back to Claude.`
          : `Unexpected exit ${exit}: Claude Code treats it as a non-blocking error and the action proceeds; only exit 2 or a ${event === 'PreToolUse' ? 'deny' : 'block'} decision blocks.`,
    });
  return {
    status: 'non-blocking-error',
    decision: 'none',
    jsonApplied: false,
    why: `the handler ${code}; only exit 2 or a ${event === 'PreToolUse' ? 'deny' : 'block'} decision blocks`,
    ...base,
  };
}

/** Exit 2 still reads the JSON, but not `hookSpecificOutput` on Elicitation and ElicitationResult (§5.1). */
function readOnExit(event: string, exit: number | null, json: Record<string, unknown>, problems: OutputProblem[]): Record<string, unknown> {
  if (exit !== 2 || (event !== 'Elicitation' && event !== 'ElicitationResult') || !('hookSpecificOutput' in json)) return json;
  problems.push({
    id: 'ignored-on-exit-2',
    severity: 'warning',
    path: ['hookSpecificOutput'],
    message: `Unexpected \`hookSpecificOutput\` with exit 2 on ${event}: Claude Code ignores it there; exit 2 alone decides.`,
  });
  const { hookSpecificOutput: _ignored, ...rest } = json;
  return rest;
}

/** Stdout is JSON only if its first non-blank character is `{` (§5.1); anything else is text. */
function parseStdout(stdout: string, problems: OutputProblem[]): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (trimmed.startsWith('{')) {
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch (error) {
      problems.push({
        id: 'invalid-json',
        severity: 'error',
        message: `Invalid JSON on stdout (${(error as Error).message}): stdout that starts with \`{\` must be one JSON object and nothing else; Claude Code reports a hook error and ignores it.`,
      });
    }
    return undefined;
  }
  // A log line before the JSON turns the whole output into text (§7 pitfall 5).
  const start = stdout.search(/^\s*\{/m);
  if (trimmed !== '' && start > 0) {
    try {
      const value = JSON.parse(stdout.slice(start).trim()) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const before = stdout.slice(0, start).trim().split('\n').length;
        problems.push({
          id: 'text-before-json',
          severity: 'error',
          message: `Unexpected text before the JSON on stdout (${before} line${before === 1 ? '' : 's'}): stdout is parsed as JSON only when it starts with \`{\`, so Claude Code reads all of it as plain text and ignores the JSON. Send logs to stderr.`,
        });
      }
    } catch {
      // Text that merely contains a brace.
    }
  }
  return undefined;
}

export function mergeVerdicts(event: string, verdicts: readonly HandlerVerdict[]): EventVerdict {
  let decision: Decision = 'none';
  for (const verdict of verdicts) if (MERGE_ORDER.indexOf(verdict.decision) < MERGE_ORDER.indexOf(decision)) decision = verdict.decision;
  const reasons = [...new Set(verdicts.filter((v) => v.decision === decision && v.reason !== undefined).map((v) => v.reason!))];
  const stops = verdicts.filter((v) => v.stop);
  const stopReasons = stops.map((v) => v.stop!.reason).filter((r): r is string => r !== undefined);
  return {
    // A post-tool `block` feeds the reason back to Claude, but the tool already ran: nothing was blocked.
    blocked: (decision === 'deny' || decision === 'block') && eventSpec(event)?.block !== 'none',
    decision: event === 'PreToolUse' || decision !== 'none' ? decision : 'none',
    ...(decision !== 'none' && reasons.length > 0 ? { reason: reasons.join('\n') } : {}),
    continue: stops.length === 0,
    ...(stopReasons.length > 0 ? { stopReason: stopReasons.join('\n') } : {}),
  };
}

/** WorktreeCreate's command hook exited 0: its answer is the path it printed (§5.2). */
function worktreeVerdict(stdout: string, problems: OutputProblem[]): HandlerVerdict {
  const path = worktreePathOf(stdout);
  if (path === undefined) {
    problems.push({
      id: 'worktree-path-missing',
      severity: 'warning',
      message:
        "Expected the new worktree's path on stdout: a WorktreeCreate command hook answers with it (its last non-empty line), and this one printed nothing.",
    });
    return { status: 'success', decision: 'none', jsonApplied: false, why: 'it printed no worktree path', problems };
  }
  const problem = worktreePathProblem(path);
  if (problem)
    problems.push({
      id: 'worktree-path-invalid',
      severity: problem.refused ? 'error' : 'warning',
      message: `Invalid worktree path ${JSON.stringify(path.length > 80 ? `${path.slice(0, 77)}...` : path)}: ${problem.why}.`,
    });
  return problem?.refused
    ? { status: 'success', decision: 'block', jsonApplied: false, why: `its path is refused: ${problem.why}`, problems }
    : {
        status: 'success',
        decision: 'none',
        jsonApplied: false,
        why: problem ? `its worktree path is in doubt: ${problem.why}` : `it printed the worktree path ${path}`,
        problems,
      };
}
