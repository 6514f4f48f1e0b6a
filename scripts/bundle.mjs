// Bundles the lint path of the CLI into dist/bundle/cli.mjs. Start-up matters
// (a lint runs on every save and commit): loading one file instead of ~80
// modules saves tens of milliseconds. Subcommands (run, simulate, test, lsp,
// init-pre-commit) stay in dist/src and are imported from there on demand,
// because they locate files of their own relative to their modules.
import { build } from 'esbuild';
import { dirname, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const SUBCOMMAND = /^\.\/(run|simulate|init-pre-commit|test)\.js$|^\.\.\/lsp\//;

await build({
  entryPoints: [resolve(root, 'src/cli/entry.ts')],
  outfile: resolve(root, 'dist/bundle/cli.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  // web-tree-sitter finds its .wasm next to its own module; chalk is loaded only for colour.
  external: ['web-tree-sitter', 'chalk'],
  // jsonc-parser's UMD build requires its parts by computed paths esbuild cannot follow; its ESM build bundles.
  alias: { 'jsonc-parser': resolve(root, 'node_modules/jsonc-parser/lib/esm/main.js') },
  // Some dependencies ship CommonJS that requires Node built-ins.
  banner: { js: "import { createRequire as __vahCreateRequire } from 'node:module'; const require = __vahCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [
    {
      name: 'subcommands-stay-outside',
      setup(b) {
        b.onResolve({ filter: SUBCOMMAND }, (args) => {
          const source = resolve(dirname(args.importer), args.path);
          const compiled = resolve(root, 'dist', relative(root, source));
          return { path: relative(resolve(root, 'dist/bundle'), compiled), external: true };
        });
      },
    },
  ],
});
