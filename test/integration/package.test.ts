import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * What `npm pack` ships, and the package used as a consumer would: the
 * packed files (and nothing else) copied into a temporary project's
 * node_modules, their dependencies linked from this checkout's node_modules
 * (offline and fast), then imported by name from JavaScript and TypeScript.
 * Needs `npm run build` first (`npm test` does it).
 */
const ROOT = new URL('../../', import.meta.url).pathname;
let files: string[];

beforeAll(() => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
}, 60_000);

describe('npm pack', () => {
  it('contains what a user needs', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'bin/validate-agent-hooks',
      '.pre-commit-hooks.yaml',
      'dist/bundle/cli.cjs',
      'dist/bundle/cli.cjs.cache',
      'dist/bundle/exec.cjs',
      'dist/bundle/exec.cjs.cache',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/cli/main.js',
      'dist/src/lsp/server.js',
      'dist/rules/index.js',
      'dist/rules/command-rm-rf/rule.json',
      'dist/src/schema/generated/profile-validator.js',
      'schemas/profile.schema.json',
      'rules/command-rm-rf/README.md',
    ])
      expect(files, needed).toContain(needed);
  });

  it('contains nothing else: no sources, tests, fixtures or tooling', () => {
    const allowed = [
      /^package\.json$/,
      /^README\.md$/,
      /^LICENSE(\.md)?$/,
      /^\.pre-commit-hooks\.yaml$/,
      /^bin\/[^/]+$/,
      /^dist\/(src|rules)\/.+\.(js|d\.ts|json|mjs|sh)$/,
      /^dist\/bundle\/[^/]+\.(mjs|cjs|cjs\.cache)$/,
      // The executor's C helpers, built where a C compiler was (scripts/build-helper.mjs).
      /^dist\/libexec\/vah-(redis|mount)$/,
      /^schemas\/[^/]+\.schema\.json$/,
      /^rules\/[^/]+\/README\.md$/,
    ];
    expect(files.filter((f) => !allowed.some((re) => re.test(f)))).toEqual([]);
    expect(files.filter((f) => /\.test\.|(^|\/)(test|fixtures)\//.test(f))).toEqual([]);
  });
});

describe('the package as a consumer uses it', () => {
  let project: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'vah-consumer-'));
    const installed = join(project, 'node_modules', 'validate-agent-hooks');
    for (const file of files) {
      mkdirSync(dirname(join(installed, file)), { recursive: true });
      cpSync(join(ROOT, file), join(installed, file));
    }
    // Its dependencies, as npm would have installed them next to it.
    symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'), 'dir');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
  });

  it('imports lintText, lintFiles and formatters by package name', () => {
    mkdirSync(join(project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      join(project, '.claude', 'agents', 'p.md'),
      '---\nname: p\ndescription: d\nhooks:\n  on_blocking_start: |\n    rm -rf ./build\n---\n',
    );
    writeFileSync(
      join(project, 'consumer.mjs'),
      `
import { lintFiles, lintText, formatters, rules, REPORTER_NAMES } from 'validate-agent-hooks';
const text = await lintText('---\\nname: t\\ndescription: d\\nhooks:\\n  pre: |\\n    sudo ls\\n---\\n', { filePath: 'agent.md', shellcheck: false });
const files = await lintFiles(['.claude/agents'], { shellcheck: false });
console.log(JSON.stringify({
  text: text.diagnostics.map((d) => d.ruleId),
  files: files.map((r) => [r.filePath.endsWith('p.md'), r.diagnostics.map((d) => d.ruleId)]),
  formats: Object.keys(formatters), names: REPORTER_NAMES, rules: rules.length > 10,
  github: formatters.github(files, { cwd: process.cwd(), color: false, verbose: false }).split(',')[0],
}));
`,
    );
    const result = spawnSync(process.execPath, ['consumer.mjs'], { cwd: project, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      text: ['command-sudo'],
      files: [[true, ['command-rm-rf']]],
      formats: ['stylish', 'json', 'lsp', 'sarif', 'github'],
      names: ['stylish', 'json', 'lsp', 'sarif', 'github'],
      rules: true,
      github: '::error file=.claude/agents/p.md',
    });
  });

  it('type-checks a TypeScript consumer against the shipped declarations', () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      `
import { lintText, formatters, type Diagnostic, type LintResult, type Reporter } from 'validate-agent-hooks';
const result: LintResult = await lintText('---\\n---\\n', { filePath: 'a.md', shellcheck: false });
const first: Diagnostic | undefined = result.diagnostics[0];
const sarif: Reporter = formatters.sarif;
const out: string = sarif([result], { cwd: '.', color: false, verbose: false });
// @ts-expect-error: no such format
formatters.xml;
export { first, out };
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('runs the bin', () => {
    const result = spawnSync(
      process.execPath,
      [join(project, 'node_modules', 'validate-agent-hooks', 'bin', 'validate-agent-hooks'), '--version'],
      { encoding: 'utf8' },
    );
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('runs the bin as a program through the link npm makes, its launcher dropping NODE_EXTRA_CA_CERTS and passing every argument and the exit code', () => {
    const link = join(project, 'node_modules', '.bin', 'validate-agent-hooks');
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync('../validate-agent-hooks/bin/validate-agent-hooks', link);
    const dir = join(project, 'odd dir $HOME "q"');
    mkdirSync(dir);
    writeFileSync(join(dir, "it's.md"), '---\nname: p\ndescription: d\nhooks:\n  pre: |\n    sudo ls\n---\n');
    // A certificate file that is not there: Node warns of it at start-up unless the variable is gone.
    const env = {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      NODE_EXTRA_CA_CERTS: join(project, 'missing.pem'),
    };
    const node = spawnSync(process.execPath, ['-e', ''], { env, encoding: 'utf8' });
    expect(node.stderr).toContain('extra certs');
    const result = spawnSync(link, [join(dir, "it's.md"), '--no-shellcheck', '--format', 'json'], { cwd: project, env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    const [file] = JSON.parse(result.stdout) as { filePath: string; messages: { ruleId: string }[] }[];
    expect(file!.filePath).toBe(join(dir, "it's.md"));
    expect(file!.messages.map((m) => m.ruleId)).toEqual(['command-sudo']);
  });
});
