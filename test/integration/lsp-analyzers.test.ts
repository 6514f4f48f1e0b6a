import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConnection } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import type { BatchAnalyzer } from '../../src/engine/lint.js';
import { startLanguageServer } from '../../src/lsp/server.js';

/**
 * The server in-process over in-memory streams, with a fake batch analyzer
 * (where ShellCheck plugs in): analyzers run on open and save, and on change
 * only while they are fast.
 */
async function serve(slowAnalyzerMs: number) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const calls: string[] = [];
  const analyzer: BatchAnalyzer = {
    analyze(hooks) {
      calls.push(hooks.map((h) => h.hook.text.trim()).join('|'));
      return Promise.resolve(hooks.map((h) => [{ ruleId: 'fake/analyzer', severity: 'warning', message: 'fake', ...h.hook.valueRange }]));
    },
  };
  startLanguageServer(createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient)), {
    analyzers: () => [analyzer],
    slowAnalyzerMs,
    debounceMs: 10,
  });
  const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const queue: PublishDiagnosticsParams[] = [];
  let wake: (() => void) | undefined;
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    queue.push(p);
    wake?.();
  });
  client.listen();
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- InitializeParams still requires rootUri (null: no workspace)
  await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
  await client.sendNotification(InitializedNotification.type, {});
  const next = async (): Promise<PublishDiagnosticsParams> => {
    while (queue.length === 0)
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    return queue.shift()!;
  };
  return { calls, next, send: client.sendNotification.bind(client), client };
}

const URI = 'file:///w/.claude/agents/a.md';
const text = (script: string): string => `---\nname: a\ndescription: b\nhooks:\n  pre: |\n    ${script}\n---\n`;

describe('language server analyzers', () => {
  it('fast analyzers run on every change', async () => {
    const server = await serve(10_000);
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('echo one') },
    });
    expect((await server.next()).diagnostics.map((d) => d.code)).toContain('fake/analyzer');
    await server.send(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ text: text('echo two') }],
    });
    expect((await server.next()).diagnostics.map((d) => d.code)).toContain('fake/analyzer');
    expect(server.calls).toEqual(['echo one', 'echo two']);
    server.client.dispose();
  });

  it('slow analyzers move to on-save; the other rules still run on change', async () => {
    const server = await serve(-1); // every run counts as slow
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('echo one') },
    });
    await server.next();
    await server.send(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ text: text('sudo two') }],
    });
    const changed = await server.next();
    expect(changed.diagnostics.map((d) => d.code)).toEqual(['command-sudo']);
    await server.send(DidSaveTextDocumentNotification.type, { textDocument: { uri: URI } });
    const saved = await server.next();
    expect(saved.diagnostics.map((d) => d.code).sort()).toEqual(['command-sudo', 'fake/analyzer']);
    expect(server.calls).toEqual(['echo one', 'sudo two']);
    server.client.dispose();
  });
});
