import { readFile, readdir, stat } from 'node:fs/promises';
import type { LintInput } from '../engine/lint.js';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * A mistake of the caller (exit 2, no stack trace). Recognised by name, not
 * by class: the bundled lint path and the subcommands loaded from dist/src
 * each have their own copy of this class.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function isUsageError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'UsageError';
}

export const AGENTS_DIR = join('.claude', 'agents');
const GLOB_CHARS = /[*?[\]{}]/;

/**
 * Turns the command line's paths into the list of profiles to lint:
 * files as given, directories searched for `*.md`, glob patterns expanded,
 * and `--all` meaning every `*.md` under `.claude/agents/` of the root.
 */
export async function discoverFiles(patterns: readonly string[], options: { cwd: string; all: boolean; root?: string }): Promise<string[]> {
  const found = new Set<string>();
  if (options.all) {
    const root = resolve(options.cwd, options.root ?? '.');
    const agents = join(root, AGENTS_DIR);
    const info = await stat(agents).catch(() => undefined);
    if (!info?.isDirectory())
      throw new UsageError(`No ${AGENTS_DIR}/ directory under ${root}: nothing to lint with --all (use --root DIR, or name files).`);
    const files = await markdownUnder(agents);
    if (files.length === 0) throw new UsageError(`No *.md profiles under ${agents}.`);
    files.forEach((f) => found.add(f));
  }
  for (const pattern of patterns) {
    if (GLOB_CHARS.test(pattern) && !(await exists(resolve(options.cwd, pattern)))) {
      const { glob } = await import('tinyglobby');
      const matches = await glob(pattern, { cwd: options.cwd, absolute: true, onlyFiles: true, dot: true, followSymbolicLinks: false });
      if (matches.length === 0) throw new UsageError(`No files match the pattern "${pattern}".`);
      matches.sort().forEach((m) => found.add(m));
      continue;
    }
    const path = isAbsolute(pattern) ? pattern : resolve(options.cwd, pattern);
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UsageError(`No such file or directory: ${pattern}`);
    if (info.isDirectory()) {
      const files = await markdownUnder(path);
      if (files.length === 0) throw new UsageError(`No *.md files under the directory ${pattern}.`);
      files.forEach((f) => found.add(f));
    } else {
      found.add(path);
    }
  }
  return [...found];
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

/** Every `*.md` below a directory, in a stable order; symbolic links are not followed (no loops, nothing outside). */
async function markdownUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return (
    entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      // Dirent.parentPath arrived in Node 20.12; the engines field allows 20.0, whose Dirent has only `path`.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- @types/node types it as always present
      .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name))
      .sort()
  );
}

/** Reads files in parallel, a bounded number at a time, each once. */
export async function readAll(files: readonly string[]): Promise<LintInput[]> {
  const out = new Array<LintInput>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      const filePath = files[index]!;
      try {
        out[index] = { filePath, bytes: await readFile(filePath) };
      } catch (error) {
        throw new UsageError(`Cannot read ${filePath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(32, files.length) }, worker));
  return out;
}
