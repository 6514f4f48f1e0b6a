import { availableParallelism } from 'node:os';
import { CodeActionKind, ErrorCodes, ResponseError, TextDocuments, TextDocumentSyncKind, type Connection } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../diagnostics.js';
import { defaultConfig, type LintConfig } from '../engine/config.js';
import { lintInputs, type BatchAnalyzer } from '../engine/lint.js';
import type { Rule } from '../engine/rule.js';
import { LintSession } from '../engine/session.js';
import { UNUSED_SUPPRESSION_RULE } from '../engine/suppressions.js';
import { Limiter } from '../limiter.js';
import { LSP_SOURCE } from '../reporters/lsp.js';
import { toolVersion } from '../version.js';
import { carryDiagnostics, changeBetween, type Change } from './carry.js';
import { codeActions, FIX_ALL_KIND, toEditor, type PublishedFindings } from './code-actions.js';
import { looksLikeProfile, uriToPath } from './documents.js';

export { FIX_ALL_KIND } from './code-actions.js';
export { uriToPath } from './documents.js';

export interface LanguageServerOptions {
  /** The rules to run (default: every registered rule). */
  rules?: readonly Rule<unknown>[];
  /** The configuration for a document (e.g. from the configuration file next to it). */
  configFor?: (filePath: string) => Promise<LintConfig> | LintConfig;
  /**
   * Creates the batch analyzers (ShellCheck) for a configuration. They run on
   * open and save, and in the background once the typing pauses; meanwhile
   * their last findings are kept, moved with the edits.
   */
  analyzers?: (config: LintConfig, filePath: string) => BatchAnalyzer[];
  /** Quiet time after a change before linting (default 200 ms). */
  debounceMs?: number;
  /** Further quiet time after that lint before the analyzers run again (default 400 ms). */
  analyzerPauseMs?: number;
  /** Analyzer runs at once across all documents (default: one per core); the others wait their turn. */
  maxAnalyzerRuns?: number;
}

/** Marks the analyzers' findings; the engine copies diagnostics with spreads, which keep symbol keys. */
const FROM_ANALYZER = Symbol('validate-agent-hooks.fromAnalyzer');

/** The analyzer, its findings marked, run when `slots` has room. */
function tagged(analyzer: BatchAnalyzer, slots: Limiter): BatchAnalyzer {
  return {
    ...analyzer,
    analyze: (hooks, options) =>
      slots.run(async () =>
        (await analyzer.analyze(hooks, options)).map((found) => found.map((d) => Object.assign(d, { [FROM_ANALYZER]: true }))),
      ),
  };
}

/**
 * What a run without the analyzers cannot know: their findings, and whether a
 * suppression suppresses nothing (it may be waiting for a ShellCheck finding).
 */
function analyzerDependent(d: Diagnostic): boolean {
  return (d as { [FROM_ANALYZER]?: boolean })[FROM_ANALYZER] === true || d.ruleId === UNUSED_SUPPRESSION_RULE;
}

interface DocumentState extends PublishedFindings {
  timer?: Pending;
  analyzerTimer?: Pending;
  /** The analyzer-dependent findings of the last run with the analyzers, and the version and text (without BOM) they are about. */
  carried?: { version: number; text: string; diagnostics: Diagnostic[] };
  /** What the editor changed since, in offsets of the text without BOM, each with the version it made. */
  edits: { version: number; change: Change }[];
  openPending?: boolean;
  /** An analyzer run is under way (at most one a document), and whether another was asked for meanwhile. */
  analyzing?: boolean;
  analyzeAgain?: boolean;
  /** The last run's hook trees and script-rule findings, reused for the hooks an edit left alone. */
  session: LintSession;
}

/**
 * The language server: the same engine as the CLI, on editor buffers. It
 * lints on open, on change (debounced) and on save, clears findings on
 * close, and offers quick fixes: the findings' own fixes, a suppression
 * comment for the line, and "fix all" for the safe fixes. A document that
 * breaks the engine gets one finding saying so; the server keeps serving.
 */
export function startLanguageServer(connection: Connection, options: LanguageServerOptions = {}): void {
  const states = new Map<string, DocumentState>();
  // The edits are recorded as the editor sends them, to move carried findings exactly.
  const documents = new TextDocuments({
    create: TextDocument.create,
    update: (document, changes, version) => {
      const state = states.get(document.uri);
      for (const change of changes) {
        const before = document.getText();
        const bom = before.charCodeAt(0) === 0xfeff ? 1 : 0;
        let span: Change | undefined;
        if ('range' in change) {
          // A backwards range is applied forwards (TextDocument.update does so).
          const [from, to] = [document.offsetAt(change.range.start), document.offsetAt(change.range.end)];
          const start = Math.min(from, to);
          span = { start, oldEnd: Math.max(from, to), newEnd: start + change.text.length };
        } else {
          span = changeBetween(before, change.text);
        }
        document = TextDocument.update(document, [change], version);
        if (state && span) {
          const less = (n: number): number => Math.max(0, n - bom);
          state.edits.push({ version, change: { start: less(span.start), oldEnd: less(span.oldEnd), newEnd: less(span.newEnd) } });
        }
      }
      return document;
    },
  });
  const debounceMs = options.debounceMs ?? 200;
  const pauseMs = options.analyzerPauseMs ?? 400;
  // One analyzer run at a time a document is not enough: an editor opening a folder's profiles at once
  // would start a ShellCheck for each of them together.
  const analyzerSlots = new Limiter(Math.max(1, options.maxAnalyzerRuns ?? availableParallelism()));
  let rulesPromise: Promise<readonly Rule<unknown>[]> | undefined;
  const loadRules = (): Promise<readonly Rule<unknown>[]> =>
    (rulesPromise ??= options.rules ? Promise.resolve(options.rules) : import('../../rules/index.js').then((m) => m.rules));

  // Before `initialize` the protocol has a request answered with ServerNotInitialized and a notification dropped.
  let initialized = false;
  connection.onInitialize(() => {
    initialized = true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
      },
      serverInfo: { name: LSP_SOURCE, version: toolVersion() },
    };
  });

  const stateOf = (uri: string): DocumentState => {
    let state = states.get(uri);
    if (!state) states.set(uri, (state = { diagnostics: [], bom: false, edits: [], session: new LintSession() }));
    return state;
  };

  const schedule = (uri: string, delay: number, withAnalyzers: boolean): void => {
    const state = stateOf(uri);
    state.timer?.cancel();
    state.analyzerTimer?.cancel();
    state.analyzerTimer = undefined;
    state.timer = later(() => {
      state.timer = undefined;
      lintInBackground(uri, withAnalyzers);
    }, delay);
  };

  /**
   * One lint of the document. With the analyzers, their findings replace the
   * carried ones. Without them (the quick run after a keystroke) the carried
   * ones are moved onto the current text and published with the fresh rest,
   * and the analyzers are scheduled for when the typing pauses.
   */
  const validate = async (uri: string, withAnalyzers: boolean): Promise<void> => {
    const document = documents.get(uri);
    if (!document) return;
    const version = document.version;
    const text = document.getText();
    const filePath = uriToPath(uri);
    const state = stateOf(uri);
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    let diagnostics: Diagnostic[];
    let deferred = false;
    if (!looksLikeProfile(filePath, text)) {
      diagnostics = [];
      state.edits = [];
      state.session.clear();
    } else {
      try {
        const config = options.configFor ? await options.configFor(filePath) : defaultConfig();
        const available = options.analyzers ? options.analyzers(config, filePath) : [];
        const analyzers = withAnalyzers ? available.map((a) => tagged(a, analyzerSlots)) : [];
        const [result] = await lintInputs([{ filePath, text }], {
          rules: await loadRules(),
          config,
          batchAnalyzers: analyzers,
          session: state.session,
        });
        diagnostics = result?.diagnostics ?? [];
        // Nothing to carry without analyzers: the edit log would only grow.
        if (available.length === 0) state.edits = [];
        if (analyzers.length > 0) {
          state.carried = { version, text: body, diagnostics: diagnostics.filter(analyzerDependent) };
          state.edits = state.edits.filter((e) => e.version > version);
        } else if (available.length > 0) {
          deferred = true;
          const since = state.carried;
          const edits = since ? state.edits.filter((e) => e.version > since.version && e.version <= version) : [];
          const carried = since
            ? carryDiagnostics(
                since.diagnostics,
                since.text,
                body,
                edits.map((e) => e.change),
              )
            : [];
          diagnostics = [...diagnostics.filter((d) => !analyzerDependent(d)), ...carried].sort(
            (a, b) => a.line - b.line || a.column - b.column,
          );
        }
      } catch (error) {
        connection.console.error(
          `validate-agent-hooks: cannot lint ${uri}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        diagnostics = [
          {
            ruleId: 'internal-error',
            severity: 'error',
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 1,
            message: `validate-agent-hooks could not lint this document: ${error instanceof Error ? error.message : String(error)}`,
          },
        ];
      }
    }
    // A newer edit is on its way; its own run publishes (and uses what the analyzers just found, carried).
    // A document closed and opened again is another object, maybe at the same version: this run is not about it.
    const current = (): boolean => documents.get(uri) === document && document.version === version;
    if (!current()) return;
    state.diagnostics = diagnostics;
    state.bom = text.charCodeAt(0) === 0xfeff;
    await connection.sendDiagnostics({ uri, version, diagnostics: diagnostics.map((d) => toEditor(d, uri, state.bom)) });
    if (deferred && current() && !state.timer) requestAnalyzers(uri, state, pauseMs);
  };

  /** Runs the analyzers after `delay`, or once the run under way is done. */
  const requestAnalyzers = (uri: string, state: DocumentState, delay: number): void => {
    if (state.analyzing) {
      state.analyzeAgain = true;
      return;
    }
    state.analyzerTimer?.cancel();
    state.analyzerTimer = later(() => {
      state.analyzerTimer = undefined;
      lintInBackground(uri, true);
    }, delay);
  };

  /**
   * A lint started from a timer: what it throws outside its own guard (a
   * client that sent a document without text) is logged, never left to end
   * the process as an unhandled rejection.
   */
  const lintInBackground = (uri: string, withAnalyzers: boolean): void => {
    // One analyzer run at a time for a document: ShellCheck may take seconds, and a run started at each
    // pause in the typing piled processes up. One asked for meanwhile is a quick run now, the analyzers after.
    const state = states.get(uri);
    const analyze = withAnalyzers && state !== undefined && !state.analyzing;
    if (withAnalyzers && !analyze && state) state.analyzeAgain = true;
    if (analyze) state.analyzing = true;
    validate(uri, analyze)
      .catch((error: unknown) => {
        connection.console.error(
          `validate-agent-hooks: cannot lint ${uri}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      })
      .finally(() => {
        if (!analyze) return;
        state.analyzing = false;
        if (!state.analyzeAgain) return;
        state.analyzeAgain = false;
        // While the typing goes on, the quick run after it asks again.
        if (states.get(uri) === state && !state.timer) requestAnalyzers(uri, state, 0);
      });
  };

  documents.onDidOpen((event) => {
    if (!initialized) return;
    stateOf(event.document.uri).openPending = true;
    schedule(event.document.uri, 0, true);
  });
  documents.onDidChangeContent((event) => {
    if (!initialized) return;
    // TextDocuments fires a change right after each open; the open handler has linted that one.
    const state = stateOf(event.document.uri);
    if (state.openPending) {
      state.openPending = false;
      return;
    }
    schedule(event.document.uri, debounceMs, false);
  });
  documents.onDidSave((event) => {
    if (initialized) schedule(event.document.uri, 0, true);
  });
  documents.onDidClose((event) => {
    const state = states.get(event.document.uri);
    state?.timer?.cancel();
    state?.analyzerTimer?.cancel();
    state?.session.dispose();
    states.delete(event.document.uri);
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  });

  connection.onCodeAction((params) => {
    if (!initialized) throw new ResponseError(ErrorCodes.ServerNotInitialized, 'Expected `initialize` before other requests.');
    // A request without its document (a careless client) has nothing to act on.
    const uri = (params as { textDocument?: { uri?: unknown } } | undefined)?.textDocument?.uri;
    if (typeof uri !== 'string') return [];
    const document = documents.get(uri);
    const state = states.get(uri);
    if (!document || !state) return [];
    return codeActions(params, document, state);
  });

  documents.listen(connection);
  connection.listen();
}

interface Pending {
  cancel(): void;
}

/** Runs `run` after `ms`; with no wait at all, on the next turn of the event loop (a 0 ms timeout waits a whole millisecond). */
function later(run: () => void, ms: number): Pending {
  if (ms > 0) {
    const timeout = setTimeout(run, ms);
    return { cancel: () => clearTimeout(timeout) };
  }
  const immediate = setImmediate(run);
  return { cancel: () => clearImmediate(immediate) };
}
