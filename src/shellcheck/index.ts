import { childProcess } from '../child-process.js';
import { accessSync, constants, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic, Fix, Severity } from '../diagnostics.js';
import type { LintConfig } from '../engine/config.js';
import type { BatchAnalyzer } from '../engine/lint.js';
import type { ScriptSourceMap } from '../hooks/source-map.js';
import type { HookScript } from '../hooks/types.js';
import { probeKey, recalledProbe, rememberProbe, type ProbeCacheOptions } from '../cache/tool-probe.js';
import { findExecutable } from '../executor/host.js';
import { fileFix } from '../engine/script-fixes.js';
import { Limiter } from '../limiter.js';
import { holdDirectory, holdProcess, releaseDirectory } from './cleanup.js';

/** The arguments every run uses; part of the cache key too. */
export const SHELLCHECK_ARGS = ['-f', 'json1', '--norc', '-s', 'bash'] as const;
export const SHELLCHECK_INSTALL_HINT =
  'install it with `apt-get install shellcheck` (Debian/Ubuntu) or `brew install shellcheck` (macOS), or pass --no-shellcheck';

export interface ShellCheckOptions {
  /** Path of the binary (default `shellcheck` on PATH). */
  binary?: string;
  /** What ShellCheck's `info` and `style` findings become. */
  infoSeverity: 'warning' | 'off';
  /** Processes to spread a batch over (default: one per core; see shortRunLanes). */
  processes?: number;
  /** Time a ShellCheck process may take: `base` plus `perScript` for each script it is given (default: SHELLCHECK_TIME). */
  time?: { baseMs: number; perScriptMs: number };
}

/**
 * How long a ShellCheck process may run before it is stopped. ShellCheck
 * 0.9.0 takes time exponential in the depth of nested command substitutions:
 * `echo $(echo $(… x))` 12 deep took 2.7 s here, 14 deep 10 s, 16 deep over
 * 30 s, so a hook of a few hundred bytes could hold a lint for days. A batch
 * of 500 ordinary scripts takes it ~2 s. A process that runs out of time is
 * stopped and its scripts are checked one a process; a script that runs out
 * of time alone gets a `shellcheck/timeout` warning instead of findings.
 */
export const SHELLCHECK_TIME = { baseMs: 10_000, perScriptMs: 50 };
export const SHELLCHECK_TIMEOUT_ID = 'shellcheck/timeout';

interface ShellCheckComment {
  file: string;
  line: number;
  endLine: number;
  column: number;
  endColumn: number;
  level: 'error' | 'warning' | 'info' | 'style';
  code: number;
  message: string;
  fix: {
    replacements: { line: number; endLine: number; column: number; endColumn: number; replacement: string; precedence: number }[];
  } | null;
}

/** The version of the ShellCheck binary, or undefined when it cannot be run. */
export function shellcheckVersion(binary = 'shellcheck'): string | undefined {
  const result = childProcess().spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (result.error || result.status !== 0) return undefined;
  return /version:\s*(\S+)/.exec(result.stdout)?.[1] ?? 'unknown';
}

/** An installed ShellCheck: its version and arguments (the cache keys on them), and an analyzer per configuration. */
export interface ShellCheckTool {
  version: string;
  args: readonly string[];
  /** `shortRun`: the files are few enough to be read in one go (see shortRunLanes). */
  analyzer: (config: LintConfig, run?: { shortRun?: boolean }) => BatchAnalyzer;
}

/** Probes the binary once; undefined when it cannot be run (each caller says so in its own way). */
export function findShellCheck(binary = 'shellcheck'): ShellCheckTool | undefined {
  const version = shellcheckVersion(binary);
  return version === undefined ? undefined : shellcheckTool(binary, version);
}

/**
 * As findShellCheck, off the critical path: the version remembered for this
 * very binary (path, inode, size, mtime; src/cache/tool-probe.ts) without
 * starting it, or else asked asynchronously, so the caller reads its files
 * meanwhile. Resolves to undefined when the binary cannot be run.
 */
export async function findShellCheckLazily(binary = 'shellcheck', cache: ProbeCacheOptions = {}): Promise<ShellCheckTool | undefined> {
  const path = binary.includes('/') ? binary : findExecutable(binary);
  if (path === undefined) return undefined;
  const key = probeKey(path, 'shellcheck');
  const recalled = key === undefined ? undefined : recalledProbe(key, cache);
  if (recalled !== undefined) return shellcheckTool(binary, recalled);
  const version = await new Promise<string | undefined>((resolve) => {
    childProcess().execFile(path, ['--version'], { encoding: 'utf8', timeout: 10_000 }, (error, stdout) =>
      resolve(error ? undefined : (/version:\s*(\S+)/.exec(stdout)?.[1] ?? 'unknown')),
    );
  });
  if (version === undefined) return undefined;
  if (key !== undefined) rememberProbe(key, version, cache);
  return shellcheckTool(binary, version);
}

function shellcheckTool(binary: string, version: string): ShellCheckTool {
  return {
    version,
    args: SHELLCHECK_ARGS,
    analyzer: (config, run) =>
      shellcheckAnalyzer({
        binary,
        infoSeverity: config.shellcheckInfo === 'off' ? 'off' : 'warning',
        ...(run?.shortRun ? { processes: shortRunLanes() } : {}),
      }),
  };
}

export function wikiUrl(code: number): string {
  return `https://www.shellcheck.net/wiki/SC${code}`;
}

/**
 * Runs ShellCheck over the hooks of every file at once: the scripts are
 * written verbatim to temporary files (never with a line of ours in front,
 * so the user's `# shellcheck` directives keep their meaning), split over
 * about one process per core, and each finding is mapped back to the
 * profile. ShellCheck counts columns in code points; they are converted to
 * UTF-16 units here. The runtime's variables need no declaring: they are all
 * upper-case, which ShellCheck takes for environment variables (SC2154 is
 * never raised for them; a test keeps that true).
 */
export function shellcheckAnalyzer(options: ShellCheckOptions): BatchAnalyzer {
  const lanes = options.processes ?? Math.max(1, availableParallelism());
  // At most `lanes` processes at once, in the order asked: a run of many
  // chunks keeps every core on ShellCheck without piling processes on them,
  // and the oldest chunk finishes first, so the next one can be read meanwhile.
  const queue = new Limiter(lanes);
  return {
    lanes,
    async analyze(hooks, call) {
      // Files are written and processes spawned synchronously, before the
      // first await, so ShellCheck runs while the caller goes on with its rules.
      const dir = mkdtempSync(join(scratchRoot(), 'validate-agent-hooks-'));
      holdDirectory(dir);
      try {
        // A script written again word for word (a hook copied from profile to profile) is checked once:
        // ShellCheck's findings depend on the text alone, and each copy gets them at its own place.
        const byText = new Map<string, number[]>();
        hooks.forEach(({ hook }, index) => {
          // An exec-form handler's line is the argv the rules read, not a script anyone wrote: `${X}` in it is a placeholder.
          if (hook.claudeCode?.form === 'exec') return;
          const same = byText.get(hook.text);
          if (same) same.push(index);
          else byText.set(hook.text, [index]);
        });
        const scripts = [...byText.values()].map((indices, n) => {
          const path = join(dir, `${n}.sh`);
          writeFileSync(path, hooks[indices[0]!]!.hook.text);
          return { path, indices };
        });
        const groups = splitEvenly(scripts, Math.min(lanes, call?.processes ?? lanes));
        const time = options.time ?? SHELLCHECK_TIME;
        const check = (group: typeof scripts): Promise<ShellCheckComment[] | 'timeout'> =>
          queue.run(() =>
            runShellCheck(
              options.binary ?? 'shellcheck',
              group.map((g) => g.path),
              time.baseMs + time.perScriptMs * group.length,
            ),
          );
        const results: Diagnostic[][] = hooks.map(() => []);
        const place = (comments: readonly ShellCheckComment[], group: typeof scripts): void => {
          const copiesOf = new Map(group.map((script) => [script.path, script.indices]));
          for (const comment of comments) {
            for (const index of copiesOf.get(comment.file) ?? []) {
              const { hook, map } = hooks[index]!;
              const diagnostic = toDiagnostic(comment, hook, map, options);
              if (diagnostic) results[index]!.push(diagnostic);
            }
          }
        };
        await Promise.all(
          groups.map(async (group) => {
            const comments = await check(group);
            if (comments !== 'timeout') {
              place(comments, group);
              return;
            }
            // One script held the whole process: each on its own finds which, and the others keep their findings.
            await Promise.all(
              group.map(async (script) => {
                const alone = group.length > 1 ? await check([script]) : comments;
                if (alone !== 'timeout') {
                  place(alone, [script]);
                  return;
                }
                for (const index of script.indices) results[index]!.push(timeoutDiagnostic(hooks[index]!, time.baseMs + time.perScriptMs));
              }),
            );
          }),
        );
        return results;
      } finally {
        await rm(dir, { recursive: true, force: true });
        releaseDirectory(dir);
      }
    },
  };
}

/**
 * How many ShellCheck processes a short run (one slice of files per process,
 * all read before the rules run) keeps side by side: one more than there are
 * cores, on more than one. The lint itself shares the cores with ShellCheck
 * and its slices are read one after the other, so with one process a core the
 * earlier one finished first and left its core idle while the last ran on;
 * with one more, the kernel keeps every core busy to the end. Paired on the
 * corpus on 2 cores, in five runs of 11–21 pairs: 3 processes took 0.92–0.98x
 * the wall time of 2 (4 and 6 no better than 3). A long run keeps one process
 * a core (its chunks queue for them; 3 on 2,000 generated profiles: 1.04x),
 * which is also where ShellCheck alone is fastest (3: 1.06x, 4: 1.02x).
 */
export function shortRunLanes(cores = availableParallelism()): number {
  return cores > 1 ? cores + 1 : 1;
}

/**
 * Where the scripts are written for ShellCheck: the user's TMPDIR when set;
 * otherwise /dev/shm where it exists (memory-backed: writing the corpus's
 * 190 scripts to a disk-backed /tmp took 86 ms here, to /dev/shm 3 ms);
 * otherwise the system's temporary directory.
 */
function scratchRoot(): string {
  return !process.env.TMPDIR && isWritableDirectory('/dev/shm') ? '/dev/shm' : tmpdir();
}

function isWritableDirectory(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Runs at most `size` tasks at a time, first come first served. */
function splitEvenly<T>(items: T[], parts: number): T[][] {
  // Below a few scripts per process the start-up of another process costs more than it saves.
  const count = Math.max(1, Math.min(parts, Math.ceil(items.length / 8)));
  const groups: T[][] = Array.from({ length: count }, () => []);
  items.forEach((item, i) => groups[i % count]!.push(item));
  return groups.filter((g) => g.length > 0);
}

/** ShellCheck's findings on the files, or 'timeout' when it ran out of time and was stopped. */
function runShellCheck(binary: string, files: string[], timeoutMs: number): Promise<ShellCheckComment[] | 'timeout'> {
  return new Promise((resolve, reject) => {
    const child = childProcess().execFile(
      binary,
      [...SHELLCHECK_ARGS, ...files],
      { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        // Stopped by the timeout (a stdout past maxBuffer is killed too, and is a failure).
        if (error?.killed && (error as NodeJS.ErrnoException).code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          resolve('timeout');
          return;
        }
        // Exit 1 means "findings"; anything else without JSON is a failure of ShellCheck itself.
        if (stdout.trim().startsWith('{')) {
          try {
            resolve((JSON.parse(stdout) as { comments: ShellCheckComment[] }).comments);
            return;
          } catch (parseError) {
            reject(parseError instanceof Error ? parseError : new Error(String(parseError)));
            return;
          }
        }
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT')
          reject(new Error(`ShellCheck not found (${binary}): ${SHELLCHECK_INSTALL_HINT}`));
        else reject(new Error(`ShellCheck failed: ${stderr.trim() || error?.message || 'no output'}`));
      },
    );
    holdProcess(child);
  });
}

/** The warning a hook gets in place of ShellCheck's findings when ShellCheck ran out of time on it alone: on the hook's first line. */
function timeoutDiagnostic({ hook, map }: { hook: HookScript; map: ScriptSourceMap }, timeoutMs: number): Diagnostic {
  const firstLine = map.scriptLines.lineText(1);
  const { range } = map.mapRange({ line: 1, column: 1, endLine: 1, endColumn: firstLine.length + 1 });
  return {
    ruleId: SHELLCHECK_TIMEOUT_ID,
    severity: 'warning',
    message: `Unexpected: ShellCheck did not finish this hook within ${Math.round(timeoutMs / 1000)} s and was stopped, so the hook has no ShellCheck findings. ShellCheck takes time exponential in the depth of nested \`$(…)\`: give deep ones their own variables.`,
    ...range,
    hook: hook.name,
  };
}

/**
 * Codes about idiom rather than about what the hook does (a useless `cat`,
 * `grep | wc -l` instead of `grep -c`, `local x=$(…)`): on real profiles they
 * were half of all warnings and never a bug. They are `info` by default
 * (documented in schemas/config.schema.json); `rules` raises any of them.
 */
export const STYLE_ONLY_CODES: ReadonlySet<number> = new Set([
  2001, 2002, 2003, 2004, 2005, 2009, 2010, 2012, 2116, 2126, 2129, 2155, 2181,
]);

/**
 * ShellCheck's notes that it did not read a file the script sources (SC1090: a
 * path known only at run time; SC1091: a file not given to it). Each hook
 * reaches ShellCheck as a file of its own in a private directory, so no
 * sourced file can be given to it: the note says nothing about the hook and
 * is `info` by default, as the style-only codes are.
 */
export const UNFOLLOWED_SOURCE_CODES: ReadonlySet<number> = new Set([1090, 1091]);

function severityOf(comment: ShellCheckComment, options: ShellCheckOptions): Severity | undefined {
  const { level } = comment;
  if (level === 'error') return 'error';
  if (level !== 'style' && !STYLE_ONLY_CODES.has(comment.code) && !UNFOLLOWED_SOURCE_CODES.has(comment.code)) {
    if (level === 'warning') return 'warning';
    return options.infoSeverity === 'off' ? undefined : 'warning';
  }
  return options.infoSeverity === 'off' ? undefined : 'info';
}

function toDiagnostic(
  comment: ShellCheckComment,
  hook: HookScript,
  map: ScriptSourceMap,
  options: ShellCheckOptions,
): Diagnostic | undefined {
  const severity = severityOf(comment, options);
  if (!severity) return undefined;
  const lines = map.scriptLines;
  const utf16 = (line: number, column: number): number => codePointColumnToUtf16(lines.lineText(line), column);
  const scriptRange = {
    line: comment.line,
    column: utf16(comment.line, comment.column),
    endLine: comment.endLine,
    endColumn: utf16(comment.endLine, comment.endColumn),
  };
  const { range } = map.mapRange(scriptRange);
  const diagnostic: Diagnostic = {
    ruleId: `shellcheck/SC${comment.code}`,
    severity,
    message: `${comment.message.replace(/\.$/, '')} (${wikiUrl(comment.code)}).`,
    ...range,
    hook: hook.name,
    docsUrl: wikiUrl(comment.code),
  };
  const fix = comment.fix ? toFix(comment, map, utf16) : undefined;
  if (fix) diagnostic.fixes = [fix];
  return diagnostic;
}

/**
 * ShellCheck's replacements as file edits, written as the hook's source must
 * spell them (escaped in a JSON string or a quoted YAML scalar); dropped when
 * any of them cannot be placed exactly or written there.
 */
function toFix(comment: ShellCheckComment, map: ScriptSourceMap, utf16: (line: number, column: number) => number): Fix | undefined {
  const replacements = comment.fix!.replacements;
  // A line break would have to carry the block scalar's indentation.
  if (replacements.some((r) => r.replacement.includes('\n'))) return undefined;
  const edits = replacements.map((r) => ({
    range: { line: r.line, column: utf16(r.line, r.column), endLine: r.endLine, endColumn: utf16(r.endLine, r.endColumn) },
    text: r.replacement,
  }));
  return edits.length ? fileFix({ title: `Apply ShellCheck's fix for SC${comment.code}`, safe: true, edits }, map) : undefined;
}

/** ShellCheck's 1-based code-point column as a 1-based UTF-16 column on the same line. */
export function codePointColumnToUtf16(lineText: string, column: number): number {
  let units = 0;
  let points = 1;
  for (const char of lineText) {
    if (points >= column) break;
    units += char.length;
    points++;
  }
  return units + 1 + Math.max(0, column - points);
}
