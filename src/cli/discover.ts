import { readdirSync, statSync, type Dirent } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pushAll } from '../arrays.js';
import type { LintInput } from '../engine/lint.js';
import { readBounded } from '../fs-read.js';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';

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
  // Plugins a marketplace names (`plugins[].source`), which may have no manifest of their own.
  const pluginRoots = new Set<string>();
  if (options.all) {
    const root = resolve(options.cwd, options.root ?? '.');
    const info = statOrUndefined(root);
    if (!info) throw new UsageError(`No such directory: ${options.root ?? root} (--root)`);
    if (!info.isDirectory()) throw new UsageError(`Not a directory: ${options.root ?? root} (--root names the project's root)`);
    // The root, and the projects and plugins below it (a monorepo's packages, a marketplace's plugins).
    const roots = projectRootsUnder(root);
    if (!roots.includes(root)) roots.unshift(root);
    const files: string[] = isClaudeDirectory(root) ? claudeDirectoryFiles(root) : [];
    for (const at of roots) pushAll(files, await projectHookFiles(at, pluginRoots));
    if (files.length === 0)
      throw new UsageError(
        `No agent profiles or hook configurations under ${root} (${AGENTS_DIR}/**/*.md, .claude/settings.json, .claude/skills/**/SKILL.md, or a plugin's files): nothing to lint with --all (use --root DIR, or name files).`,
      );
    files.forEach((f) => found.add(f));
  }
  for (const pattern of patterns) {
    if (GLOB_CHARS.test(pattern) && statOrUndefined(resolve(options.cwd, pattern)) === undefined) {
      const { glob } = await import('tinyglobby');
      const matches = await glob(pattern, { cwd: options.cwd, absolute: true, onlyFiles: true, dot: true, followSymbolicLinks: false });
      if (matches.length === 0) throw new UsageError(`No files match the pattern "${pattern}".`);
      matches.sort().forEach((m) => found.add(m));
      continue;
    }
    const path = isAbsolute(pattern) ? pattern : resolve(options.cwd, pattern);
    const info = statNamed(path, pattern);
    if (info.isDirectory()) {
      // A project's root (`validate-agent-hooks .`) holds docs, rules and notes beside its hooks: only
      // what --all finds there, and in the projects and plugins below it, is linted. Any other directory
      // (an agents directory, a copy of one) is read whole.
      // A `.claude` directory itself (`validate-agent-hooks ~/.claude`), or a repository that is a template
      // of one (settings.json at its root, beside agents/ or commands/): its settings, agents and skills.
      if (isClaudeDirectory(path)) {
        const files = claudeDirectoryFiles(path);
        if (files.length === 0) throw new UsageError(`No hook configurations, agents or skills in ${pattern}: nothing to lint.`);
        files.forEach((f) => found.add(f));
        continue;
      }
      const roots = projectRootsUnder(path);
      if (isProjectRoot(path)) {
        const files: string[] = [];
        for (const root of roots) pushAll(files, await projectHookFiles(root, pluginRoots));
        if (files.length === 0)
          throw new UsageError(
            `No agent profiles or hook configurations in the project ${pattern} (${AGENTS_DIR}/**/*.md, .claude/settings.json, .claude/skills/**/SKILL.md, or a plugin's files); name the files to lint them.`,
          );
        files.forEach((f) => found.add(f));
        continue;
      }
      // Read whole, but a project or plugin below it as a project is read (not its docs, commands and rules).
      const inProject = (file: string): boolean => roots.some((root) => file.startsWith(root + sep));
      const entries = filesUnder(path).filter((entry) => !inProject(direntPath(entry)));
      const files = [...markdownIn(entries), ...hookJsonIn(entries)];
      for (const root of roots) pushAll(files, await projectHookFiles(root, pluginRoots));
      if (files.length === 0) throw new UsageError(`No *.md files under the directory ${pattern}.`);
      files.forEach((f) => found.add(f));
    } else {
      found.add(path);
    }
  }
  return [...found];
}

/** The project roots at and below a directory (a monorepo's packages, a repository's plugins), not in hidden directories or `node_modules`, symbolic links not followed. */
function projectRootsUnder(dir: string): string[] {
  const roots: string[] = [];
  const visit = (at: string, depth: number): void => {
    if (isProjectRoot(at)) roots.push(at);
    if (depth >= MAX_PROJECT_DEPTH) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
      if (entry.isDirectory() && !entry.name.startsWith('.') && !NOT_PROJECTS.has(entry.name)) visit(join(at, entry.name), depth + 1);
  };
  visit(dir, 0);
  return roots;
}

/**
 * Directories never searched for projects: dependencies, and (besides every hidden directory: `.git`,
 * a project's own `.claude`, caches, virtual environments) the vendored and built trees.
 */
const NOT_PROJECTS = new Set(['node_modules', 'vendor', 'dist', 'build', 'target', '__pycache__']);
/** Directory levels searched below a project's root for further projects. */
const MAX_PROJECT_DEPTH = 12;

/**
 * A directory with a `.claude` directory, a plugin manifest or a plugin marketplace
 * (`.claude-plugin/marketplace.json`, whose plugins are below it): a project whose hook files
 * `projectHookFiles` knows.
 */
function isProjectRoot(dir: string): boolean {
  return (
    statOrUndefined(join(dir, '.claude'))?.isDirectory() === true ||
    statOrUndefined(join(dir, '.claude-plugin', 'plugin.json'))?.isFile() === true ||
    statOrUndefined(join(dir, '.claude-plugin', 'marketplace.json'))?.isFile() === true
  );
}

// Discovery and reading are synchronous: on the corpus (139 profiles in 56 directories) Node 20's
// recursive readdir from fs/promises took 8-10 ms a walk against ~1 ms for readdirSync, and reading
// the files 32 at a time through the thread pool 12-19 ms (26 ms of CPU) against 4 ms (9 ms) in a loop.
function statOrUndefined(path: string): ReturnType<typeof statSync> {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    // A loop of symbolic links (ELOOP), a path through a file (ENOTDIR), a name too long: nothing to read there.
    return undefined;
  }
}

/** A path named on the command line: its stat, or why it cannot be read. */
function statNamed(path: string, pattern: string): NonNullable<ReturnType<typeof statSync>> {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    throw new UsageError(`Cannot read ${pattern}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!info) throw new UsageError(`No such file or directory: ${pattern}`);
  return info;
}

/**
 * A directory that is itself a `.claude` directory: named so, or holding a `settings.json` beside the
 * directories one has (`agents`, `commands`, `skills`, `hooks`), as a repository that is a template of
 * `~/.claude` does.
 */
function isClaudeDirectory(dir: string): boolean {
  if (basename(dir) === '.claude') return true;
  if (statOrUndefined(join(dir, 'settings.json'))?.isFile() !== true) return false;
  return ['agents', 'commands', 'skills', 'hooks'].some((name) => statOrUndefined(join(dir, name))?.isDirectory() === true);
}

/** What a `.claude` directory holds that carries hooks: its settings, agents and skills (not its commands, rules or notes). */
function claudeDirectoryFiles(dir: string): string[] {
  const files: string[] = [];
  if (statOrUndefined(join(dir, 'agents'))?.isDirectory()) pushAll(files, markdownIn(filesUnder(join(dir, 'agents'))));
  for (const name of ['settings.json', 'settings.local.json']) if (statOrUndefined(join(dir, name))?.isFile()) files.push(join(dir, name));
  if (statOrUndefined(join(dir, 'skills'))?.isDirectory()) pushAll(files, namedIn(filesUnder(join(dir, 'skills')), 'SKILL.md'));
  return files;
}

/**
 * Every file under a project root that carries hooks: the project's agents,
 * settings and skills, and, when the root is a plugin (it has
 * `.claude-plugin/plugin.json`), the plugin's agents, skills, hooks file,
 * manifest and any hook files the manifest names.
 */
export async function projectHookFiles(root: string, pluginRoots: Set<string> = new Set()): Promise<string[]> {
  const files: string[] = [];
  const isFile = (path: string): boolean => statOrUndefined(path)?.isFile() ?? false;
  const isDir = (path: string): boolean => statOrUndefined(path)?.isDirectory() ?? false;
  // The project's own `.claude` directory: its agents, settings and skills.
  pushAll(files, claudeDirectoryFiles(join(root, '.claude')));
  const marketplace = join(root, '.claude-plugin', 'marketplace.json');
  if (isFile(marketplace))
    for (const plugin of await marketplacePluginRoots(marketplace, root))
      if (plugin !== root && isDir(plugin) && !pluginRoots.has(plugin)) {
        pluginRoots.add(plugin);
        // One with a manifest is a project root of its own, found by the walk below this one.
        if (!isFile(join(plugin, '.claude-plugin', 'plugin.json'))) pushAll(files, await projectHookFiles(plugin, pluginRoots));
      }
  const manifest = join(root, '.claude-plugin', 'plugin.json');
  if (isFile(manifest) || pluginRoots.has(root)) {
    if (isDir(join(root, 'agents'))) pushAll(files, markdownIn(filesUnder(join(root, 'agents'))));
    if (isDir(join(root, 'skills'))) pushAll(files, namedIn(filesUnder(join(root, 'skills')), 'SKILL.md'));
    if (isFile(join(root, 'hooks', 'hooks.json'))) files.push(join(root, 'hooks', 'hooks.json'));
    if (isFile(manifest)) {
      files.push(manifest);
      for (const path of await manifestHookPaths(manifest, root)) if (!files.includes(path) && isFile(path)) files.push(path);
    }
  }
  return files;
}

/** The directories of the plugins a marketplace lists with a relative `source` (`"./plugins/x"`), inside the repository. */
async function marketplacePluginRoots(marketplace: string, root: string): Promise<string[]> {
  try {
    const { parse } = await import('jsonc-parser');
    const data = parse(await readFile(marketplace, 'utf8')) as { plugins?: unknown } | undefined;
    const plugins = Array.isArray(data?.plugins) ? (data.plugins as unknown[]) : [];
    return plugins
      .map((plugin) => (plugin && typeof plugin === 'object' ? (plugin as { source?: unknown }).source : undefined))
      .filter((source): source is string => typeof source === 'string' && source.startsWith('.'))
      .map((source) => resolve(root, source))
      .filter((path) => !relative(root, path).startsWith('..'));
  } catch {
    return [];
  }
}

/** The hook files a plugin manifest names (`"hooks": "./more-hooks.json"` or a list of them), inside the plugin. */
async function manifestHookPaths(manifest: string, root: string): Promise<string[]> {
  try {
    const { parse } = await import('jsonc-parser');
    const data = parse(await readFile(manifest, 'utf8')) as { hooks?: unknown } | undefined;
    const hooks = data?.hooks;
    const paths = typeof hooks === 'string' ? [hooks] : Array.isArray(hooks) ? hooks.filter((h): h is string => typeof h === 'string') : [];
    return paths
      .map((p) => resolve(root, p.replace(/^\$\{CLAUDE_PLUGIN_ROOT\}\/?/, '')))
      .filter((p) => !relative(root, p).startsWith('..'));
  } catch {
    return [];
  }
}

function direntPath(entry: Dirent): string {
  // Dirent.parentPath arrived in Node 20.12; the engines field allows 20.0, whose Dirent has only `path`.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- @types/node types it as always present
  return join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
}

/** The regular files below a directory, walked once; symbolic links are not followed (no loops, nothing outside). */
function filesUnder(dir: string): Dirent[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
}

/** The JSON hook configurations among them: `.claude/settings*.json`, plugins' `hooks/hooks.json` and manifests. */
function hookJsonIn(entries: readonly Dirent[]): string[] {
  return entries
    .filter((entry) => entry.name.endsWith('.json'))
    .map(direntPath)
    .filter((path) =>
      /(?:^|[\\/])(?:\.claude[\\/]settings(?:\.local)?\.json|hooks[\\/]hooks\.json|\.claude-plugin[\\/]plugin\.json)$/.test(path),
    )
    .sort();
}

/** Every `*.md` among them, in a stable order. */
function markdownIn(entries: readonly Dirent[]): string[] {
  return entries
    .filter((entry) => entry.name.endsWith('.md'))
    .map(direntPath)
    .sort();
}

function namedIn(entries: readonly Dirent[], name: string): string[] {
  return entries
    .filter((entry) => entry.name === name)
    .map(direntPath)
    .sort();
}

/** Reads the files, each once, in order. */
export async function readAll(files: readonly string[]): Promise<LintInput[]> {
  return Promise.resolve(
    files.map((filePath) => {
      try {
        return { filePath, ...readBounded(filePath) };
      } catch (error) {
        throw new UsageError(`Cannot read ${filePath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }),
  );
}
