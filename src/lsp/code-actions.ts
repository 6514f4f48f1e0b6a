import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic as LspDiagnosticType,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../diagnostics.js';
import { applySafeFixes } from '../engine/fix.js';
import { UNUSED_SUPPRESSION_RULE } from '../engine/suppressions.js';
import { extractHooks } from '../hooks/extract.js';
import { profileFromText } from '../profile/profile.js';
import { LSP_SOURCE, toLspDiagnostic, toLspRange, type LspRange } from '../reporters/lsp.js';
import { configScripts } from '../runtimes/claude-code/config.js';
import { claudeCodeConfig } from '../runtimes/claude-code/read.js';
import { uriToPath } from './documents.js';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.validate-agent-hooks`;

/** What the last publish of a document said, in the engine's positions. */
export interface PublishedFindings {
  diagnostics: Diagnostic[];
  /** Whether the text had a BOM the engine removed (columns of line 1 shift by one). */
  bom: boolean;
}

/**
 * The quick fixes for a request: the findings' own fixes, a suppression
 * comment for the line, and "fix all" for the safe fixes.
 */
export function codeActions(params: CodeActionParams, document: TextDocument, state: PublishedFindings): CodeAction[] {
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
    hooks = [...extractHooks(profile), ...configScripts(claudeCodeConfig(profile))];
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

export function toEditor(d: Diagnostic, uri: string, bom: boolean): LspDiagnosticType {
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
