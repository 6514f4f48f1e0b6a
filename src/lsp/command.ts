import { createConnection, ProposedFeatures, StreamMessageWriter, type Message } from 'vscode-languageserver/node';
import { stringifyJson } from '../text/control-chars.js';
import type { CliIO } from '../io.js';
import type { LintConfig } from '../engine/config.js';
import type { BatchAnalyzer } from '../engine/lint.js';
import { startLanguageServer, type LanguageServerOptions } from './server.js';

export const LSP_HELP = `Usage: validate-agent-hooks lsp [--stdio] [--no-shellcheck] [--debounce-ms N] [--shellcheck-pause-ms N]

Start the language server on standard input and output (the only transport).
Editors start it themselves; see the README for Neovim and VS Code.
Configuration files are found next to each document, as by the CLI (read once).
ShellCheck runs on open and save, and in the background once typing pauses; until it answers,
its last findings stay, moved with the edits, and their quick fixes stay available.
--debounce-ms N sets the quiet time after a change before linting (default 200).
--shellcheck-pause-ms N: the further quiet time before ShellCheck runs again (default 400).
`;

/**
 * `validate-agent-hooks lsp`: serves until the client sends `exit` (or
 * closes the pipe), when vscode-languageserver ends the process.
 */
export async function lspCommand(args: string[], io: CliIO, options: LanguageServerOptions = {}): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(LSP_HELP);
    return 0;
  }
  // Editors add their own flags (`--clientProcessId=N`); only other transports are refused.
  const other = args.find((a) => /^--(node-ipc|socket|pipe)\b/.test(a));
  // Reported here rather than thrown: this module is loaded beside the bundled CLI, whose UsageError is another class.
  if (other) {
    io.stderr(`validate-agent-hooks: lsp: only --stdio is supported, not ${other}\n`);
    return 2;
  }
  // Standard output belongs to the protocol: anything logged goes to standard error.
  console.log = console.info = console.warn = console.debug = console.error;
  const { ConfigResolver } = await import('../config/load.js');
  const resolver = new ConfigResolver(undefined, new Set((await import('../../rules/index.js')).rules.map((rule) => rule.id)));
  const shellcheck = args.includes('--no-shellcheck') ? undefined : await shellcheckFactory(io);
  const debounceValue = millisecondsFlag(args, '--debounce-ms');
  const pauseValue = millisecondsFlag(args, '--shellcheck-pause-ms');
  for (const [flag, value] of [
    ['--debounce-ms', debounceValue],
    ['--shellcheck-pause-ms', pauseValue],
  ] as const) {
    if (value !== undefined && !/^\d+$/.test(value)) {
      io.stderr(`validate-agent-hooks: lsp: ${flag} expects milliseconds, got "${value}"\n`);
      return 2;
    }
  }
  // The writer is ours for its encoder (see escapedJsonEncoder); standard input stays a stream, so the
  // library still ends the process when the client closes the pipe.
  const writer = new StreamMessageWriter(process.stdout, { charset: 'utf-8', contentTypeEncoder: escapedJsonEncoder });
  const connection = createConnection(ProposedFeatures.all, process.stdin, writer as unknown as NodeJS.WritableStream);
  startLanguageServer(connection, {
    configFor: (filePath) => resolver.forFile(filePath).config,
    ...(shellcheck ? { analyzers: (config, filePath) => (resolver.forFile(filePath).shellcheckEnabled ? [shellcheck(config)] : []) } : {}),
    ...(debounceValue !== undefined ? { debounceMs: Number(debounceValue) } : {}),
    ...(pauseValue !== undefined ? { analyzerPauseMs: Number(pauseValue) } : {}),
    ...options,
  });
  return new Promise<number>(() => {
    // Never settles: the connection keeps the process alive and exits it.
  });
}

/** The value of `--flag N` or `--flag=N`, if given. */
function millisecondsFlag(args: readonly string[], flag: string): string | undefined {
  const index = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (index === -1) return undefined;
  const arg = args[index]!;
  return arg.includes('=') ? arg.slice(flag.length + 1) : (args[index + 1] ?? '');
}

/** ShellCheck when it is installed; without it the server still serves everything else. */
async function shellcheckFactory(io: CliIO): Promise<((config: LintConfig) => BatchAnalyzer) | undefined> {
  const { findShellCheck } = await import('../shellcheck/index.js');
  const tool = findShellCheck(io.env.VALIDATE_AGENT_HOOKS_SHELLCHECK || 'shellcheck');
  if (!tool) io.stderr('validate-agent-hooks lsp: ShellCheck not found; its checks are skipped.\n');
  return tool?.analyzer;
}

/**
 * vscode-jsonrpc's JSON encoder, but C1 and bidirectional controls quoted from
 * a document (in a message, a code action's title) are sent as `\uXXXX`
 * escapes, as in the CLI's JSON formats: the client parses the same text.
 */
export const escapedJsonEncoder = {
  name: 'application/json',
  encode: (message: Message): Promise<Uint8Array> => Promise.resolve(Buffer.from(stringifyJson(message), 'utf8')),
};
