import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CodeAction,
  type Diagnostic,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';

/**
 * The language server end to end: the built bin started as an editor would
 * (`validate-agent-hooks lsp --stdio`), spoken to with the protocol library
 * an independent client uses. Needs `npm run build` first (`npm test` does it).
 */
const BIN = fileURLToPath(new URL('../../bin/validate-agent-hooks', import.meta.url));
const HAS_SHELLCHECK = spawnSync('shellcheck', ['--version']).status === 0;

const URI = 'file:///tmp/lsp-test/.claude/agents/emoji.md';
const TEXT = [
  '---', // 0
  'name: emoji', // 1
  'description: lsp test', // 2
  'hooks:', // 3
  '  on_blocking_start: |', // 4
  '    echo "🎉 go" && rm -rf "$WORKDIR"', // 5
  '    echo $AGENT_ID', // 6
  '  on_signal_recieved: |', // 7
  '    echo signal', // 8
  '---', // 9
  '',
].join('\n');
const RM_LINE = TEXT.split('\n')[5]!;
const RM_RF = { start: RM_LINE.indexOf('rm -rf'), end: RM_LINE.length };

let child: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;
let stderr = '';
const published: PublishDiagnosticsParams[] = [];
const waiters: { match: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];

function nextDiagnostics(uri: string, match: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
  const found = published.find((p) => p.uri === uri && match(p));
  if (found) {
    published.splice(published.indexOf(found), 1);
    return Promise.resolve(found);
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri}; stderr: ${stderr}`)), 10_000);
    waiters.push({
      match: (p) => p.uri === uri && match(p),
      resolve: (p) => {
        clearTimeout(timer);
        resolve(p);
      },
    });
  });
}

function byCode(params: PublishDiagnosticsParams, code: string): Diagnostic[] {
  return params.diagnostics.filter((d) => d.code === code);
}

beforeAll(async () => {
  child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { stdio: 'pipe' });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    const waiter = waiters.find((w) => w.match(params));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(params);
    } else {
      published.push(params);
    }
  });
  connection.listen();
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- InitializeParams still requires rootUri (null: no workspace)
    rootUri: null,
    capabilities: {},
    workspaceFolders: null,
  });
  expect(init.capabilities.codeActionProvider).toBeTruthy();
  expect(init.serverInfo?.name).toBe('validate-agent-hooks');
  await connection.sendNotification(InitializedNotification.type, {});
});

afterAll(() => {
  connection?.dispose();
  if (child && child.exitCode === null) child.kill();
});

describe('language server over stdio', () => {
  it('publishes diagnostics on open with exact 0-based UTF-16 ranges', async () => {
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: TEXT },
    });
    const params = await nextDiagnostics(URI);
    expect(params.version).toBe(1);
    // `rm` starts after 4 spaces, `echo "` (6), the emoji (2 UTF-16 units, 1 code point) and ` go" && ` (8).
    expect(RM_RF).toEqual({ start: 20, end: 37 });
    expect(byCode(params, 'command-rm-rf').map((d) => d.range)).toEqual([
      { start: { line: 5, character: 20 }, end: { line: 5, character: 37 } },
    ]);
    const unknown = byCode(params, 'hook-name-unknown')[0]!;
    expect(unknown.range).toEqual({ start: { line: 7, character: 2 }, end: { line: 7, character: 20 } });
    expect(unknown).toMatchObject({
      severity: 2,
      source: 'validate-agent-hooks',
      codeDescription: { href: expect.stringContaining('hook-name-unknown') },
    });
    // `echo $AGENT_ID`: our injection rule supersedes ShellCheck's SC2086 there (and takes over its quoting fix, below).
    expect(byCode(params, 'injection-unquoted-var').map((d) => d.range)).toEqual([
      { start: { line: 6, character: 9 }, end: { line: 6, character: 18 } },
    ]);
    expect(byCode(params, 'shellcheck/SC2086')).toEqual([]);
  });

  it('offers the did-you-mean rename and a suppression comment as quick fixes', async () => {
    const range = { start: { line: 7, character: 2 }, end: { line: 7, character: 20 } };
    const diagnostic = { range, code: 'hook-name-unknown', source: 'validate-agent-hooks', message: 'x', severity: 2 as const };
    const actions = (await connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: URI },
      range,
      context: { diagnostics: [diagnostic] },
    })) as CodeAction[];
    const rename = actions.find((a) => a.title.startsWith('Rename to'))!;
    expect(rename.kind).toBe('quickfix');
    expect(rename.edit?.changes?.[URI]).toEqual([{ range, newText: 'on_signal_received' }]);
    const disable = actions.find((a) => a.title === 'Disable hook-name-unknown for this line')!;
    expect(disable.edit?.changes?.[URI]).toEqual([
      {
        range: { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } },
        newText: '  # validate-agent-hooks-disable-next-line hook-name-unknown\n',
      },
    ]);
  });

  it.skipIf(!HAS_SHELLCHECK)("offers ShellCheck's own replacement as a quick fix", async () => {
    const range = { start: { line: 6, character: 9 }, end: { line: 6, character: 18 } };
    const actions = (await connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: URI },
      range,
      context: { diagnostics: [] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.title.includes('SC2086'))!;
    expect(fix.isPreferred).toBe(true);
    const edits = fix.edit!.changes![URI]!;
    expect(edits.map((e) => [e.range.start.character, e.newText])).toEqual([
      [9, '"'],
      [18, '"'],
    ]);
  });

  it.skipIf(!HAS_SHELLCHECK)('offers "fix all" of the safe fixes as a source action', async () => {
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = (await connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: URI },
      range,
      context: { diagnostics: [], only: ['source.fixAll'] },
    })) as CodeAction[];
    expect(actions.map((a) => a.kind)).toEqual(['source.fixAll.validate-agent-hooks']);
    const [edit] = actions[0]!.edit!.changes![URI]!;
    expect(edit!.newText).toBe(TEXT.replace('echo $AGENT_ID', 'echo "$AGENT_ID"'));
  });

  it('re-lints on an incremental change (debounced) and on save', async () => {
    // Replace `rm -rf "$WORKDIR"` (line 5, characters 20..37) with `true`.
    await connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ range: { start: { line: 5, character: RM_RF.start }, end: { line: 5, character: RM_RF.end } }, text: 'true' }],
    });
    const params = await nextDiagnostics(URI, (p) => p.version === 2);
    expect(byCode(params, 'command-rm-rf')).toEqual([]);
    expect(byCode(params, 'hook-name-unknown')).toHaveLength(1);
    await connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri: URI } });
    const saved = await nextDiagnostics(URI, (p) => p.version === 2);
    expect(byCode(saved, 'hook-name-unknown')).toHaveLength(1);
  });

  it('keeps serving after a binary-ish document and broken YAML', async () => {
    const binary = 'file:///tmp/lsp-test/.claude/agents/binary.md';
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: binary, languageId: 'markdown', version: 1, text: '\u0000\u0001\uFFFD\u0007PNG\r\n\u001a\n---\n\u0000' },
    });
    await nextDiagnostics(binary);
    const broken = 'file:///tmp/lsp-test/.claude/agents/broken.md';
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: {
        uri: broken,
        languageId: 'markdown',
        version: 1,
        text: '---\nname: [unclosed\nhooks:\n  pre: |\n   rm -rf /\n  : :\n---\n',
      },
    });
    const params = await nextDiagnostics(broken);
    expect(params.diagnostics.length).toBeGreaterThan(0);
    expect(params.diagnostics.every((d) => d.code !== 'internal-error')).toBe(true);
    // Still answering: a change to the first document is linted.
    await connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 3 },
      contentChanges: [{ text: TEXT }],
    });
    const again = await nextDiagnostics(URI, (p) => p.version === 3);
    expect(byCode(again, 'command-rm-rf')).toHaveLength(1);
  });

  it('clears diagnostics on close', async () => {
    await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: URI } });
    const params = await nextDiagnostics(URI, (p) => p.diagnostics.length === 0);
    expect(params.diagnostics).toEqual([]);
  });

  it('shuts down and exits with 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
    expect(await exited).toBe(0);
  });
});
