import { own } from '../records.js';
import { relative, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { pushAll } from '../arrays.js';
import { countBySeverity, type LintResult } from '../diagnostics.js';
import { escapeControl } from '../text/control-chars.js';
import { toolVersion } from '../version.js';
import type { ResultCache } from '../cache/index.js';
import { groupByConfig, type LoadedConfig } from '../config/group.js';
import type { ReporterOptions } from '../reporters/types.js';
import type { LintInput } from '../engine/lint.js';
import type { ShellCheckTool } from '../shellcheck/index.js';
import { loadChunkedReporter } from '../reporters/index.js';
import { discoverFiles, readAll, UsageError } from './discover.js';
import { reportFailure } from './failure.js';
import { ignored } from './ignore.js';
import type { CliIO } from '../io.js';
import { type LintFlags, parseLintFlags } from './lint-flags.js';
import { colorFromEnv } from './output-flags.js';

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/**
 * Up to this many files a run is short: V8's tier-up costs more than it saves (see preferFastWasmStart),
 * and the files are read in one go, so ShellCheck runs a process more than there are cores (shortRunLanes).
 */
const FAST_START_MAX_FILES = 200;

/** Files linted together: enough to keep ShellCheck's processes busy, few enough to bound memory. */
const LINT_CHUNK = 500;
const CHUNKS_IN_FLIGHT = 2;

const SUBCOMMANDS: Record<string, () => Promise<(args: string[], io: CliIO) => Promise<number>>> = {
  run: async () => (await import('./run.js')).runCommand,
  simulate: async () => (await import('./simulate.js')).simulateCommand,
  test: async () => (await import('./test.js')).testCommand,
  lsp: async () => (await import('../lsp/command.js')).lspCommand,
  'init-pre-commit': async () => (await import('./init-pre-commit.js')).initPreCommitCommand,
};

export const HELP = `Usage: validate-agent-hooks [options] [file|dir|glob ...]
       validate-agent-hooks run PROFILE --hook NAME [options]   (see: run --help)
       validate-agent-hooks run TARGET --event EVENT [options]  Run Claude Code hooks (see: run --event X --help)
       validate-agent-hooks test CASES.yaml [--format F]         Test Claude Code guards against cases (see: test --help)
       validate-agent-hooks simulate PROFILE --scenario signal|timeout | --swarm SCENARIO.yaml   (see: simulate --help)
       validate-agent-hooks lsp [--stdio]                        Language server for editors
       validate-agent-hooks init-pre-commit [--force]            Install a git pre-commit hook

Lint agent profiles (Markdown with YAML frontmatter) and the bash hook scripts in them, and Claude Code's
hooks (agent and skill frontmatter, .claude/settings*.json, plugin hooks) with the scripts they run.

Files:
  --all                    Lint every hook source under the current directory (or --root): .claude/agents/**/*.md,
                           .claude/settings.json, .claude/settings.local.json, .claude/skills/**/SKILL.md, and a
                           plugin's agents, skills, hooks/hooks.json and .claude-plugin/plugin.json
  --root DIR               Directory --all searches (default: .)
  --stdin                  Lint the profile text on standard input
  --stdin-filename PATH    Path to report (and find configuration from) for --stdin

Output:
  -f, --format NAME        stylish (default), json, lsp, sarif or github
  --quiet                  Report errors only
  --max-warnings N         Exit 1 when there are more than N warnings (-1: no limit)
  --verbose                Print each file's status, info findings and a code frame per finding
  --color / --no-color     Force colour on or off (default: on for a terminal; NO_COLOR and FORCE_COLOR are honoured)

Checks:
  -c, --config PATH        Use this configuration file instead of looking for one
  --no-inline-config       Ignore validate-agent-hooks-disable comments
  --no-shellcheck          Do not run ShellCheck
  --cache                  Reuse findings of unchanged files (keyed on content, configuration, versions)
  --cache-location PATH    Cache file, or a directory (existing, or PATH ending in /) to hold one named
                           .validate-agent-hooks-cache (default: that file in the current directory)
  --ci                     CI mode: no colour, and a missing tool the checks need is an error (exit 2)

Fixes:
  --fix                    Apply the safe fixes and write the files (atomically; BOM and line endings kept)
  --fix-dry-run            Print the fixes as a unified diff on stdout instead; write nothing

  -h, --help               Show this help
  -v, --version            Show the version

Exit codes: 0 no error-severity finding, 1 errors found (or more warnings than --max-warnings),
2 usage error, missing tool under --ci, or internal error.
`;

export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const [first, ...rest] = argv;
    const subcommand = first !== undefined ? own(SUBCOMMANDS, first) : undefined;
    if (subcommand) return await (await subcommand())(rest, io);
    return await lintCommand(argv, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

async function lintCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const flags = parseLintFlags(argv);
  if (flags === 'help') {
    io.stdout(HELP);
    return EXIT_OK;
  }
  if (flags === 'version') {
    io.stdout(`${toolVersion()}\n`);
    return EXIT_OK;
  }

  // Asked now, answered while the files are read (or at once from the probe cache).
  const shellcheckProbe = flags.shellcheck ? probeShellCheck(io) : undefined;
  shellcheckProbe?.catch(() => undefined);
  const { lintInputs } = await import('../engine/lint.js');
  const { rules } = await import('../../rules/index.js');
  const { ConfigResolver, ConfigError } = await import('../config/load.js');
  const resolver = new ConfigResolver(
    flags.config !== undefined ? resolve(io.cwd, flags.config) : undefined,
    new Set(rules.map((rule) => rule.id)),
  );

  let inputs: LintInput[];
  let configs: Map<LoadedConfig, LintInput[]>;
  try {
    if (flags.stdin) {
      const filePath = resolve(io.cwd, flags.stdinFilename ?? '<stdin>.md');
      const read = await io.readStdin();
      // Bytes are checked as a file's are (binary, UTF-8, size); a text (the library's callers, tests) is taken as it is.
      inputs = [typeof read === 'string' ? { filePath, text: read } : { filePath, bytes: read }];
    } else {
      const files = await discoverFiles(flags.files, {
        cwd: io.cwd,
        all: flags.all,
        ...(flags.root !== undefined ? { root: flags.root } : {}),
      });
      const kept = files.filter((file) => !isIgnored(file, resolver.forFile(file).config.ignorePatterns));
      if (flags.verbose) {
        const read = new Set(kept);
        for (const file of files)
          if (!read.has(file)) io.stderr(`skip ${escapeControl(relative(io.cwd, file) || file)} (ignorePatterns)\n`);
      }
      inputs = await readAll(kept);
      // The shell scripts Claude Code hooks run are linted too, once each, with their hooks' contract.
      inputs = await (await import('../runtimes/claude-code/expand.js')).withReferencedScripts(inputs);
    }
    configs = groupByConfig(inputs, (file) => resolver.forFile(file));
    if (inputs.length <= FAST_START_MAX_FILES) (await import('../shell/parser.js')).preferFastWasmStart();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }

  const shellcheck = await shellcheckFor(flags, [...configs.keys()], io, shellcheckProbe);
  if (shellcheck === 'missing-in-ci') return EXIT_USAGE;
  // A short run beside ShellCheck: its processes hold every core, and V8's
  // optimising compiler, competing with them, costs more than it saves.
  if (shellcheck && inputs.length <= FAST_START_MAX_FILES) setFlagsFromString('--no-turbofan');
  // A long run: V8 grows the heap by up to 4x after each full collection, so
  // garbage it has not yet collected doubled the peak RSS of a 10,000-file
  // run from one run to the next. A fixed 1.5x bounds it at the same speed.
  if (inputs.length > FAST_START_MAX_FILES) setFlagsFromString('--heap-growing-percent=50');
  let results: LintResult[] = [];
  const fixer = flags.fix || flags.fixDryRun ? new (await import('../engine/fix.js')).FixSession() : undefined;
  const cacheModule = flags.cache && !flags.stdin ? await import('../cache/index.js') : undefined;
  const cache = cacheModule?.ResultCache.open(cacheModule.cacheFilePath(io.cwd, flags.cacheLocation));
  for (const [loaded, group] of configs) {
    const config = { ...loaded.config, inlineConfig: loaded.config.inlineConfig && flags.inlineConfig };
    const withShellcheck = shellcheck && loaded.shellcheckEnabled ? shellcheck : undefined;
    const batchAnalyzers = withShellcheck ? [withShellcheck.analyzer(config, { shortRun: inputs.length <= FAST_START_MAX_FILES })] : [];
    // The text of each file is kept only for what reads it: code frames, SARIF fingerprints, fixes.
    const keepSource = flags.verbose || fixer !== undefined || flags.format === 'sarif';
    const lint = async (batch: LintInput[]): Promise<LintResult[]> => {
      // In chunks, so a tree of thousands of profiles never holds every parsed
      // document at once; two at a time, so the next chunk is read and its
      // ShellCheck started while the previous one's ShellCheck finishes.
      const out: LintResult[] = [];
      const inFlight: Promise<LintResult[]>[] = [];
      const collect = async (): Promise<void> => {
        const chunk = await inFlight.shift()!;
        out.push(...(keepSource ? chunk : chunk.map(({ source: _source, ...rest }) => rest)));
      };
      for (let start = 0; start < batch.length; start += LINT_CHUNK) {
        if (inFlight.length === CHUNKS_IN_FLIGHT) await collect();
        const slice = batch.slice(start, start + LINT_CHUNK);
        inFlight.push(
          lintInputs(slice, { rules, config, batchAnalyzers }).then((linted) => {
            // Nothing reads a file's bytes after its lint (the cache keys were taken before): let them go.
            if (!keepSource) for (const input of slice) delete input.bytes;
            return linted;
          }),
        );
      }
      while (inFlight.length) await collect();
      return out;
    };
    if (fixer) pushAll(results, await fixer.lint(group, lint));
    else if (cache && cacheModule)
      pushAll(
        results,
        await cachedLint(
          group,
          lint,
          cache,
          cacheModule.cacheSettings({
            toolVersion: toolVersion(),
            config,
            inlineConfig: config.inlineConfig,
            shellcheck: withShellcheck && { version: withShellcheck.version, args: withShellcheck.args },
          }),
        ),
      );
    else pushAll(results, await lint(group));
  }
  const cacheError = cache?.save();
  // Findings are printed and the exit code is as without --cache; the cache is only slower next time.
  if (cache && cacheError)
    io.stderr(
      `validate-agent-hooks: warning: could not write the cache ${cache.location}: ${escapeControl(cacheError.message)}; findings were not cached.\n`,
    );
  // A dry run prints only the diff on stdout (so it can be piped to `git apply`); the exit code is as after the fixes.
  if (fixer) await fixer.finish({ dryRun: flags.fixDryRun, cwd: io.cwd, stdout: io.stdout, log: io.stderr });
  const order = new Map(inputs.map((input, index) => [input.filePath, index]));
  results.sort((a, b) => order.get(a.filePath)! - order.get(b.filePath)!);
  if (!flags.verbose) results = results.map((r) => ({ ...r, diagnostics: r.diagnostics.filter((d) => d.severity !== 'info') }));
  if (flags.quiet) results = results.map((r) => ({ ...r, diagnostics: r.diagnostics.filter((d) => d.severity === 'error') }));

  const color = flags.color ?? (!flags.ci && colorFromEnv(io));
  const reporterOptions: ReporterOptions = { cwd: io.cwd, color, verbose: flags.verbose, rules, toolVersion: toolVersion() };
  if (flags.format === 'sarif' || flags.format === 'github')
    reporterOptions.root = (await import('./repo-root.js')).repositoryRoot(io.cwd, io.env);
  if (color) reporterOptions.painter = await (await import('../reporters/types.js')).chalkPainter();
  if (flags.verbose && flags.format === 'stylish') {
    for (const result of results)
      io.stderr(`${fileStatus(result.diagnostics)} ${escapeControl(relative(io.cwd, result.filePath) || result.filePath)}\n`);
  }
  const report = await loadChunkedReporter(flags.format as Parameters<typeof loadChunkedReporter>[0]);
  // A dry run keeps stdout a patch for `git apply`; the problems the fixes leave go to stderr, in the chosen format.
  const write = flags.fixDryRun ? io.stderr : io.stdout;
  for (const chunk of report(results, reporterOptions)) write(chunk);

  const totals = countBySeverity(results.flatMap((r) => r.diagnostics));
  if (totals.errors > 0) return EXIT_FINDINGS;
  if (flags.maxWarnings !== undefined && flags.maxWarnings >= 0 && totals.warnings > flags.maxWarnings) {
    io.stderr(`validate-agent-hooks: too many warnings (${totals.warnings}; maximum: ${flags.maxWarnings}).\n`);
    return EXIT_FINDINGS;
  }
  return EXIT_OK;
}

/** A file's word in --verbose's list: `fail` for an error, `warn` for a warning, else `ok` (info findings alone fail nothing). */
function fileStatus(diagnostics: readonly { severity: string }[]): string {
  if (diagnostics.some((d) => d.severity === 'error')) return 'fail';
  return diagnostics.some((d) => d.severity === 'warning') ? 'warn' : 'ok  ';
}

/**
 * The ShellCheck analyzer to use, undefined when ShellCheck is off or
 * missing (a one-line notice), or 'missing-in-ci' when --ci needs it.
 */
async function shellcheckFor(
  flags: LintFlags,
  configs: LoadedConfig[],
  io: CliIO,
  probe: ReturnType<typeof probeShellCheck> | undefined,
): Promise<ShellCheckTool | undefined | 'missing-in-ci'> {
  if (!flags.shellcheck || !probe || !configs.some((c) => c.shellcheckEnabled)) return undefined;
  const { SHELLCHECK_INSTALL_HINT } = await import('../shellcheck/index.js');
  const { binary, tool } = await probe;
  if (tool === undefined) {
    if (flags.ci) {
      io.stderr(`validate-agent-hooks: ShellCheck is required under --ci but was not found (${binary}): ${SHELLCHECK_INSTALL_HINT}.\n`);
      return 'missing-in-ci';
    }
    io.stderr(`validate-agent-hooks: ShellCheck not found; its checks are skipped (${SHELLCHECK_INSTALL_HINT}).\n`);
  }
  return tool;
}

function probeShellCheck(io: CliIO): Promise<{ binary: string; tool: ShellCheckTool | undefined }> {
  const binary = io.env.VALIDATE_AGENT_HOOKS_SHELLCHECK || 'shellcheck';
  return import('../shellcheck/index.js').then(async ({ findShellCheckLazily }) => ({ binary, tool: await findShellCheckLazily(binary) }));
}

/** Patterns are absolute (the configuration made them so), hence matched from the file system root. */
function isIgnored(file: string, patterns: readonly string[]): boolean {
  return patterns.length > 0 && ignored(file, patterns, '/');
}

/** Lints only the files whose cached findings are stale, and records the new ones. */
async function cachedLint(
  group: LintInput[],
  lint: (batch: LintInput[]) => Promise<LintResult[]>,
  cache: ResultCache,
  settings: string,
): Promise<LintResult[]> {
  // A script file's findings depend on the hooks that run it (their events' contract) and on what it is read as.
  const keys = group.map((input) =>
    cache.keyFor(
      input.text ?? input.bytes ?? '',
      input.calledBy || input.kind
        ? `${settings}\0${JSON.stringify([input.kind ?? null, input.calledBy ?? null, input.inBackground ?? false, input.callerTools ?? null, input.foreignStdin ?? false])}`
        : settings,
    ),
  );
  const results: (LintResult | undefined)[] = group.map((input, i) => {
    const diagnostics = cache.get(input.filePath, keys[i]!);
    if (!diagnostics) return undefined;
    const text = input.text ?? Buffer.from(input.bytes ?? []).toString('utf8');
    return { filePath: input.filePath, diagnostics, source: text.replace(/^\uFEFF/, '') };
  });
  const staleIndices = group.flatMap((_, i) => (results[i] === undefined ? [i] : []));
  const fresh = staleIndices.length ? await lint(staleIndices.map((i) => group[i]!)) : [];
  fresh.forEach((result, j) => {
    const i = staleIndices[j]!;
    results[i] = result;
    cache.set(result.filePath, keys[i]!, result.diagnostics);
  });
  return results as LintResult[];
}
