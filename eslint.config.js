// ESLint for our own TypeScript: ESLint's recommended rules and typescript-eslint's strict, type-checked
// configuration. Formatting is Biome's (`npm run format`), so no stylistic rules here. Each exception below
// says which documented choice of the project the rule fights; everything else is on as shipped.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Built output, fixtures (agent profiles, not our code), generated validators (scripts/build-schemas.mjs)
    // and hand-written declaration files of JavaScript modules.
    ignores: ['dist/', 'node_modules/', 'coverage/', 'bench-out/', 'fixtures/', 'src/schema/generated/', '**/*.d.ts', '**/*.d.mts'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        // One TypeScript program for src/, rules/ and test/ (tsconfig.test.json includes them all): type-aware
        // linting then costs about one `tsc` run instead of one per tsconfig.
        project: './tsconfig.test.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // tsconfig.json turns on noUncheckedIndexedAccess, so an index the code has already bounded (argv after an
      // arity check, `i < length` loops, regex groups that always match) is typed `T | undefined` and is written
      // `x[i]!`. Banning `!` would mean dropping that compiler check or adding branches that can never run.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers (counts, exit codes, limits) in messages are the project's ordinary way of writing diagnostics;
      // what the rule exists for, `undefined`, `null` and objects printed by accident, stays an error.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowAny: false, allowBoolean: false, allowNullish: false, allowRegExp: false, allowNever: false },
      ],
      // Callbacks written as `() => resolve()` or `(r) => push(r)` return nothing anyone reads; the rule's point,
      // a void result used as a value, is still checked everywhere else.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // An unused parameter or destructured field named `_x` is deliberate (a handler's fixed signature, a field
      // left out of a copy); TypeScript's own noUnused* checks follow the same convention.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Size and shape, as warnings so a growing file or function is noticed and split along a seam (the
      // DEVELOPERS guide's ~400 lines), without failing a build in the middle of the work.
      'max-lines': ['warn', { max: 400 }],
      // ESLint counts every `&&`, `||`, `??` and `?.` as a branch, so its default of 20 flags ordinary option
      // handling; 25 flags the functions that have grown several jobs.
      complexity: ['warn', 25],
    },
  },
  {
    files: ['test/**/*.ts', 'rules/**/*.test.ts'],
    rules: {
      // Tests parse the CLI's JSON and SARIF output and assert on its shape with vitest's matchers
      // (`expect.stringContaining` and friends are typed `any`); typing every parsed payload would restate what
      // the assertions already check. Production code keeps all five rules.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Fixtures set in beforeAll are declared `let fake: RedisFake` and torn down with `fake?.close()`, which
      // matters exactly when the setup failed and the type is wrong; the rule would demand `| undefined` and a
      // `!` on every use in the test body.
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
);
