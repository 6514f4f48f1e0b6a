// Bundles the CLI into two files, because start-up matters (a lint runs on every save and commit;
// loading one file instead of ~80 modules saves tens of milliseconds):
// - dist/bundle/cli.cjs, the lint path, CommonJS so that src/cli/lint-bundle.ts can load it with
//   V8's code cache (scripts/code-cache.mjs). Subcommands (run, simulate, test, lsp, init-pre-commit)
//   stay in dist/src and are imported from there on demand, because they locate files of their
//   own relative to their modules.
// - dist/bundle/exec.cjs, run and simulate, without the lint path; bin/ picks it by command name and
//   loads it the same way, with a code cache of its own.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { dirname, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** Imports matching `filter` stay outside the bundle, as imports of their compiled modules in dist/src. */
const keepOutside = (filter) => ({
  name: 'keep-outside',
  setup(b) {
    b.onResolve({ filter }, (args) => {
      const source = resolve(dirname(args.importer), args.path);
      const compiled = resolve(root, 'dist', relative(root, source));
      return { path: relative(resolve(root, 'dist/bundle'), compiled), external: true };
    });
  },
});

/**
 * yaml and jsonc-parser are bundled from their ES module builds, marked free of side effects:
 * esbuild then leaves out the modules nothing calls (jsonc-parser's formatter, whose module
 * builds its tables of whitespace when it loads) and yaml needs no CommonJS wrappers and
 * export copies, which the bundle's top level otherwise ran on every start.
 */
const sideEffectFree = {
  name: 'side-effect-free',
  setup(b) {
    const entries = {
      yaml: resolve(root, 'node_modules/yaml/browser/dist/index.js'),
      'jsonc-parser': resolve(root, 'node_modules/jsonc-parser/lib/esm/main.js'),
    };
    b.onResolve({ filter: /^(yaml|jsonc-parser)$/ }, (args) => ({ path: entries[args.path], sideEffects: false }));
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!/\/node_modules\/(yaml|jsonc-parser)\//.test(args.importer)) return undefined;
      const path = resolve(dirname(args.importer), args.path);
      return { path: /\.js$/.test(path) ? path : `${path}.js`, sideEffects: false };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  // web-tree-sitter and sql.js find their .wasm next to their own modules; chalk is loaded only for colour.
  external: ['web-tree-sitter', 'sql.js', 'chalk'],
  // jsonc-parser's UMD build requires its parts by computed paths esbuild cannot follow; its ESM build bundles.
  // Some dependencies ship CommonJS that requires Node built-ins.
  banner: { js: "import { createRequire as __vahCreateRequire } from 'node:module'; const require = __vahCreateRequire(import.meta.url);" },
  logLevel: 'warning',
};

const lintBundle = resolve(root, 'dist/bundle/cli.cjs');
const execBundle = resolve(root, 'dist/bundle/exec.cjs');
rmSync(resolve(root, 'dist/bundle/cli.mjs'), { force: true });
rmSync(resolve(root, 'dist/bundle/exec.mjs'), { force: true });
for (const bundle of [lintBundle, execBundle]) rmSync(`${bundle}.cache`, { force: true });

await Promise.all([
  build({
    ...common,
    format: 'cjs',
    entryPoints: [resolve(root, 'src/cli/entry.ts')],
    outfile: lintBundle,
    plugins: [sideEffectFree, keepOutside(/^\.\/(run|simulate|init-pre-commit|test)\.js$|^\.\.\/lsp\//)],
    // web-tree-sitter inside, so its code comes from the code cache too (its WASM is named by src/shell/parser.ts).
    external: common.external.filter((name) => name !== 'web-tree-sitter'),
    define: { 'import.meta.url': '__vahImportMetaUrl' },
    banner: { js: 'const __vahImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  }),
  build({
    ...common,
    format: 'cjs',
    entryPoints: [resolve(root, 'src/cli/exec-entry.ts')],
    outfile: execBundle,
    plugins: [sideEffectFree, keepOutside(/^\.\/main\.js$/)],
    define: { 'import.meta.url': '__vahImportMetaUrl' },
    banner: { js: 'const __vahImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  }),
]);

// A script run by vm.Script has no import(): its dynamic imports become calls of the loader's
// __vahImport (src/cli/lint-bundle.ts). All of them are calls with a literal specifier.
for (const bundle of [lintBundle, execBundle]) {
  const code = readFileSync(bundle, 'utf8');
  const rewritten = code.replace(/\bimport\((?=["'`])/g, '__vahImport(');
  // `import()` with nothing in it is no call (acorn's messages say it), but anything else is.
  if (/\bimport\((?!\))/.test(rewritten)) throw new Error(`${relative(root, bundle)}: an import() without a literal specifier is left`);
  writeFileSync(bundle, rewritten);
}
