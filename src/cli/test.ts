import { boundedTest, REGEX_DEADLINE_MS } from '../bounded-regex.js';
import { existsSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Diagnostic, LintResult, Range } from '../diagnostics.js';
import { type ClaudeCodeEventReport, OUTPUT_BUDGET_BYTES } from '../executor/claude-code.js';
import { CLAUDE_CODE_RUN_DOCS, claudeCodeRunToJson, displayPath, type ClaudeCodeRunJson } from '../executor/claude-code-report.js';
import type { ExecutorSession, ExecutorSessionOptions } from '../executor/session.js';
import { loadTestTable, TEST_TABLE_RULE, type TestCase } from '../runtimes/claude-code/test-table.js';
import { toolVersion } from '../version.js';
import type { CliIO } from '../io.js';
import { colorFor, OUTPUT_FLAGS_HELP, parseCommandArgs } from './output-flags.js';
import { eventRunOptions, openSession, openTarget, runEventRequest } from './run-claude-code.js';
import { escapeControl, stringifyJson } from '../text/control-chars.js';

export const TEST_HELP = `Usage: validate-agent-hooks test CASES.yaml [options]

Run a table of cases against the Claude Code hooks of a target, each as
\`run --event\` runs it (the bubblewrap sandbox, the handlers in parallel, the
event JSON on stdin), and check the verdict each case expects:

  target: .claude/settings.json        # relative to this file
  cases:
    - name: blocks recursive deletion
      event: PreToolUse
      tool: Bash
      toolInput: { command: "rm -rf /" }
      blocked: true                     # required: the verdict expected
      decision: deny                    # optional: the exact decision
      reasonMatches: "rm -rf"           # optional: a regex on the reason

What the table names (target, project) must lie in its own tree: the git repository
holding it, else its directory (--target and --project may point anywhere).
The table's schema is schemas/claude-code-test.schema.json; a starter table of
attacks a Bash guard should refuse is fixtures/claude-code/bash-guard-attacks.yaml.

Options:
  --format NAME            human (default), json, github or sarif
  --target FILE            Run the cases against FILE instead of the table's target (relative to the
                           current directory): one attack table for several guards
  --project DIR            The project copied into the sandbox (overrides the table's project; default:
                           the directory holding .claude/, or the plugin's root)
  --timeout-cap SECONDS    Stop any handler after this many seconds (overrides the table's timeoutCap)
${OUTPUT_FLAGS_HELP.trimEnd()}
  --no-sandbox             Run the handlers unconfined on this machine (prints a warning; not recommended)
  -h, --help               Show this help

Exit codes: 0 every case passed, 1 a case failed, 2 the table is invalid,
usage error, or the sandbox is unavailable.
`;

export const CASE_FAILED_RULE = 'claude-code-test-failed';

/**
 * A test table travels with the hooks it tests, maybe in a pull request, and the
 * project it names is copied into the sandbox and handed to the sandbox's user:
 * what the table names (its target, the project that target or the table makes)
 * must lie in the table's own tree, the checkout holding it (else its
 * directory), symlinks resolved. `--target` and `--project`, given by whoever
 * runs the command, may point anywhere. The checkout is the nearest directory
 * with a `.git` entry, found on the file system: git is not asked, since a `.git`
 * that comes with the table (an unpacked archive) would have it answer from its
 * own configuration (`core.worktree = /`, a `gitdir:` elsewhere).
 */
function tableTree(tableFile: string): string {
  const start = realpathSync(dirname(tableFile));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

function outsideTableTree(tree: string, named: readonly { what: string; path: string; range: Range }[]): Diagnostic | undefined {
  for (const { what, path, range } of named) {
    const real = realpathOr(path);
    if (real === tree || real.startsWith(tree.endsWith(sep) ? tree : `${tree}${sep}`)) continue;
    return {
      ruleId: TEST_TABLE_RULE,
      severity: 'error',
      ...range,
      message: `Disallowed ${what} ${escapeControl(path)}: it lies outside ${escapeControl(tree)}, the tree that holds this table, and a table may name files of its own tree only (the project is copied into the sandbox). Use --${what} to choose it.`,
    };
  }
  return undefined;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export interface CaseResult {
  name: string;
  line: number;
  column: number;
  passed: boolean;
  /** What was expected, and one clause saying what happened and why. */
  expected: { blocked: boolean; decision?: string; reasonMatches?: string };
  actual: { blocked: boolean; decision: string; reason?: string };
  message: string;
  report: ClaudeCodeRunJson;
}

export interface TestJson {
  file: string;
  target: string;
  passed: number;
  failed: number;
  cases: CaseResult[];
}

const FORMATS = ['human', 'json', 'github', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

export async function testCommand(
  args: string[],
  io: CliIO,
  dependencies: { createSession?: (options: ExecutorSessionOptions) => Promise<ExecutorSession> } = {},
): Promise<number> {
  const parsed = parseCommandArgs(args, {
    format: { type: 'string', short: 'f' },
    'timeout-cap': { type: 'string' },
    target: { type: 'string' },
    project: { type: 'string' },
    'no-sandbox': { type: 'boolean' },
  });
  if ('error' in parsed) return usage(io, parsed.error);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(TEST_HELP);
    return 0;
  }
  const format = (values.format ?? 'human') as Format;
  if (!FORMATS.includes(format)) return usage(io, `unknown --format '${values.format ?? ''}' (expected ${FORMATS.join(', ')})`);
  if (positionals.length !== 1)
    return usage(io, positionals.length === 0 ? 'missing CASES.yaml' : `expected one CASES.yaml, got ${positionals.length}`);
  let cap: number | undefined;
  if (values['timeout-cap'] !== undefined) {
    cap = Number(values['timeout-cap']);
    if (!(cap > 0)) return usage(io, `invalid --timeout-cap '${values['timeout-cap']}' (expected a positive number of seconds)`);
  }

  const shown = positionals[0]!;
  const file = resolve(io.cwd, shown);
  const isFile = await stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) return usage(io, `${escapeControl(shown)}: no such file`);
  // A table that cannot be run: its problems, in the chosen format, and exit 2.
  const refuse = async (diagnostics: Diagnostic[]): Promise<number> => {
    await report(io, format, [{ filePath: file, diagnostics }], undefined);
    return 2;
  };
  const loaded = await loadTestTable(file);
  if (!loaded.ok) return refuse(loaded.diagnostics);
  const table = loaded.table;
  // One table for several guards: the same attacks against another target.
  if (values.target !== undefined) {
    table.target = resolve(io.cwd, values.target);
    table.targetAsWritten = values.target;
  }
  const targetShown = displayPath(table.target, io.cwd);
  const targetExists = await stat(table.target).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!targetExists) {
    const diagnostic: Diagnostic = {
      ruleId: TEST_TABLE_RULE,
      severity: 'error',
      ...table.targetRange,
      message:
        values.target !== undefined
          ? `Invalid --target ${escapeControl(values.target)}: no such file.`
          : `Invalid \`target\` ${escapeControl(table.targetAsWritten)}: no such file (paths are relative to the test table).`,
    };
    return refuse([diagnostic]);
  }
  // What the table names is checked before the host reads it; the project its target makes, once it is known.
  const tree = tableTree(file);
  const projectRange = table.projectRange ?? table.targetRange;
  const named = outsideTableTree(tree, [
    ...(values.target === undefined ? [{ what: 'target', path: table.target, range: table.targetRange }] : []),
    ...(values.project === undefined && table.project !== undefined ? [{ what: 'project', path: table.project, range: projectRange }] : []),
  ]);
  if (named) return refuse([named]);
  const project = values.project !== undefined ? resolve(io.cwd, values.project) : table.project;
  const target = await openTarget(table.target, targetShown, project, io, 'test');
  if (typeof target === 'number') return target;
  const made =
    values.project === undefined
      ? outsideTableTree(
          tree,
          [target.projectRoot, target.pluginRoot].flatMap((path) =>
            path === undefined ? [] : [{ what: 'project', path, range: projectRange }],
          ),
        )
      : undefined;
  if (made) return refuse([made]);
  const session = await openSession(io, target, values['no-sandbox'] ?? false, dependencies.createSession, 'test');
  if (typeof session === 'number') return session;

  const timeoutCapSeconds = cap ?? table.timeoutCap;
  const results: CaseResult[] = [];
  try {
    for (const testCase of table.cases) {
      const eventReport = await runEventRequest(
        session,
        target,
        {
          event: testCase.event,
          ...(testCase.tool !== undefined ? { tool: testCase.tool } : {}),
          ...(testCase.toolInput !== undefined ? { toolInput: testCase.toolInput } : {}),
          ...(testCase.input !== undefined ? { input: testCase.input } : {}),
          ...(testCase.matcherValue !== undefined ? { matcherValue: testCase.matcherValue } : {}),
        },
        // One copy of the project for the whole table, as one session has one project: copying a
        // real repository (node_modules and all) per case would cost more than the cases.
        // The output a table's cases keep shares one budget: a table of many cases keeps less of each.
        { ...eventRunOptions(io, timeoutCapSeconds), outputBudgetBytes: Math.floor(OUTPUT_BUDGET_BYTES / Math.max(1, table.cases.length)) },
      );
      results.push(judgeCase(testCase, eventReport, claudeCodeRunToJson(eventReport, targetShown, io.cwd)));
    }
  } finally {
    await session.close();
  }

  const json: TestJson = {
    file: displayPath(file, io.cwd),
    target: targetShown,
    passed: results.filter((r) => r.passed).length,
    failed: results.filter((r) => !r.passed).length,
    cases: results,
  };
  await report(io, format, toLintResults(file, table.target, results), json, colorFor(values, io));
  return json.failed === 0 ? 0 : 1;
}

/** Compares a case's expectations with what the handlers decided, and says why in one clause. */
export function judgeCase(testCase: TestCase, report: ClaudeCodeEventReport, json: ClaudeCodeRunJson): CaseResult {
  const actual = { blocked: report.blocked, decision: report.decision, ...(report.reason !== undefined ? { reason: report.reason } : {}) };
  const expected = {
    blocked: testCase.blocked,
    ...(testCase.decision !== undefined ? { decision: testCase.decision } : {}),
    ...(testCase.reasonMatches ? { reasonMatches: testCase.reasonMatches.source } : {}),
  };
  const verdict = `${report.blocked ? 'blocked' : 'not blocked'} (${report.decision})`;
  let failure: string | undefined;
  if (report.blocked !== testCase.blocked)
    failure = `${verdict}, expected ${testCase.blocked ? 'blocked' : 'not blocked'}: ${explain(report)}`;
  else if (testCase.decision !== undefined && report.decision !== testCase.decision)
    failure = `decision ${report.decision}, expected ${testCase.decision}: ${explain(report)}`;
  else if (testCase.reasonMatches) {
    const matched = boundedTest(testCase.reasonMatches, report.reason ?? '');
    if (matched === undefined)
      failure = `reasonMatches /${testCase.reasonMatches.source}/ took over ${REGEX_DEADLINE_MS / 1000} s on the reason (a pattern that backtracks exponentially on it) and was stopped: not decided`;
    else if (!matched) failure = `reason ${JSON.stringify(oneLine(report.reason ?? ''))} does not match /${testCase.reasonMatches.source}/`;
  }
  const base = { name: testCase.name, line: testCase.range.line, column: testCase.range.column, expected, actual, report: json };
  if (failure) return { ...base, passed: false, message: failure };
  const reason = report.reason !== undefined ? `: ${JSON.stringify(oneLine(report.reason))}` : '';
  return { ...base, passed: true, message: `${verdict}${reason}` };
}

/** Why the handlers came to their verdict: each one's clause, or why none ran. */
function explain(report: ClaudeCodeEventReport): string {
  const ran = report.handlers.flatMap((h) => (h.ran ? [h] : []));
  const notRun = report.handlers.flatMap((h) => (h.ran ? [] : [h]));
  if (ran.length === 0) {
    if (notRun.length) return `no handler ran (${notRun.map((h) => h.why).join('; ')})`;
    if (report.unmatched.length) return `no handler matched (${report.unmatched.map((u) => u.why).join('; ')})`;
    return `no handler for ${report.event}`;
  }
  if (ran.length === 1) return ran[0]!.verdict.why;
  return ran.map((h) => `${h.handler.event}[${h.handler.groupIndex}].hooks[${h.handler.handlerIndex}]: ${h.verdict.why}`).join('; ');
}

function oneLine(text: string): string {
  const flat = escapeControl(text.trim().replace(/\n/g, ' ⏎ '));
  return flat.length > 100 ? `${flat.slice(0, 100)}…` : flat;
}

/**
 * Failed cases as findings at the case in the table, and the handlers'
 * output problems at the handlers (once each), for the CI formats.
 */
function toLintResults(tableFile: string, targetFile: string, results: readonly CaseResult[]): LintResult[] {
  const failures: Diagnostic[] = results
    .filter((r) => !r.passed)
    .map((r) => ({
      ruleId: CASE_FAILED_RULE,
      severity: 'error',
      line: r.line,
      column: r.column,
      endLine: r.line,
      endColumn: r.column + r.name.length,
      message: `${r.name}: ${r.message}`,
      docsUrl: CLAUDE_CODE_RUN_DOCS,
    }));
  const seen = new Set<string>();
  const problems: Diagnostic[] = [];
  for (const result of results)
    for (const problem of result.report.problems) {
      const { file: _file, ...diagnostic } = problem;
      const key = `${diagnostic.ruleId}:${diagnostic.line}:${diagnostic.column}:${diagnostic.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(diagnostic);
    }
  return [{ filePath: tableFile, diagnostics: failures }, ...(problems.length ? [{ filePath: targetFile, diagnostics: problems }] : [])];
}

async function report(io: CliIO, format: Format, results: LintResult[], json: TestJson | undefined, color = false): Promise<void> {
  if (format === 'github' || format === 'sarif') {
    const { loadReporter } = await import('../reporters/index.js');
    const reporter = await loadReporter(format);
    // Paths relative to the repository's root, as code scanning and annotations expect (as the linter's).
    const root = (await import('./repo-root.js')).repositoryRoot(io.cwd, io.env);
    io.stdout(reporter(results, { cwd: io.cwd, root, color: false, verbose: false, toolVersion: toolVersion() }));
    if (json && format === 'github') io.stderr(`${json.passed} passed, ${json.failed} failed\n`);
    return;
  }
  if (!json) {
    // The table itself is invalid: positioned errors.
    if (format === 'json')
      io.stdout(
        `${stringifyJson({ errors: results.flatMap((r) => r.diagnostics.map((d) => ({ file: displayPath(r.filePath, io.cwd), ...d }))) }, 2)}\n`,
      );
    else
      for (const result of results)
        for (const d of result.diagnostics)
          io.stderr(`${escapeControl(displayPath(result.filePath, io.cwd))}:${d.line}:${d.column}: error: ${escapeControl(d.message)}\n`);
    return;
  }
  if (format === 'json') {
    io.stdout(`${stringifyJson(json, 2)}\n`);
    return;
  }
  const paint = color ? await (await import('../reporters/types.js')).chalkPainter() : undefined;
  const verdict = (passed: boolean): string => (passed ? 'PASS' : (paint?.redBold('FAIL') ?? 'FAIL'));
  const lines = json.cases.map(
    (r) => `${verdict(r.passed)}  ${escapeControl(r.name)}  ${r.passed ? '' : `${json.file}:${r.line}  `}${escapeControl(r.message)}`,
  );
  const problems = results[1]?.diagnostics ?? [];
  if (problems.length) {
    lines.push('', `Output problems in ${json.target}:`);
    for (const d of problems)
      lines.push(`  ${json.target}:${d.line}:${d.column}  ${d.severity}  ${escapeControl(d.message)}  (${d.ruleId})`);
  }
  lines.push('', `${json.passed} passed, ${json.failed} failed  (${json.file} → ${json.target})`);
  io.stdout(`${lines.join('\n')}\n`);
}

function usage(io: CliIO, message: string): number {
  io.stderr(`validate-agent-hooks test: ${message}\nTry 'validate-agent-hooks test --help'.\n`);
  return 2;
}
