import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConnection } from 'vscode-languageserver/node';
import {
  CodeActionRequest,
  createProtocolConnection,
  type CodeAction,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
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
 * (where ShellCheck plugs in): analyzers run on open and save, and after a
 * pause in the typing; meanwhile their last findings stay, moved with the
 * edits, with their quick fixes.
 */
async function serve(options: { pauseMs: number; analyzeMs?: number; maxAnalyzerRuns?: number }) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const calls: string[] = [];
  const running = { now: 0, most: 0 };
  const analyzer: BatchAnalyzer = {
    async analyze(hooks) {
      calls.push(hooks.map((h) => h.hook.text.trim()).join('|'));
      running.most = Math.max(running.most, ++running.now);
      if (options.analyzeMs) await new Promise((resolve) => setTimeout(resolve, options.analyzeMs));
      running.now--;
      return hooks.map((h) => {
        // A finding on the script's first word, with a fix that rewrites it.
        const word = /^\S+/.exec(h.hook.text)![0];
        const range = h.map.mapRange({ line: 1, column: 1, endLine: 1, endColumn: 1 + word.length }).range;
        return [
          {
            ruleId: 'fake/analyzer',
            severity: 'warning',
            message: `fake on ${word}`,
            ...range,
            fixes: [{ title: 'Say print', safe: true, edits: [{ range, text: 'print' }] }],
          },
        ];
      });
    },
  };
  startLanguageServer(createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient)), {
    analyzers: () => [analyzer],
    analyzerPauseMs: options.pauseMs,
    debounceMs: 10,
    ...(options.maxAnalyzerRuns ? { maxAnalyzerRuns: options.maxAnalyzerRuns } : {}),
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
  return { calls, running, next, queue, send: client.sendNotification.bind(client), client };
}

const URI = 'file:///w/.claude/agents/a.md';
const text = (script: string, extra = ''): string => `---\nname: a\ndescription: b\n${extra}hooks:\n  pre: |\n    ${script}\n---\n`;
const codes = (p: PublishDiagnosticsParams): string[] => p.diagnostics.map((d) => String(d.code)).sort();
const fake = (p: PublishDiagnosticsParams) => p.diagnostics.find((d) => d.code === 'fake/analyzer');

describe('language server analyzers', () => {
  it('keeps the analyzer findings, moved with the edits, until its next run replaces them', async () => {
    const server = await serve({ pauseMs: 150 });
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('echo one') },
    });
    const opened = await server.next();
    expect(fake(opened)?.range).toEqual({ start: { line: 5, character: 4 }, end: { line: 5, character: 8 } });
    // Two lines inserted above the hook, then the script changed (as an editor sends them: incremental edits).
    await server.send(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [
        { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'model: x\ncolor: red\n' },
        { range: { start: { line: 7, character: 4 }, end: { line: 7, character: 12 } }, text: 'sudo two' },
      ],
    });
    const quick = await server.next();
    expect(quick.version).toBe(2);
    expect(codes(quick)).toEqual(['command-sudo', 'fake/analyzer']);
    // The old finding, two lines down; its text was retyped, so it spans the new text typed over it.
    expect(fake(quick)).toMatchObject({
      message: 'fake on echo',
      range: { start: { line: 7, character: 4 }, end: { line: 7, character: 12 } },
    });
    expect(server.calls).toEqual(['echo one']);
    // After the pause, the analyzer runs on the new text, in the background.
    const fresh = await server.next();
    expect(fresh.version).toBe(2);
    expect(fake(fresh)).toMatchObject({
      message: 'fake on sudo',
      range: { start: { line: 7, character: 4 }, end: { line: 7, character: 8 } },
    });
    expect(server.calls).toEqual(['echo one', 'sudo two']);
    server.client.dispose();
  });

  it('runs the analyzer only once the typing pauses, never dropping it however long it takes', async () => {
    const server = await serve({ pauseMs: 1000, analyzeMs: 300 });
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('echo a') },
    });
    await server.next();
    // Keystrokes closer together than the pause: the quick run publishes each time, the analyzer waits.
    let word = 'echo a';
    for (let version = 2; version <= 8; version++) {
      word += 'b';
      await server.send(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: URI, version },
        contentChanges: [{ text: text(word) }],
      });
      const quick = await server.next();
      expect(quick.version).toBe(version);
      expect(codes(quick)).toContain('fake/analyzer');
    }
    expect(server.calls).toEqual(['echo a']);
    const fresh = await server.next();
    expect(fresh.version).toBe(8);
    expect(fake(fresh)?.message).toBe('fake on echo');
    expect(server.calls).toEqual(['echo a', word]);
    server.client.dispose();
  });

  it("offers the carried findings' quick fixes at their new place meanwhile", async () => {
    const server = await serve({ pauseMs: 60_000 });
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('echo one') },
    });
    await server.next();
    await server.send(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ text: text('echo one', 'model: x\n') }],
    });
    const quick = await server.next();
    const carried = fake(quick)!;
    expect(carried.range.start.line).toBe(6);
    const actions = (await server.client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: URI },
      range: carried.range,
      context: { diagnostics: [carried] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.title === 'Say print');
    expect(fix?.edit?.changes?.[URI]).toEqual([{ range: carried.range, newText: 'print' }]);
    server.client.dispose();
  });

  it('on save the analyzer runs at once', async () => {
    const server = await serve({ pauseMs: 60_000 });
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('echo one') },
    });
    await server.next();
    await server.send(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ text: text('sudo two') }],
    });
    expect(fake(await server.next())?.message).toBe('fake on echo');
    await server.send(DidSaveTextDocumentNotification.type, { textDocument: { uri: URI } });
    const saved = await server.next();
    expect(codes(saved)).toEqual(['command-sudo', 'fake/analyzer']);
    expect(fake(saved)?.message).toBe('fake on sudo');
    expect(server.calls).toEqual(['echo one', 'sudo two']);
    server.client.dispose();
  });

  it('moves the carried findings through an edit whose range ends before it starts', async () => {
    const server = await serve({ pauseMs: 60_000 });
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('echo one') },
    });
    await server.next();
    // The editor applies a backwards range as the same range forwards: here, the two lines `name` and `description` go.
    await server.send(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ range: { start: { line: 3, character: 0 }, end: { line: 1, character: 0 } }, text: '' }],
    });
    const quick = await server.next();
    expect(fake(quick)?.range).toEqual({ start: { line: 3, character: 4 }, end: { line: 3, character: 8 } });
    server.client.dispose();
  });

  it('runs the analyzer once at a time for a document, and last on its last text', async () => {
    const server = await serve({ pauseMs: 10, analyzeMs: 300 });
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('w1 x') },
    });
    // Pauses longer than the debounce and the analyzer pause, shorter than an analyzer run.
    for (let version = 2; version <= 6; version++) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      await server.send(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: URI, version },
        contentChanges: [{ text: text(`w${version} x`) }],
      });
    }
    for (;;) {
      const published = await server.next();
      if (published.version === 6 && fake(published)?.message === 'fake on w6') break;
    }
    expect(server.running.most).toBe(1);
    expect(server.calls.at(-1)).toBe('w6 x');
    server.client.dispose();
  });

  it('runs at most maxAnalyzerRuns analyzers at once across documents opened together, and every one in turn', async () => {
    const server = await serve({ pauseMs: 10, analyzeMs: 100, maxAnalyzerRuns: 2 });
    const uris = Array.from({ length: 6 }, (_, i) => `file:///w/.claude/agents/d${i}.md`);
    for (const [i, uri] of uris.entries())
      await server.send(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'markdown', version: 1, text: text(`doc${i} x`) },
      });
    const done = new Set<string>();
    while (done.size < uris.length) {
      const published = await server.next();
      if (fake(published)) done.add(published.uri);
    }
    expect(server.running.most).toBe(2);
    expect([...server.calls].sort()).toEqual(uris.map((_, i) => `doc${i} x`).sort());
    server.client.dispose();
  });

  it('never publishes a run on a closed document over the document opened again in its place', async () => {
    const server = await serve({ pauseMs: 60_000, analyzeMs: 300 });
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: text('echo one') },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Closed while the analyzer runs, and opened again with the same version and no hooks.
    await server.send(DidCloseTextDocumentNotification.type, { textDocument: { uri: URI } });
    await server.send(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'markdown', version: 1, text: '---\nname: a\ndescription: b\n---\n' },
    });
    // The cleared findings of the close, then the reopened document's.
    expect((await server.next()).diagnostics).toEqual([]);
    expect((await server.next()).diagnostics).toEqual([]);
    // Past the end of the first run: nothing else is published.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.queue).toEqual([]);
    expect(server.calls).toEqual(['echo one']);
    server.client.dispose();
  });
});
