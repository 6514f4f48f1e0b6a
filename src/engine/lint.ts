import { pushAll } from '../arrays.js';
import type { Diagnostic, LintResult, Range } from '../diagnostics.js';
import { compareDiagnostics } from '../diagnostics.js';
import { bodyCodeBlocks } from '../hooks/body-blocks.js';
import { hookEntries, type HookEntry } from '../hooks/extract.js';
import { execFormScript } from '../runtimes/claude-code/exec-script.js';
import { ScriptSourceMap } from '../hooks/source-map.js';
import type { HookScript, RuntimeId } from '../hooks/types.js';
import { documentKind, profileFromBytes, profileFromText, unreadableFile, type DocumentKind, type Profile } from '../profile/profile.js';
import { RUNTIME_IDS } from '../runtimes/index.js';
import { loadShellParser, parseShell } from '../shell/parser.js';
import type { LintConfig } from './config.js';
import { effectiveSeverity, insideText, resolveSeverity, ruleOptions, toDiagnostic, withoutSuperseded } from './findings.js';
import { withFileFixes } from './script-fixes.js';
import { applySuppressions, directiveComments, type DirectiveComments } from './suppressions.js';
import { DOCS_BASE, readsRuntime, type Report, type Rule } from './rule.js';
import type { ProgramLanguage } from '../shell/program-fields.js';
import { configScripts, type CcConfig } from '../runtimes/claude-code/config.js';
import { claudeCodeConfig } from '../runtimes/claude-code/read.js';
import { scriptFileHook } from '../runtimes/claude-code/scripts.js';
import { shellScriptTexts, suppressWordSafeQuoting, wordSafeExpansions, type WordSafeExpansion } from './word-safe-quoting.js';
import { analysedItem, scriptReports, type AnalysedItem, type LintSession } from './session.js';

/** Below this many files a run is not split into slices for the batch analyzers. */
const MIN_FILES_PER_SLICE = 4;

export interface LintInput {
  filePath: string;
  /** Raw bytes from disk; or `text` for editor buffers and stdin. */
  bytes?: Uint8Array;
  text?: string;
  /** The file's size on disk when `bytes` holds only its first bytes (it is over the size limit). */
  size?: number;
  /** What the file is, when its name does not say (a script without `.sh` that hooks run). */
  kind?: DocumentKind;
  /** For a script file that Claude Code hooks run: the events of those hooks (their contract applies to it). */
  calledBy?: string[];
  /** …when every one of those hooks runs it in the background (`async`). */
  inBackground?: boolean;
  /** …the tools those hooks' exact matchers name, when each names tools with a known `tool_input` (else any tool may call it). */
  callerTools?: string[];
  /** …when every one of those hooks gives it something else than its own stdin (a pipe, a redirection). */
  foreignStdin?: boolean;
}

/**
 * A stage that runs across the hooks of many files at once (ShellCheck):
 * it returns, for each hook given, that hook's findings in file positions.
 */
export interface BatchAnalyzer {
  /** `processes` caps how many processes this call spreads its hooks over (default: the analyzer's own choice). */
  analyze(hooks: readonly { hook: HookScript; map: ScriptSourceMap }[], options?: { processes?: number }): Promise<Diagnostic[][]>;
  /** How many processes it runs side by side: the files are read in that many slices, each analysed as soon as it is read. */
  lanes?: number;
}

export interface EngineOptions {
  rules: readonly Rule<unknown>[];
  config: LintConfig;
  batchAnalyzers?: BatchAnalyzer[];
  /** An editor's session for this document: what the last run found on hooks that did not change is reused. */
  session?: LintSession;
}

interface FileState {
  input: LintInput;
  profile?: Profile;
  diagnostics: Diagnostic[];
  hooks: { hook: HookScript; map: ScriptSourceMap }[];
  /** Shell code blocks of the Markdown body that rules read (suppression comments count in them too). */
  bodyBlocks: HookScript[];
  entries: HookEntry[];
  claudeCode?: CcConfig;
  /** Unquoted expansions that cannot split or glob (ShellCheck's quoting findings on them are not reported). */
  wordSafe: WordSafeExpansion[];
  /** For scripts with suppression directives: where those are real comments. */
  directiveComments: Map<HookScript, DirectiveComments>;
}

/**
 * Lints profiles: per file, the reader, the YAML parser, the profile rules
 * and the script rules; then the batch analyzers over every hook of every
 * file at once; then severities from the configuration and suppressions.
 */
export async function lintInputs(inputs: readonly LintInput[], options: EngineOptions): Promise<LintResult[]> {
  const parser = loadShellParser();
  const active = options.rules.filter((rule) => effectiveSeverity(rule, options.config) !== undefined);
  // ShellCheck is the long pole: each slice of the files goes to it as soon
  // as it is read (the first process starts while the rest is still being
  // parsed), and all of it before the rules run, so the two overlap.
  const analyzers = options.batchAnalyzers ?? [];
  // One slice a lane, so every process starts as soon as its slice is read: a slice queued for a
  // lane would start only when the rules, which hold the event loop, are done.
  const slices = slicesBySize(inputs, analyzers.length ? Math.max(1, ...analyzers.map((a) => a.lanes ?? 1)) : 1);
  const processes = slices.length > 1 ? 1 : undefined;
  const states: FileState[] = [];
  const pending: { owned: { state: FileState; hook: FileState['hooks'][number] }[]; found: Promise<Diagnostic[][]> }[] = [];
  for (const slice of slices) {
    const read = slice.map(readProfile);
    pushAll(states, read);
    const owned = read.flatMap((state) => state.hooks.map((hook) => ({ state, hook })));
    for (const analyzer of owned.length ? analyzers : []) {
      const found = analyzer.analyze(
        owned.map((o) => o.hook),
        { processes },
      );
      // Awaited after the rules; a failure meanwhile is not an unhandled rejection.
      found.catch(() => undefined);
      pending.push({ owned, found });
    }
  }
  const loadedParser = await parser;
  const ruleOptionsById = new Map(active.map((rule) => [rule.id, ruleOptions(rule, options.config)]));
  options.session?.begin(options.config);
  const sets = ruleSets(active);
  for (const state of states) {
    try {
      checkProfile(state, sets, ruleOptionsById, loadedParser, analyzers.length > 0, options.session);
    } catch (error) {
      // Nesting past what a recursion of the analysis can hold: this file's report says so, and the run goes on.
      if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) throw error;
      state.diagnostics.push(
        unreadableFile('Unexpected nesting deeper than the analysis can follow (its stack ran out): this file was not checked.'),
      );
    }
  }
  options.session?.end();
  for (const { owned, found } of pending) {
    (await found).forEach((diagnostics, index) => pushAll(owned[index]!.state.diagnostics, diagnostics));
  }
  const byId = new Map(options.rules.map((r) => [r.id, r]));
  return states.map((state) => finish(state, options, byId));
}

/** Consecutive slices of about equal size in bytes; one slice when there are too few files to share out. */
function slicesBySize(inputs: readonly LintInput[], count: number): (readonly LintInput[])[] {
  const parts = Math.min(count, Math.floor(inputs.length / MIN_FILES_PER_SLICE));
  if (parts <= 1) return [inputs];
  const sizeOf = (input: LintInput): number => input.bytes?.length ?? input.text?.length ?? 0;
  // Each slice takes its share of what is left, so one large file does not leave the next slice a sliver.
  let left = inputs.reduce((sum, input) => sum + sizeOf(input), 0);
  const slices: (readonly LintInput[])[] = [];
  let start = 0;
  let seen = 0;
  for (let i = 0; i < inputs.length && slices.length < parts - 1; i++) {
    seen += sizeOf(inputs[i]!);
    if (seen >= left / (parts - slices.length)) {
      slices.push(inputs.slice(start, i + 1));
      start = i + 1;
      left -= seen;
      seen = 0;
    }
  }
  slices.push(inputs.slice(start));
  return slices.filter((slice) => slice.length > 0);
}

/** The profile, its parse problems, and its hook scripts with their source maps. */
function readProfile(input: LintInput): FileState {
  const state: FileState = { input, diagnostics: [], hooks: [], bodyBlocks: [], entries: [], wordSafe: [], directiveComments: new Map() };
  let profile: Profile;
  const kind = input.kind ?? (input.calledBy ? 'script' : documentKind(input.filePath));
  if (input.text !== undefined) {
    profile = profileFromText(input.filePath, input.text, kind);
  } else {
    const loaded = profileFromBytes(input.filePath, input.bytes ?? new Uint8Array(), kind, input.size);
    if (!loaded.ok) {
      state.diagnostics.push(loaded.diagnostic);
      return state;
    }
    profile = loaded.profile;
  }
  state.profile = profile;
  pushAll(state.diagnostics, profile.problems);
  state.entries = hookEntries(profile);
  for (const entry of state.entries) {
    if (entry.script) state.hooks.push({ hook: entry.script, map: new ScriptSourceMap(entry.script, profile.lines) });
  }
  const claudeCode = claudeCodeConfig(profile);
  if (claudeCode) state.claudeCode = claudeCode;
  // Shell-form commands are scripts; exec form (`args`) runs no shell, so its words are not shell code, but the
  // command it runs is read as the single-quoted command line of the same argv (`rm -rf`, `sudo`, `bash -c '…'`).
  for (const hook of configScripts(claudeCode)) {
    const script = hook.claudeCode?.form === 'shell' ? hook : execFormScript(hook);
    if (script) state.hooks.push({ hook: script, map: new ScriptSourceMap(script, profile.lines) });
  }
  if (profile.kind === 'script') {
    const hook = scriptFileHook(profile, input.calledBy ?? [], input);
    state.hooks.push({ hook, map: new ScriptSourceMap(hook, profile.lines) });
  }
  return state;
}

/** Runs the rules over one profile: profile rules, script rules, cross-hook rules, body code blocks. */
function checkProfile(
  state: FileState,
  rules: RuleSets,
  optionsOf: ReadonlyMap<string, unknown>,
  parser: Awaited<ReturnType<typeof loadShellParser>>,
  batchAnalyzed: boolean,
  session?: LintSession,
): void {
  const profile = state.profile;
  if (!profile) return;
  const entries = state.entries;
  const push = (rule: Rule<unknown>, report: Report, range: Range, hook?: string): void => {
    state.diagnostics.push(toDiagnostic(rule, report, range, hook));
  };
  const pushScript = (rule: Rule<unknown>, report: Report, item: { hook: HookScript; map: ScriptSourceMap }): void => {
    push(rule, withFileFixes(report, item.map), item.map.mapRange(report.range).range, item.hook.name);
  };
  for (const rule of rules.profile) {
    rule.checkProfile!({
      profile,
      hooks: entries,
      ...(state.claudeCode ? { claudeCode: state.claudeCode } : {}),
      options: optionsOf.get(rule.id),
      report: (r) => push(rule, r, r.range),
    });
  }
  if (profile.kind === 'python' || profile.kind === 'node') {
    checkProgram(state, profile, profile.kind, rules.program, optionsOf, (rule, report) => push(rule, report, report.range));
    return;
  }
  const analysed: AnalysedItem[] = [];
  try {
    for (const { hook, map } of state.hooks)
      analysed.push(session ? session.analyse(hook, map, parser) : analysedItem(hook, map, parseShell(parser, hook.text)));
    if (batchAnalyzed)
      for (const item of analysed) {
        pushAll(state.wordSafe, wordSafeExpansions(item));
        pushAll(state.wordSafe, shellScriptTexts(item));
      }
    for (const item of analysed) {
      for (const { rule, report } of scriptReports(item, rules.scriptFor(item.hook.runtime), optionsOf, session))
        pushScript(rule, report, item);
    }
    for (const rule of rules.hooks) {
      const own = analysed.filter((item) => readsRuntime(rule, item.hook.runtime));
      if (own.length === 0) continue;
      rule.checkHooks!({
        profile,
        hooks: own,
        options: optionsOf.get(rule.id),
        report: (r) => {
          const item = analysed.find((a) => a.hook === r.hook);
          if (item) pushScript(rule, r, item);
        },
      });
    }
    // Code blocks of the Markdown body: only rules that opt in read them, and
    // they are not hooks (no ShellCheck, no cross-hook checks).
    const bodyRules = rules.body;
    const contains = (text: string): boolean =>
      rules.bodyTriggers.some((words) => words === undefined || words.some((word) => text.includes(word)));
    // A word in a block is in the body too (a block's lines are the body's, less some indentation).
    const searched = bodyRules.length > 0 && !profile.kind && contains(profile.source.text.slice(profile.bodyStart));
    for (const block of searched ? bodyCodeBlocks(profile).filter((b) => contains(b.text)) : []) {
      const item = analysedItem(block, new ScriptSourceMap(block, profile.lines), parseShell(parser, block.text));
      analysed.push(item);
      state.bodyBlocks.push(block);
      for (const rule of bodyRules) {
        rule.checkScript!({ ...item, options: optionsOf.get(rule.id), report: (r) => pushScript(rule, r, item) });
      }
    }
    for (const item of analysed) {
      const comments = directiveComments(item.hook, item.map, () =>
        item.tree.rootNode.descendantsOfType('comment').filter((n) => n !== null),
      );
      if (comments) state.directiveComments.set(item.hook, comments);
    }
  } finally {
    // Trees live in WASM memory; free them as soon as the rules are done.
    for (const item of analysed) if (!session?.owns(item.tree)) item.tree.delete();
  }
}

/** A Python or Node program that hooks run: only the rules that read programs, on its text. */
function checkProgram(
  state: FileState,
  profile: Profile,
  language: ProgramLanguage,
  rules: readonly Rule<unknown>[],
  optionsOf: ReadonlyMap<string, unknown>,
  push: (rule: Rule<unknown>, report: Report) => void,
): void {
  const { calledBy, callerTools, inBackground } = state.input;
  const program = {
    file: profile.path,
    language,
    text: profile.source.text,
    callerEvents: calledBy ?? [],
    ...(callerTools ? { callerTools } : {}),
    ...(inBackground ? { inBackground } : {}),
  };
  for (const rule of rules)
    rule.checkProgram!({
      program,
      options: optionsOf.get(rule.id),
      range: (start, end) => profile.lines.rangeOf(start, end),
      report: (report) => push(rule, report),
    });
}

/** The active rules by what they read, sorted out once a lint rather than once a hook. */
interface RuleSets {
  profile: readonly Rule<unknown>[];
  /** The script rules that read the hooks of a runtime. */
  scriptFor(runtime: RuntimeId): readonly Rule<unknown>[];
  hooks: readonly Rule<unknown>[];
  body: readonly Rule<unknown>[];
  /** The rules that read programs that Claude Code hooks run. */
  program: readonly Rule<unknown>[];
  /** Each body rule's trigger words (undefined: it reads every code block). */
  bodyTriggers: readonly (readonly string[] | undefined)[];
}

function ruleSets(rules: readonly Rule<unknown>[]): RuleSets {
  const script = rules.filter((rule) => rule.checkScript && inScope(rule, 'hooks'));
  const scriptByRuntime = new Map(RUNTIME_IDS.map((runtime) => [runtime, script.filter((rule) => readsRuntime(rule, runtime))]));
  const body = rules.filter((rule) => rule.checkScript && inScope(rule, 'body'));
  return {
    profile: rules.filter((rule) => rule.checkProfile !== undefined),
    scriptFor: (runtime) => scriptByRuntime.get(runtime) ?? [],
    hooks: rules.filter((rule) => rule.checkHooks !== undefined),
    body,
    program: rules.filter((rule) => rule.checkProgram !== undefined && readsRuntime(rule, 'claude-code')),
    bodyTriggers: body.map((rule) => rule.meta.bodyTrigger),
  };
}

function inScope(rule: Rule<unknown>, scope: 'hooks' | 'body'): boolean {
  return (rule.meta.scope ?? ['hooks']).includes(scope);
}

function finish(state: FileState, options: EngineOptions, byId: ReadonlyMap<string, Rule<unknown>>): LintResult {
  const configured: Diagnostic[] = [];
  for (const diagnostic of state.diagnostics) {
    const severity = resolveSeverity(diagnostic, byId.get(diagnostic.ruleId), options.config);
    if (severity === undefined) continue;
    configured.push(suppressWordSafeQuoting(diagnostic, state.wordSafe) ?? { ...diagnostic, severity });
  }
  let kept = withoutSuperseded(configured, byId);
  if (state.profile && options.config.inlineConfig) {
    const suppressed = applySuppressions(
      state.profile,
      kept,
      state.hooks.map((h) => h.hook),
      options.config.reportUnusedDisableDirectives,
      state.bodyBlocks,
      state.directiveComments,
    );
    kept = suppressed.kept;
    for (const unused of suppressed.unused) {
      const severity = resolveSeverity(unused, byId.get(unused.ruleId), options.config);
      if (severity !== undefined) kept.push({ ...unused, severity, docsUrl: `${DOCS_BASE}${unused.ruleId}/README.md` });
    }
  }
  if (state.profile) kept = kept.map((d) => insideText(d, state.profile!.lines));
  kept.sort(compareDiagnostics);
  const result: LintResult = { filePath: state.input.filePath, diagnostics: withoutRepeats(kept) };
  if (state.profile) result.source = state.profile.source.text;
  return result;
}

/**
 * One finding where two hooks run the same text (`post: *h`, an alias of
 * another hook's script): same rule, place and message, sorted next to each other.
 */
function withoutRepeats(sorted: Diagnostic[]): Diagnostic[] {
  const same = (a: Diagnostic, b: Diagnostic): boolean =>
    a.ruleId === b.ruleId &&
    a.line === b.line &&
    a.column === b.column &&
    a.endLine === b.endLine &&
    a.endColumn === b.endColumn &&
    a.message === b.message;
  return sorted.filter((d, i) => i === 0 || !same(sorted[i - 1]!, d));
}
