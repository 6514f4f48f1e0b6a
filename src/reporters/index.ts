import type { ChunkedReporter, Reporter } from './types.js';

export type { ChunkedReporter, Reporter, ReporterOptions } from './types.js';

export const REPORTER_NAMES = ['stylish', 'json', 'lsp', 'sarif', 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

export function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}

/** Loads one reporter: the CLI pays only for the format it prints. */
export async function loadReporter(name: ReporterName): Promise<Reporter> {
  switch (name) {
    case 'stylish':
      return (await import('./stylish.js')).stylishReporter;
    case 'json':
      return (await import('./json.js')).jsonReporter;
    case 'lsp':
      return (await import('./lsp.js')).lspReporter;
    case 'sarif':
      return (await import('./sarif.js')).sarifReporter;
    case 'github':
      return (await import('./github.js')).githubReporter;
  }
}

/** One reporter, in pieces where its format allows (json: a file at a time); the others in one piece. */
export async function loadChunkedReporter(name: ReporterName): Promise<ChunkedReporter> {
  if (name === 'json') {
    const { jsonChunks } = await import('./json.js');
    return (results) => jsonChunks(results);
  }
  const reporter = await loadReporter(name);
  return (results, options) => [reporter(results, options)];
}
