/**
 * The library API: the same engine as the CLI, for scripts, bundlers and
 * editor integrations.
 *
 *   import { lintFiles, lintText, formatters } from 'validate-agent-hooks';
 *   const results = await lintFiles(['.claude/agents']);
 *   process.stdout.write(formatters.stylish(results, { cwd: process.cwd(), color: false, verbose: false }));
 */
import { resolve } from 'node:path';
import { rules as builtinRules } from '../rules/index.js';
import { discoverFiles, readAll } from './cli/discover.js';
import { ignored } from './cli/ignore.js';
import { groupByConfig } from './config/group.js';
import { ConfigResolver, type LoadedConfig } from './config/load.js';
import type { LintResult } from './diagnostics.js';
import { defaultConfig, type LintConfig } from './engine/config.js';
import { fixInputs, writeFileAtomic } from './engine/fix.js';
import { lintInputs, type LintInput } from './engine/lint.js';
import type { Rule } from './engine/rule.js';
import { githubReporter } from './reporters/github.js';
import type { ReporterName } from './reporters/index.js';
import { jsonReporter } from './reporters/json.js';
import { lspReporter } from './reporters/lsp.js';
import { sarifReporter } from './reporters/sarif.js';
import { stylishReporter } from './reporters/stylish.js';
import type { Reporter } from './reporters/types.js';
import type { ShellCheckTool } from './shellcheck/index.js';
import { toolVersion } from './version.js';
import { withReferencedScripts } from './runtimes/claude-code/expand.js';

export type { Diagnostic, Fix, LintResult, Position, Range, RelatedInformation, Severity, TextEdit } from './diagnostics.js';
export type { LintConfig, RuleSetting, SeveritySetting } from './engine/config.js';
export type { BatchAnalyzer, LintInput } from './engine/lint.js';
export type { Rule, RuleMeta } from './engine/rule.js';
export type { Reporter, ReporterOptions } from './reporters/types.js';
export type { ReporterName } from './reporters/index.js';
export type { LanguageServerOptions } from './lsp/server.js';
export { defaultConfig };
/**
 * For a short-lived script: call before the first lint to keep V8 on its baseline WASM compiler. The
 * process then exits as soon as its work is done, instead of ~0.8 s later, when V8 has finished
 * optimising the shell grammar in the background (which a long-lived process earns back). It sets a
 * V8 flag for the whole process, so it is not done for you; after the first lint it does nothing.
 */
export { preferFastWasmStart } from './shell/parser.js';
export { REPORTER_NAMES } from './reporters/index.js';

/** Every registered rule. */
export const rules: readonly Rule<unknown>[] = builtinRules;

/** The output formats by name: pure `(results, options) => string` functions. */
export const formatters: Readonly<Record<ReporterName, Reporter>> = {
  stylish: stylishReporter,
  json: jsonReporter,
  lsp: lspReporter,
  sarif: sarifReporter,
  github: githubReporter,
};

export interface LintOptions {
  /** Directory relative paths and globs are taken from (default: `process.cwd()`). */
  cwd?: string;
  /** A configuration file to use instead of looking for `.validate-agent-hooks.{yaml,yml,json}`; `false`: use none. */
  configFile?: string | false;
  /** Settings laid over the configuration found (`rules` merged rule by rule). */
  config?: Partial<LintConfig>;
  /** Run ShellCheck when it is installed (default `true`); or the binary to run. */
  shellcheck?: boolean | { binary: string };
  /** Rules to run instead of the built-in ones. */
  rules?: readonly Rule<unknown>[];
  /** Apply safe fixes in memory: results of changed files carry `output` (see `outputFixes`). */
  fix?: boolean;
}

export interface LintResultWithOutput extends LintResult {
  /** The whole fixed file text (with its BOM, if it had one), when `fix` changed it. */
  output?: string;
}

/** Lints files, directories (their `*.md` and hooks JSON; a project's root as `--all` finds it) and glob patterns, skipping the configuration's ignorePatterns. */
export async function lintFiles(paths: readonly string[], options: LintOptions = {}): Promise<LintResultWithOutput[]> {
  const cwd = options.cwd ?? process.cwd();
  const resolver = configResolver(options, cwd);
  const files = (await discoverFiles(paths, { cwd, all: false })).filter((file) => {
    const patterns = resolver(file).config.ignorePatterns;
    return patterns.length === 0 || !ignored(file, patterns, '/');
  });
  const inputs = await withReferencedScripts(await readAll(files));
  return lintWith(inputs, options, resolver);
}

/** Lints one profile's text; `filePath` names it in results and finds its configuration. */
export async function lintText(text: string, options: LintOptions & { filePath?: string } = {}): Promise<LintResultWithOutput> {
  const cwd = options.cwd ?? process.cwd();
  const filePath = resolve(cwd, options.filePath ?? '<text>.md');
  // Through bytes, so fixes keep the text's BOM and line endings as for a file.
  const [result] = await lintWith([{ filePath, bytes: Buffer.from(text, 'utf8') }], options, configResolver(options, cwd));
  return result!;
}

/** Writes the `output` of fixed results back to their files, atomically. */
export async function outputFixes(results: readonly LintResultWithOutput[]): Promise<void> {
  for (const result of results) {
    if (result.output !== undefined) await writeFileAtomic(result.filePath, Buffer.from(result.output, 'utf8'));
  }
}

export { toolVersion as version };

function configResolver(options: LintOptions, cwd: string): (file: string) => LoadedConfig {
  if (options.configFile === false) {
    const loaded: LoadedConfig = { config: defaultConfig(), sources: [], shellcheckEnabled: true };
    return () => loaded;
  }
  const resolver = new ConfigResolver(
    options.configFile !== undefined ? resolve(cwd, options.configFile) : undefined,
    new Set((options.rules ?? rules).map((rule) => rule.id)),
  );
  return (file) => resolver.forFile(file);
}

async function lintWith(
  inputs: LintInput[],
  options: LintOptions,
  resolver: (file: string) => LoadedConfig,
): Promise<LintResultWithOutput[]> {
  const groups = groupByConfig(inputs, resolver);
  const shellcheck = await findShellCheckFor(options);
  const byPath = new Map<string, LintResultWithOutput>();
  for (const [loaded, group] of groups) {
    const config: LintConfig = { ...loaded.config, ...options.config, rules: { ...loaded.config.rules, ...options.config?.rules } };
    const batchAnalyzers = shellcheck && loaded.shellcheckEnabled ? [shellcheck.analyzer(config)] : [];
    const lint = (batch: LintInput[]): Promise<LintResult[]> =>
      lintInputs(batch, { rules: options.rules ?? builtinRules, config, batchAnalyzers });
    if (options.fix) {
      const outcome = await fixInputs(group, lint);
      for (const result of outcome.results) byPath.set(result.filePath, result);
      for (const fixed of outcome.fixed) {
        byPath.set(fixed.filePath, { ...byPath.get(fixed.filePath)!, output: Buffer.from(fixed.after).toString('utf8') });
      }
    } else {
      for (const result of await lint(group)) byPath.set(result.filePath, result);
    }
  }
  return inputs.map((input) => byPath.get(input.filePath)!);
}

async function findShellCheckFor(options: LintOptions): Promise<ShellCheckTool | undefined> {
  if (options.shellcheck === false) return undefined;
  const { findShellCheck } = await import('./shellcheck/index.js');
  return findShellCheck(typeof options.shellcheck === 'object' ? options.shellcheck.binary : 'shellcheck');
}
