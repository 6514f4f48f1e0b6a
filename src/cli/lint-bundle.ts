import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import type { CliIO } from '../io.js';

/**
 * Loads the lint path's bundle (dist/bundle/cli.cjs, scripts/bundle.mjs) with
 * V8's code cache (cli.cjs.cache, written at build time by
 * scripts/code-cache.mjs): the functions a lint runs arrive compiled instead of
 * being parsed and compiled on every start (~20% of a one-file lint, measured).
 * Node 20 has no compile cache for ES modules (22.1 has
 * module.enableCompileCache), hence a CommonJS bundle run through vm.Script.
 *
 * V8 rejects a cache made by another V8 version or under other V8 flags (then
 * the bundle compiles as usual, only slower); the lint changes flags only after
 * this has loaded, and the cache is made under the default flags.
 */
export interface LintBundle {
  main(argv: readonly string[], io: CliIO): Promise<number>;
  processIO(): CliIO;
}

export interface LoadedLintBundle {
  entry: LintBundle;
  /** Whether V8 took the code cache: 'accepted', 'rejected' (other V8 or flags), or 'none' (no cache file). */
  cache: 'accepted' | 'rejected' | 'none';
  /** The compiled script, for scripts/code-cache.mjs to make the cache from. */
  script: Script;
}

export function loadLintBundle(bundlePath = new URL('../../bundle/cli.cjs', import.meta.url).pathname): LoadedLintBundle {
  const code = readFileSync(bundlePath, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${bundlePath}.cache`);
  } catch {
    // no cache: compile as usual
  }
  // The bundle's dynamic imports (subcommands, chalk, web-tree-sitter) come through __vahImport:
  // Node 20 loses a vm.Script's import() callback when its code comes from the cache.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __vahImport) {${code}\n})`, {
    filename: bundlePath,
    ...(cachedData ? { cachedData } : {}),
  });
  const bundleUrl = new URL(`file://${bundlePath}`);
  const module = { exports: {} as LintBundle };
  const dynamicImport = (specifier: string): Promise<unknown> =>
    import(specifier.startsWith('.') ? new URL(specifier, bundleUrl).href : specifier);
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(bundlePath),
    module,
    bundlePath,
    new URL('.', bundleUrl).pathname,
    dynamicImport,
  );
  return { entry: module.exports, cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted', script };
}
