import { fileURLToPath } from 'node:url';
import {
  CodeActionKind,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type CodeActionParams,
  type Connection,
  type Diagnostic as LspDiagnosticType,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../diagnostics.js';
import { defaultConfig, type LintConfig } from '../engine/config.js';
import { applySafeFixes } from '../engine/fix.js';
import { lintInputs, type BatchAnalyzer } from '../engine/lint.js';
import type { Rule } from '../engine/rule.js';
import { UNUSED_SUPPRESSION_RULE } from '../engine/suppressions.js';
import { extractHooks } from '../hooks/extract.js';
import { profileFromText } from '../profile/profile.js';
import { LSP_SOURCE, toLspDiagnostic, toLspRange, type LspRange } from '../reporters/lsp.js';
import { toolVersion } from '../version.js';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.validate-agent-hooks`;

export interface LanguageServerOptions {
  /** The rules to run (default: every registered rule). */
  rules?: readonly Rule<unknown>[];
  /** The configuration for a document (e.g. from the configuration file next to it). */
  configFor?: (filePath: string) => Promise<LintConfig> | LintConfig;
  /**
   * Creates the batch analyzers (ShellCheck) for a configuration. They run
   * on open and save, and on change too while a run stays under `slowAnalyzerMs`.
   */
  analyzers?: (config: LintConfig, filePath: string) => BatchAnalyzer[];
  /** Quiet time after a change before linting (default 200 ms). */
  debounceMs?: number;
  /** A lint with analyzers slower than this moves them to on-save for that document (default 250 ms). */
  slowAnalyzerMs?: number;
}

interface DocumentState {
  timer?: NodeJS.Timeout;
  /** Findings of the last published run, in the engine's positions, for code actions. */
  diagnostics: Diagnostic[];
  /** Whether the text had a BOM the engine removed (columns of line 1 shift by one). */
  bom: boolean;
  analyzersOnSaveOnly: boolean;
  openPending?: boolean;
}

/**
 * The language server: the same engine as the CLI, on editor buffers. It
 * lints on open, on change (debounced) and on save, clears findings on
 * close, and offers quick fixes: the findings' own fixes, a suppression
 * comment for the line, and "fix all" for the safe fixes. A document that
 * breaks the engine gets one finding saying so; the server keeps serving.
 */
export function startLanguageServer(connection: Connection, options: LanguageServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  const states = new Map<string, DocumentState>();
  const debounceMs = options.debounceMs ?? 200;
  const slowMs = options.slowAnalyzerMs ?? 250;
  let rulesPromise: Promise<readonly Rule<unknown>[]> | undefined;
  const loadRules = (): Promise<readonly Rule<unknown>[]> =>
    (rulesPromise ??= options.rules ? Promise.resolve(options.rules) : import('../../rules/index.js').then((m) => m.rules));

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
    },
    serverInfo: { name: LSP_SOURCE, version: toolVersion() },
  }));

  const stateOf = (uri: string): DocumentState => {
    let state = states.get(uri);
    if (!state) states.set(uri, (state = { diagnostics: [], bom: false, analyzersOnSaveOnly: false }));
    return state;
  };

  const schedule = (uri: string, delay: number, withAnalyzers: boolean): void => {
    const state = stateOf(uri);
    if (state.timer) clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void validate(uri, withAnalyzers);
    }, delay);
  };

  const validate = async (uri: string, withAnalyzers: boolean): Promise<void> => {
    const document = documents.get(uri);
    if (!document) return;
    const version = document.version;
    const text = document.getText();
    const filePath = uriToPath(uri);
    const state = stateOf(uri);
    let diagnostics: Diagnostic[];
    if (!looksLikeProfile(filePath, text)) {
      diagnostics = [];
    } else {
      try {
        const config = options.configFor ? await options.configFor(filePath) : defaultConfig();
        const analyzers = withAnalyzers && options.analyzers ? options.analyzers(config, filePath) : [];
        const started = performance.now();
        const [result] = await lintInputs([{ filePath, text }], { rules: await loadRules(), config, batchAnalyzers: analyzers });
        if (analyzers.length > 0) state.analyzersOnSaveOnly = performance.now() - started > slowMs;
        diagnostics = result?.diagnostics ?? [];
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
    // A newer edit is on its way; its own run publishes.
    if (documents.get(uri)?.version !== version) return;
    state.diagnostics = diagnostics;
    state.bom = text.charCodeAt(0) === 0xfeff;
    await connection.sendDiagnostics({ uri, version, diagnostics: diagnostics.map((d) => toEditor(d, uri, state.bom)) });
  };

  documents.onDidOpen((event) => {
    stateOf(event.document.uri).openPending = true;
    schedule(event.document.uri, 0, true);
  });
  documents.onDidChangeContent((event) => {
    // TextDocuments fires a change right after each open; the open handler has linted that one.
    const state = stateOf(event.document.uri);
    if (state.openPending) {
      state.openPending = false;
      return;
    }
    schedule(event.document.uri, debounceMs, !state.analyzersOnSaveOnly);
  });
  documents.onDidSave((event) => schedule(event.document.uri, 0, true));
  documents.onDidClose((event) => {
    const state = states.get(event.document.uri);
    if (state?.timer) clearTimeout(state.timer);
    states.delete(event.document.uri);
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  });

  connection.onCodeAction((params) => {
    const document = documents.get(params.textDocument.uri);
    const state = states.get(params.textDocument.uri);
    if (!document || !state) return [];
    return codeActions(params, document, state);
  });

  documents.listen(connection);
  connection.listen();
}

function codeActions(params: CodeActionParams, document: TextDocument, state: DocumentState): CodeAction[] {
  const { uri } = params.textDocument;
  const only = params.context.only;
  const wants = (kind: string): boolean => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
  const actions: CodeAction[] = [];
  const text = document.getText();
  const eol = text.includes('\r\n') ? '\r\n' : '\n';

  if (wants(CodeActionKind.QuickFix)) {
    const requested = params.context.diagnostics.filter((d) => d.source === LSP_SOURCE);
    const matched =
      requested.length > 0
        ? state.diagnostics.filter((d) => requested.some((r) => r.code === d.ruleId && sameRange(r.range, toEditorRange(d, state.bom))))
        : state.diagnostics.filter((d) => intersects(toEditorRange(d, state.bom), params.range));
    const suppressible = suppressibleLines(document, text);
    for (const d of matched) {
      const editorDiagnostic = toEditor(d, uri, state.bom);
      for (const fix of d.fixes ?? []) {
        const edits: LspTextEdit[] = fix.edits.map((e) => ({
          range: toEditorRange(e.range, state.bom),
          newText: e.text.replace(/\r?\n/g, eol),
        }));
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [editorDiagnostic],
          isPreferred: fix.safe,
          edit: { changes: { [uri]: edits } },
        });
      }
      if (d.ruleId !== UNUSED_SUPPRESSION_RULE && d.ruleId !== 'internal-error' && suppressible(d.line)) {
        const lineText = document.getText({ start: { line: d.line - 1, character: 0 }, end: { line: d.line, character: 0 } });
        const indent = /^[ \t]*/.exec(lineText.replace(/^\uFEFF/, ''))![0];
        actions.push({
          title: `Disable ${d.ruleId} for this line`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [editorDiagnostic],
          edit: {
            changes: {
              [uri]: [
                {
                  range: { start: { line: d.line - 1, character: 0 }, end: { line: d.line - 1, character: 0 } },
                  newText: `${indent}# validate-agent-hooks-disable-next-line ${d.ruleId}${eol}`,
                },
              ],
            },
          },
        });
      }
    }
  }

  if (wants(FIX_ALL_KIND) && (only !== undefined || params.context.diagnostics.length > 0)) {
    const body = state.bom ? text.slice(1) : text;
    const { text: fixed, applied } = applySafeFixes(body, state.diagnostics, eol);
    if (applied.length > 0) {
      actions.push({
        title: 'Fix all safe validate-agent-hooks problems',
        kind: FIX_ALL_KIND,
        edit: {
          changes: {
            [uri]: [
              {
                range: { start: { line: 0, character: 0 }, end: document.positionAt(text.length) },
                newText: (state.bom ? '\uFEFF' : '') + fixed,
              },
            ],
          },
        },
      });
    }
  }
  return actions;
}

/**
 * A suppression comment goes on its own line above the finding, inside the
 * frontmatter (the only place directives are read). Not inside a folded or
 * quoted multi-line scalar: the comment would become part of the script.
 */
function suppressibleLines(document: TextDocument, text: string): (line: number) => boolean {
  let profile;
  try {
    profile = profileFromText(uriToPath(document.uri), text);
  } catch {
    return () => false;
  }
  const fm = profile.frontmatter;
  if (!fm) return () => false;
  const first = profile.lines.positionAt(fm.start).line;
  const last = profile.lines.positionAt(fm.end).line;
  let hooks: ReturnType<typeof extractHooks> = [];
  try {
    hooks = extractHooks(profile);
  } catch {
    // Without hooks, only the frontmatter bounds decide.
  }
  return (line) =>
    line >= first && line <= last && !hooks.some((h) => h.style !== 'literal' && h.valueRange.line < line && line <= h.valueRange.endLine);
}

function toEditorRange(range: { line: number; column: number; endLine: number; endColumn: number }, bom: boolean): LspRange {
  const r = toLspRange(range);
  // The engine counts without the BOM; an editor that keeps it counts it on line 1.
  if (bom) {
    if (r.start.line === 0) r.start.character++;
    if (r.end.line === 0) r.end.character++;
  }
  return r;
}

function toEditor(d: Diagnostic, uri: string, bom: boolean): LspDiagnosticType {
  const out = toLspDiagnostic(d, uri);
  out.range = toEditorRange(d, bom);
  return out;
}

function sameRange(a: LspRange, b: LspRange): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

function intersects(a: LspRange, b: LspRange): boolean {
  const before = (p: { line: number; character: number }, q: { line: number; character: number }): boolean =>
    p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

export function uriToPath(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      // fall through
    }
  }
  return decodeURIComponent(uri.replace(/^[a-z][a-z0-9+.-]*:/i, '')) || 'untitled.md';
}

/** Agent profiles live under `.claude/agents/`; elsewhere only Markdown with frontmatter is linted. */
function looksLikeProfile(filePath: string, text: string): boolean {
  return /[\\/]\.claude[\\/]agents[\\/]/.test(filePath) || /^\uFEFF?---[ \t]*\r?\n/.test(text);
}
