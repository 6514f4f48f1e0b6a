import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { memoryIO } from '../src/io.js';

const ROOT = join(import.meta.dirname, '..');
const DEMO = join(ROOT, 'fixtures', 'demo');

function tempTree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vah-cli-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const GOOD = '---\nname: good\ndescription: A clean profile.\nhooks:\n  on_blocking_start: |\n    echo "Agent ${AGENT_ID} blocking"\n---\n';
const BAD = '---\nname: bad\ndescription: A dangerous profile.\nhooks:\n  on_blocking_start: |\n    rm -rf "$WORKDIR"\n---\n';
const WARN = '---\nname: warn\ndescription: A profile with a typo.\nhooks:\n  on_blocking_starts: |\n    echo hi\n---\n';

async function run(args: string[], cwd: string, env: Record<string, string> = { NO_COLOR: '1' }) {
  const io = memoryIO({ cwd, env });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('CLI', () => {
  it('--all lints every profile under .claude/agents recursively and exits 1 on errors', async () => {
    const dir = tempTree({ '.claude/agents/a/good.md': GOOD, '.claude/agents/b/c/bad.md': BAD, 'other/ignored.md': BAD });
    const { code, out } = await run(['--all', '--ci', '--no-shellcheck'], dir);
    expect(code).toBe(1);
    expect(out).toContain(join('.claude', 'agents', 'b', 'c', 'bad.md'));
    expect(out).toMatch(/6:5\s+error\s+Disallowed `rm -rf`/);
    expect(out).not.toContain('ignored.md');
  });

  it('a tree of more files than one lint chunk: every file once, in order, each with its own findings', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1234; i++) files[`.claude/agents/d${i % 9}/p${String(i).padStart(4, '0')}.md`] = i % 7 === 0 ? BAD : GOOD;
    const dir = tempTree(files);
    const { code, out } = await run(['--all', '--no-shellcheck', '--format', 'json'], dir);
    expect(code).toBe(1);
    const results = JSON.parse(out) as { filePath: string; messages: { ruleId: string }[] }[];
    expect(results.map((r) => r.filePath)).toEqual(
      Object.keys(files)
        .map((f) => join(dir, f))
        .sort(),
    );
    for (const result of results) {
      const i = Number(/p(\d+)\.md$/.exec(result.filePath)![1]);
      expect(result.messages.map((m) => m.ruleId)).toEqual(i % 7 === 0 ? ['command-rm-rf', 'env-var-unavailable'] : []);
    }
  });

  it('--root points --all at another directory', async () => {
    const dir = tempTree({ 'repo/.claude/agents/good.md': GOOD });
    expect((await run(['--all', '--root', 'repo', '--no-shellcheck'], dir)).code).toBe(0);
  });

  it('exit 2 with a clear message for a missing path, an empty --all, and bad flags', async () => {
    const dir = tempTree({ 'x.txt': 'x' });
    const missing = await run(['nope.md', '--no-shellcheck'], dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('No such file or directory: nope.md');
    const none = await run(['--all', '--no-shellcheck'], dir);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/No agent profiles or hook configurations under .*\.claude\/agents\/\*\*\/\*\.md/);
    // --root that is missing, or a file: a usage error that says so, not an internal one.
    const noRoot = await run(['--all', '--root', 'nope', '--no-shellcheck'], dir);
    expect([noRoot.code, noRoot.err]).toEqual([2, expect.stringContaining('No such directory: nope (--root)')]);
    const fileRoot = await run(['--all', '--root', 'x.txt', '--no-shellcheck'], dir);
    expect([fileRoot.code, fileRoot.err]).toEqual([2, expect.stringContaining('Not a directory: x.txt')]);
    expect(fileRoot.err).not.toContain('internal error');
    expect((await run(['--bogus'], dir)).code).toBe(2);
    expect((await run(['--format', 'xml', 'x.txt'], dir)).code).toBe(2);
    expect((await run([], dir)).err).toContain('No files to lint');
  });

  it('directories and globs', async () => {
    const dir = tempTree({ 'agents/a.md': GOOD, 'agents/sub/b.md': BAD });
    expect((await run(['agents', '--no-shellcheck'], dir)).code).toBe(1);
    const glob = await run(['agents/*.md', '--no-shellcheck', '--format', 'json'], dir);
    expect(glob.code).toBe(0);
    expect(JSON.parse(glob.out).map((r: { filePath: string }) => r.filePath)).toEqual([join(dir, 'agents', 'a.md')]);
  });

  it("a project's root is linted as --all finds it there and in the projects below it; a directory below it, whole", async () => {
    const dir = tempTree({
      '.claude/agents/a.md': BAD,
      '.claude/settings.json': '{"hooks": {}}',
      'docs/notes.md': 'Notes without a heading or frontmatter.\n',
      'rules/style.md': '---\ndescription: a Cursor rule\nglobs: "*.ts"\n---\nUse tabs.\n',
      'packages/p/.claude/agents/b.md': GOOD,
      'packages/p/README.md': 'Not a profile.\n',
      'node_modules/dep/.claude/agents/c.md': BAD,
      '.cache/tool/.claude/agents/d.md': BAD,
    });
    const files = async (args: string[]) =>
      JSON.parse((await run([...args, '--no-shellcheck', '--format', 'json'], dir)).out).map((r: { filePath: string }) =>
        relative(dir, r.filePath),
      );
    const project = [
      join('.claude', 'agents', 'a.md'),
      join('.claude', 'settings.json'),
      join('packages', 'p', '.claude', 'agents', 'b.md'),
    ];
    expect(await files(['.'])).toEqual(project);
    expect(await files([dir])).toEqual(project);
    expect(await files(['docs', 'rules'])).toEqual([join('docs', 'notes.md'), join('rules', 'style.md')]);
    const empty = tempTree({ '.claude/commands/x.md': GOOD, 'README.md': '# r\n' });
    const none = await run(['.', '--no-shellcheck'], empty);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/No agent profiles or hook configurations in the project \./);
  });

  it('a marketplace is a root whose plugins are read as plugins, with or without a manifest; a directory above projects reads them as projects', async () => {
    const dir = tempTree({
      '.claude-plugin/marketplace.json':
        '{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "p", "source": "./plugins/p"}, {"name": "q", "source": "./plugins/q"}, {"name": "r", "source": {"source": "github", "repo": "o/r"}}]}',
      'plugins/p/commands/hi.md': '---\ndescription: Say hi\n---\nSay hi.\n',
      'plugins/p/hooks/hooks.json': '{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}',
      'plugins/p/skills/s/SKILL.md': '---\nname: s\ndescription: a skill\n---\nDo it.\n',
      'plugins/p/skills/s/reference.md': '---\ntitle: not a profile\n---\n',
      'plugins/q/.claude-plugin/plugin.json': '{"name": "q"}',
      'plugins/q/agents/a.md': GOOD,
      'plugins/q/commands/c.md': '---\ndescription: a command\n---\n',
      'docs/x/app/.claude/settings.json': '{"hooks": {}}',
      'docs/x/app/.claude/rules/testing.md': '---\npaths:\n  - "**/*.test.ts"\n---\nUse vitest.\n',
      'docs/x/notes/n.md': GOOD,
    });
    const files = async (args: string[], cwd = dir) => {
      const result = await run([...args, '--no-shellcheck', '--format', 'json'], cwd);
      return JSON.parse(result.out)
        .map((r: { filePath: string }) => relative(dir, r.filePath))
        .sort();
    };
    const plugins = [
      join('plugins', 'p', 'hooks', 'hooks.json'),
      join('plugins', 'p', 'skills', 's', 'SKILL.md'),
      join('plugins', 'q', '.claude-plugin', 'plugin.json'),
      join('plugins', 'q', 'agents', 'a.md'),
    ].sort();
    // …and the projects below it, as --all finds them.
    const all = [...plugins, join('docs', 'x', 'app', '.claude', 'settings.json')].sort();
    expect(await files(['.'])).toEqual(all);
    expect(await files(['--all'])).toEqual(all);
    // A directory that is not a project: read whole, but the project below it as a project.
    expect(await files(['docs/x'])).toEqual([join('docs', 'x', 'app', '.claude', 'settings.json'), join('docs', 'x', 'notes', 'n.md')]);
  });

  it('a .claude directory named itself, or a repository that is a template of one, is read as one: settings, agents and skills', async () => {
    const dir = tempTree({
      'home/.claude/settings.json': '{"hooks": {}}',
      'home/.claude/agents/a.md': GOOD,
      'home/.claude/skills/s/SKILL.md': '---\nname: s\ndescription: a skill\n---\nDo it.\n',
      'home/.claude/commands/c.md': '---\ndescription: a command\n---\n',
      'home/.claude/CLAUDE.md': '# Notes\n',
      'template/settings.json': '{"hooks": {}}',
      'template/commands/c.md': '---\ndescription: a command\n---\n',
      'template/README.md': '# A ~/.claude template\n',
    });
    const files = async (args: string[]) =>
      JSON.parse((await run([...args, '--no-shellcheck', '--format', 'json'], dir)).out)
        .map((r: { filePath: string }) => relative(dir, r.filePath))
        .sort();
    expect(await files(['home/.claude'])).toEqual(
      [
        join('home', '.claude', 'agents', 'a.md'),
        join('home', '.claude', 'settings.json'),
        join('home', '.claude', 'skills', 's', 'SKILL.md'),
      ].sort(),
    );
    expect(await files(['template'])).toEqual([join('template', 'settings.json')]);
    expect(await files(['--all', '--root', 'template'])).toEqual([join('template', 'settings.json')]);
  });

  it('--max-warnings and --quiet', async () => {
    const dir = tempTree({ 'w.md': WARN });
    expect((await run(['w.md', '--no-shellcheck'], dir)).code).toBe(0);
    expect((await run(['w.md', '--no-shellcheck', '--max-warnings', '0'], dir)).code).toBe(1);
    expect((await run(['w.md', '--no-shellcheck', '--max-warnings', '1'], dir)).code).toBe(0);
    expect((await run(['w.md', '--no-shellcheck', '--quiet'], dir)).out).not.toContain('hook-name-unknown');
  });

  it('a file without frontmatter is a warning and does not stop the run; binary and bad UTF-8 are positioned errors', async () => {
    const dir = tempTree({
      'plain.md': 'Just a prompt\n',
      'bin.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01]),
      'latin1.md': Buffer.from('---\nname: caf\xe9\n---\n', 'latin1'),
      'good.md': GOOD,
    });
    const { code, out } = await run(['plain.md', 'bin.md', 'latin1.md', 'good.md', '--no-shellcheck', '--format', 'json'], dir);
    expect(code).toBe(1);
    const byFile = Object.fromEntries(
      JSON.parse(out).map((r: { filePath: string; messages: unknown[] }) => [r.filePath.split('/').pop(), r.messages]),
    );
    expect(byFile['plain.md']).toMatchObject([{ ruleId: 'frontmatter-missing', severity: 1, line: 1 }]);
    expect(byFile['bin.md']).toMatchObject([{ ruleId: 'file-unreadable', severity: 2, line: 2, column: 1 }]);
    expect(byFile['latin1.md']).toMatchObject([{ ruleId: 'file-unreadable', severity: 2, line: 2, column: 10 }]);
    expect(byFile['good.md']).toEqual([]);
  });

  it('YAML alias bombs, tabs, unclosed and empty frontmatter give positioned diagnostics', async () => {
    const bomb = [
      '---',
      'name: bomb',
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]!}`).join(',')}]`),
      '---',
      '',
    ].join('\n');
    const dir = tempTree({
      'bomb.md': bomb,
      'tabs.md': '---\nname: t\nhooks:\n\ton_blocking_start: echo\n---\n',
      'open.md': '---\nname: open\n',
      'empty.md': '---\n---\n',
    });
    const { out } = await run(['bomb.md', 'tabs.md', 'open.md', 'empty.md', '--no-shellcheck', '--format', 'json'], dir);
    const byFile = Object.fromEntries(
      JSON.parse(out).map((r: { filePath: string; messages: { ruleId: string; line: number }[] }) => [
        r.filePath.split('/').pop(),
        r.messages.map((m) => `${m.ruleId}@${m.line}`),
      ]),
    );
    expect(byFile['bomb.md']).toEqual(['frontmatter-yaml@4']);
    expect(byFile['tabs.md']![0]).toBe('frontmatter-yaml@4');
    expect(byFile['open.md']).toEqual(['frontmatter-unclosed@1']);
    expect(byFile['empty.md']).toEqual(['frontmatter-empty@1']);
  });

  it('--stdin with --stdin-filename', async () => {
    const io = memoryIO({ cwd: ROOT, env: { NO_COLOR: '1' }, stdin: BAD });
    expect(await main(['--stdin', '--stdin-filename', 'x/bad.md', '--no-shellcheck'], io)).toBe(1);
    expect(io.out()).toContain(join('x', 'bad.md'));
  });

  it('colour follows FORCE_COLOR and NO_COLOR, and --ci turns it off', async () => {
    const dir = tempTree({ 'bad.md': BAD });
    expect((await run(['bad.md', '--no-shellcheck'], dir, { FORCE_COLOR: '1' })).out).toContain('\u001b[');
    expect((await run(['bad.md', '--no-shellcheck'], dir, { NO_COLOR: '1' })).out).not.toContain('\u001b[');
    expect((await run(['bad.md', '--no-shellcheck', '--ci'], dir, {})).out).not.toContain('\u001b[');
  });

  it('--ci without ShellCheck is exit 2 with how to install it; without --ci a notice', async () => {
    const dir = tempTree({ 'good.md': GOOD });
    const env = { NO_COLOR: '1', VALIDATE_AGENT_HOOKS_SHELLCHECK: '/nonexistent/shellcheck' };
    const ci = await run(['good.md', '--ci'], dir, env);
    expect(ci.code).toBe(2);
    expect(ci.err).toMatch(/ShellCheck is required under --ci.*apt-get install shellcheck/);
    const local = await run(['good.md'], dir, env);
    expect(local.code).toBe(0);
    expect(local.err.trim().split('\n')).toHaveLength(1);
    expect(local.err).toContain('ShellCheck not found');
  });

  it('--help and --version', async () => {
    expect((await run(['--help'], ROOT)).out).toContain('--max-warnings');
    expect((await run(['--version'], ROOT)).out).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('the bundled demo profiles lint with findings', async () => {
    const { code, out } = await run(['--all', '--root', DEMO, '--no-shellcheck'], ROOT);
    expect(code).toBe(1);
    expect(out).toContain('command-rm-rf');
  });

  it('run and simulate start from their own bundle and its code cache, without loading the lint path', () => {
    // Bundles go through vm.Script, which NODE_DEBUG=esm does not list: a preload reports the files read from dist/bundle.
    const preloadDir = mkdtempSync(join(tmpdir(), 'vah-reads-'));
    const preload = join(preloadDir, 'reads.mjs');
    writeFileSync(
      preload,
      "import fs from 'node:fs'; import { syncBuiltinESMExports } from 'node:module'; const read = fs.readFileSync; " +
        "fs.readFileSync = function (path, ...rest) { if (String(path).includes('/dist/bundle/')) process.stderr.write(`READ ${path}\\n`); return read.call(this, path, ...rest); }; " +
        'syncBuiltinESMExports();',
    );
    const loaded = (args: string[]): { status: number | null; files: string[] } => {
      const result = spawnSync(process.execPath, ['--import', preload, join(ROOT, 'bin', 'validate-agent-hooks'), ...args], {
        encoding: 'utf8',
        env: { ...process.env, NODE_DEBUG: 'esm' },
      });
      const modules = [...result.stderr.matchAll(/file:\/\/(\S+?\.m?js)\b/g)].map((m) => m[1]!);
      const bundles = [...result.stderr.matchAll(/^READ (\S+)$/gm)].map((m) => m[1]!);
      const files = new Set([...modules, ...bundles].map((file) => relative(ROOT, file)));
      return { status: result.status, files: [...files].filter((f) => f.startsWith('dist/')).sort() };
    };
    for (const command of ['run', 'simulate']) {
      const { status, files } = loaded([command, '--help']);
      expect(status).toBe(0);
      expect(files).toEqual(['dist/bundle/exec.cjs', 'dist/bundle/exec.cjs.cache', 'dist/src/cli/lint-bundle.js']);
    }
    // The lint path: the same small loader, then its own bundle and cache.
    expect(loaded(['--version']).files).toEqual(['dist/bundle/cli.cjs', 'dist/bundle/cli.cjs.cache', 'dist/src/cli/lint-bundle.js']);
    rmSync(preloadDir, { recursive: true, force: true });
  });

  it('loads the executor bundle with its code cache', () => {
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(ROOT, 'dist/src/cli/lint-bundle.js'))}); console.log(m.loadLintBundle(${JSON.stringify(join(ROOT, 'dist/bundle/exec.cjs'))}).cache)`,
      ],
      { encoding: 'utf8' },
    );
    expect(probe.stdout.trim()).toBe('accepted');
  });

  it('loads the lint bundle with the code cache the build made, and lints the same with or without it', () => {
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(ROOT, 'dist/src/cli/lint-bundle.js'))}); console.log(m.loadLintBundle().cache)`,
      ],
      { encoding: 'utf8' },
    );
    expect(probe.stdout.trim()).toBe('accepted');
    // A cache V8 rejects (another V8, other flags) costs time, never correctness.
    const dir = tempTree({ 'bad.md': BAD });
    // Inside dist/, so the copy finds the packages the bundle leaves outside.
    const bundleDir = mkdtempSync(join(ROOT, 'dist', 'bundle-test-'));
    try {
      copyFileSync(join(ROOT, 'dist/bundle/cli.cjs'), join(bundleDir, 'cli.cjs'));
      writeFileSync(join(bundleDir, 'cli.cjs.cache'), Buffer.alloc(4096, 7));
      const lint = (bundle: string) =>
        spawnSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const m = await import(${JSON.stringify(join(ROOT, 'dist/src/cli/lint-bundle.js'))}); const b = m.loadLintBundle(${JSON.stringify(bundle)}); console.error(b.cache); process.exitCode = await b.entry.main(['bad.md', '--no-shellcheck', '--format', 'json'], b.entry.processIO());`,
          ],
          { cwd: dir, encoding: 'utf8' },
        );
      const withCache = lint(join(ROOT, 'dist/bundle/cli.cjs'));
      const damaged = lint(join(bundleDir, 'cli.cjs'));
      expect([withCache.stderr.trim(), damaged.stderr.trim()]).toEqual(['accepted', 'rejected']);
      expect(damaged.status).toBe(1);
      expect(damaged.stdout).toBe(withCache.stdout);
    } finally {
      rmSync(bundleDir, { recursive: true, force: true });
    }
  });

  it('the bin shim runs main in a real process', () => {
    const dir = tempTree({ 'bad.md': BAD });
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'bin', 'validate-agent-hooks'), 'bad.md', '--no-shellcheck', '--format', 'json'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)[0].messages[0].ruleId).toBe('command-rm-rf');
    expect(execFileSync(process.execPath, [join(ROOT, 'bin', 'validate-agent-hooks'), '--version'], { encoding: 'utf8' })).toMatch(
      /\d+\.\d+\.\d+/,
    );
  });
  it("a reader that stops reading early (`| head`) ends the output quietly, with the lint's exit code", async () => {
    // Far more output than a pipe holds, so the writes after the reader is gone fail with EPIPE.
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`.claude/agents/p${i}.md`] = BAD;
    const dir = tempTree(files);
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'validate-agent-hooks'), '--all', '--no-shellcheck', '--format', 'json'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    rmSync(dir, { recursive: true, force: true });
    expect(stderr).toBe('');
    expect(code).toBe(1);
  });
});
