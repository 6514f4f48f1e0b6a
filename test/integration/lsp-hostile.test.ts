import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ErrorCodes,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';

/**
 * The built server (`npm run build` first) fed what a careless or hostile
 * client sends: it answers each with findings or nothing, and keeps serving.
 */
const BIN = fileURLToPath(new URL('../../bin/validate-agent-hooks', import.meta.url));
const PROFILE = '---\nname: a\ndescription: b\nhooks:\n  on_blocking_start: rm -rf /\n---\n';

const servers: { connection: ProtocolConnection; kill: () => void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.connection.dispose();
    server.kill();
  }
});

async function serve(initialize = true) {
  const child = spawn(process.execPath, [BIN, 'lsp', '--stdio', '--no-shellcheck', '--debounce-ms', '10'], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<string>((resolve) => child.once('exit', (code) => resolve(`exited with ${String(code)}: ${stderr}`)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  servers.push({ connection, kill: () => child.kill() });
  const published: PublishDiagnosticsParams[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
  });
  connection.listen();
  const initializeNow = () =>
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- InitializeParams still requires rootUri (null: no workspace)
    connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
  if (initialize) await initializeNow();
  /** The first findings published for `uri`, or why none came: the server exited. */
  const diagnosticsFor = (uri: string): Promise<PublishDiagnosticsParams | string> =>
    Promise.race([
      exited,
      new Promise<PublishDiagnosticsParams>((resolve) => {
        const poll = setInterval(() => {
          const found = published.find((p) => p.uri === uri);
          if (found) {
            clearInterval(poll);
            resolve(found);
          }
        }, 5);
      }),
    ]);
  const open = (uri: string, text: unknown) =>
    connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'markdown', version: 1, text: text as string },
    });
  return { connection, open, diagnosticsFor, initializeNow, published };
}

const codes = (p: PublishDiagnosticsParams | string) => (typeof p === 'string' ? p : p.diagnostics.map((d) => d.code));

describe('language server: hostile input', () => {
  it('lints a document whose URI has a malformed percent escape', async () => {
    const server = await serve();
    for (const uri of ['file:///w%E0%A4%A/.claude/agents/a.md', 'untitled:/.claude/agents/%ZZ.md']) {
      await server.open(uri, PROFILE);
      expect(codes(await server.diagnosticsFor(uri))).toContain('command-rm-rf');
    }
  });

  it('keeps serving after a didOpen without text', async () => {
    const server = await serve();
    for (const [n, text] of [null, undefined, 42, { a: 1 }].entries()) await server.open(`file:///w/.claude/agents/${n}.md`, text);
    const uri = 'file:///w/.claude/agents/after.md';
    await server.open(uri, PROFILE);
    expect(codes(await server.diagnosticsFor(uri))).toContain('command-rm-rf');
  });

  it('before initialize, answers a request with ServerNotInitialized and drops a notification; after it, serves', async () => {
    const server = await serve(false);
    const early = 'file:///w/.claude/agents/early.md';
    const action = {
      textDocument: { uri: early },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [] },
    };
    await expect(server.connection.sendRequest(CodeActionRequest.type, action)).rejects.toMatchObject({
      code: ErrorCodes.ServerNotInitialized,
    });
    await server.open(early, PROFILE);
    await server.initializeNow();
    const later = 'file:///w/.claude/agents/later.md';
    await server.open(later, PROFILE);
    expect(codes(await server.diagnosticsFor(later))).toContain('command-rm-rf');
    // The document opened before initialize was never linted (its lint would have been published first).
    expect(server.published.map((p) => p.uri)).not.toContain(early);
    // A code action request without its document is answered, not failed.
    expect(
      await server.connection.sendRequest(CodeActionRequest.type, { ...action, textDocument: undefined } as unknown as typeof action),
    ).toEqual([]);
  });
});
