import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc, { VerbosityLevel } from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createProtocolConnection,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { buildHostile, corpusFiles, hostileInputArb, runs, SEED, note } from './helpers.js';

/** One spawned language server fed hundreds of hostile documents; afterwards a good one still gets exact diagnostics. */
const BIN = fileURLToPath(new URL('../../bin/validate-agent-hooks', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../dist/src/lsp/command.js', import.meta.url)));
const files = corpusFiles();
let child: ChildProcessWithoutNullStreams | undefined;
let connection: ProtocolConnection | undefined;
let stderr = '';
const waiting = new Map<string, (p: PublishDiagnosticsParams) => void>();

afterAll(() => {
  connection?.dispose();
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

describe.skipIf(!BUILT)(`language server on hostile documents${BUILT ? '' : ' [skipped: run the build first]'}`, () => {
  it(`keeps serving after each of a few hundred bad documents (seed ${SEED + 3})`, async () => {
    child = spawn(process.execPath, [BIN, 'lsp', '--stdio', '--no-shellcheck'], { stdio: 'pipe' });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const conn = (connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin)));
    conn.onNotification(PublishDiagnosticsNotification.type, (params) => {
      if (params.diagnostics.length === 0 && params.version === undefined) return; // the clear on close
      waiting.get(params.uri)?.(params);
    });
    conn.listen();
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- InitializeParams still requires rootUri (null: no workspace)
    await conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
    await conn.sendNotification(InitializedNotification.type, {});
    const lint = (uri: string, text: string): Promise<PublishDiagnosticsParams> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `no diagnostics for ${uri} within 10 s (server alive: ${String(child!.exitCode === null)}); stderr: ${stderr.slice(-2000)}`,
              ),
            ),
          10_000,
        );
        waiting.set(uri, (p) => {
          clearTimeout(timer);
          waiting.delete(uri);
          resolve(p);
        });
        void conn.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId: 'markdown', version: 1, text },
        });
      });
    let n = 0;
    let internalErrors = 0;
    await fc.assert(
      fc.asyncProperty(hostileInputArb(files), async (spec) => {
        const uri = `file:///tmp/vah-lsp-fuzz/.claude/agents/doc-${n++}.md`;
        const params = await lint(uri, buildHostile(files, spec).toString('utf8'));
        internalErrors += params.diagnostics.filter((d) => d.code === 'internal-error').length;
        expect(params.diagnostics.filter((d) => d.code === 'internal-error')).toEqual([]);
        await conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      }),
      { seed: SEED + 3, numRuns: runs(300), verbose: VerbosityLevel.Verbose, endOnFailure: true },
    );
    note(`lsp: ${n} hostile documents, ${internalErrors} internal errors, server alive: ${String(child.exitCode === null)}`);
    expect(child.exitCode).toBeNull();
    const good = [
      '---',
      'name: good',
      'description: after the storm',
      'hooks:',
      '  on_blocking_start: |',
      '    echo "🎉 go" && rm -rf "$WORKDIR"',
      '---',
      '',
    ].join('\n');
    const params = await lint('file:///tmp/vah-lsp-fuzz/.claude/agents/good.md', good);
    expect(params.diagnostics.filter((d) => d.code === 'command-rm-rf').map((d) => d.range)).toEqual([
      { start: { line: 5, character: 20 }, end: { line: 5, character: 37 } },
    ]);
  }, 120_000);
});
