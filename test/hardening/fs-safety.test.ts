import { spawn, spawnSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { note } from './helpers.js';
import { memoryIO } from '../../src/io.js';
import { main } from '../../src/cli/main.js';

/** The linter against hostile file systems, through `main` as the CLI runs it. */
const BIN = fileURLToPath(new URL('../../bin/validate-agent-hooks', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../dist/bundle', import.meta.url)));
const HAS_SHELLCHECK = spawnSync('shellcheck', ['--version']).status === 0;
const GOOD = '---\nname: ok\ndescription: fine\nhooks:\n  pre: |\n    echo "$AGENT_ID"\n---\n';
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vah-fs-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function lint(args: string[], cwd = root): Promise<{ code: number; out: string; err: string; ms: number }> {
  const io = memoryIO({ cwd });
  const started = performance.now();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err(), ms: performance.now() - started };
}

function project(name: string): { dir: string; agents: string } {
  const dir = join(root, name);
  const agents = join(dir, '.claude', 'agents');
  mkdirSync(agents, { recursive: true });
  writeFileSync(join(agents, 'good.md'), GOOD);
  return { dir, agents };
}

describe('file-system safety of the linter', () => {
  it('does not follow symlink loops or links out of the root under --all', async () => {
    const { dir, agents } = project('links');
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.md'), '---\nname: secret\n---\n');
    symlinkSync(agents, join(agents, 'loop'));
    symlinkSync('.', join(agents, 'self'));
    symlinkSync(outside, join(agents, 'out'));
    symlinkSync(join(outside, 'secret.md'), join(agents, 'secret-link.md'));
    symlinkSync(join(agents, 'nowhere.md'), join(agents, 'dangling.md'));
    const { code, out, err, ms } = await lint(['--all', '--root', dir, '--format', 'json', '--no-shellcheck']);
    expect(err).not.toContain('internal error');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    const files = (JSON.parse(out) as { filePath: string }[]).map((r) => r.filePath);
    expect(files).toEqual([join(agents, 'good.md')]);
  });

  it('treats a directory named like a profile (x.md/) as a directory, and names a missing file clearly (exit 2, no stack)', async () => {
    const { dir, agents } = project('dirs');
    mkdirSync(join(agents, 'x.md'));
    writeFileSync(join(agents, 'x.md', 'inner.md'), GOOD);
    const all = await lint(['--all', '--root', dir, '--format', 'json', '--no-shellcheck']);
    expect(all.err).not.toContain('internal error');
    expect((JSON.parse(all.out) as { filePath: string }[]).map((r) => r.filePath).sort()).toEqual([
      join(agents, 'good.md'),
      join(agents, 'x.md', 'inner.md'),
    ]);
    const named = await lint([join(agents, 'x.md'), '--no-shellcheck', '--format', 'json']);
    expect(named.code).toBe(0);
    expect((JSON.parse(named.out) as { filePath: string }[]).map((r) => r.filePath)).toEqual([join(agents, 'x.md', 'inner.md')]);
    const missing = await lint([join(agents, 'missing.md'), '--no-shellcheck']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/No such file or directory: .*missing\.md/);
  });

  it.skipIf(process.getuid?.() === 0)(
    `reports a file it may not read (chmod 000)${process.getuid?.() === 0 ? ' [skipped: running as root, whom permission bits do not stop]' : ''}`,
    async () => {
      const { agents } = project('unreadable');
      const path = join(agents, 'locked.md');
      writeFileSync(path, GOOD, { mode: 0o000 });
      const result = await lint([path, '--no-shellcheck']);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/Cannot read .*locked\.md: EACCES/);
    },
  );

  it('refuses a 10 MB profile with a clear diagnostic', async () => {
    const { agents } = project('big');
    const path = join(agents, 'big.md');
    writeFileSync(path, `---\nname: big\n---\n${'x'.repeat(10 * 1024 * 1024)}`);
    const { code, out, ms } = await lint([path, '--format', 'json', '--no-shellcheck']);
    expect(code).toBe(1);
    expect(ms).toBeLessThan(5000);
    const [result] = JSON.parse(out) as { messages: { ruleId: string; message: string }[] }[];
    expect(result!.messages).toEqual([
      expect.objectContaining({ ruleId: 'file-unreadable', message: expect.stringMatching(/^Unexpected file size of 10485778 bytes/) }),
    ]);
  });

  it('reports --stdin-filename with .. at the resolved path and writes nothing', async () => {
    const { dir } = project('stdin');
    const io = memoryIO({ cwd: join(dir, '.claude', 'agents'), stdin: GOOD.replace('"$AGENT_ID"', '$AGENT_ID') });
    const before = readdirSync(root).sort();
    const code = await main(['--stdin', '--stdin-filename', '../../../../../../etc/evil.md', '--format', 'json', '--no-shellcheck'], io);
    expect(io.err()).not.toContain('internal error');
    expect([0, 1]).toContain(code);
    expect((JSON.parse(io.out()) as { filePath: string }[])[0]!.filePath).toBe('/etc/evil.md');
    expect(existsSync('/etc/evil.md')).toBe(false);
    expect(readdirSync(root).sort()).toEqual(before);
  });

  it('lints a 100,000-file tree in bounded time and memory', async () => {
    const { dir, agents } = project('huge');
    const count = 100_000;
    // Hard links of one small profile: a 100,000-entry tree made in seconds (the linter reads each entry as its own file).
    for (let d = 0; d < 100; d++) {
      const sub = join(agents, `d${d}`);
      mkdirSync(sub);
      const seed = join(dir, `seed${d}.md`);
      writeFileSync(seed, '---\nname: a\ndescription: x\n---\n');
      for (let i = 0; i < count / 100; i++) linkSync(seed, join(sub, `a${i}.md`));
    }
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    try {
      const { code, out, err, ms } = await lint(['--all', '--root', dir, '--no-shellcheck', '--format', 'json', '--quiet']);
      expect(err).not.toContain('internal error');
      expect(code).toBe(0);
      expect(ms).toBeLessThan(60_000);
      const results = JSON.parse(out) as unknown[];
      expect(results).toHaveLength(count + 1);
      const growthMB = (peak - rssBefore) / 1024 / 1024;
      note(`fs: ${count + 1} files in ${(ms / 1000).toFixed(1)} s, RSS grew ${growthMB.toFixed(0)} MB`);
      expect(growthMB).toBeLessThan(1500);
    } finally {
      clearInterval(sampler);
      spawnSync('rm', ['-rf', dir]);
    }
  }, 120_000);

  it.skipIf(!BUILT || !HAS_SHELLCHECK)(
    `--fix killed at random moments never leaves a half-written file nor writes outside${BUILT && HAS_SHELLCHECK ? '' : ' [skipped: needs the build and ShellCheck, whose fixes are the safe ones]'}`,
    async () => {
      const { agents } = project('fix');
      // ShellCheck's quoting fix (SC2086) is the safe fix: one per hook, over a file of about 400 kB.
      const hooks = Array.from({ length: 200 }, (_, i) => `  pre${i}: |\n    echo $AGENT_ID "${'x'.repeat(2000)}"`).join('\n');
      const before = `---\nname: big\ndescription: fixes\nhooks:\n${hooks}\n---\n`;
      const path = join(agents, 'fixme.md');
      const others = readdirSync(root).sort();
      // ShellCheck's scratch scripts of a SIGKILLed run cannot be removed by it: keep them out of the machine's /dev/shm.
      const scratch = mkdtempSync(join(tmpdir(), 'vah-fix-scratch-'));
      const runFix = async (killAfterMs?: number): Promise<{ killed: boolean; code: number | null; ms: number }> => {
        writeFileSync(path, before);
        const started = performance.now();
        const child = spawn(process.execPath, [BIN, path, '--fix'], { stdio: 'ignore', env: { ...process.env, TMPDIR: scratch } });
        const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
          child.once('exit', (c, s) => resolve([c, s])),
        );
        clearTimeout(timer);
        return { killed: signal === 'SIGKILL', code, ms: performance.now() - started };
      };
      // One run to the end gives the fixed text and how long a run takes; the kills land across its last third and just past it, where the write is.
      const full = await runFix();
      expect([0, 1]).toContain(full.code);
      const fixedText = readFileSync(path, 'utf8');
      expect(fixedText).toContain('echo "$AGENT_ID" "x');
      expect(fixedText).not.toBe(before);
      const RUNS = 8;
      let killedMidway = 0;
      const outcomes = { old: 0, fixed: 0 };
      for (let run = 0; run < RUNS; run++) {
        const { killed, code } = await runFix(full.ms * (0.7 + 0.4 * Math.random()));
        if (killed) killedMidway++;
        else expect([0, 1]).toContain(code);
        const now = readFileSync(path, 'utf8');
        if (now === before) outcomes.old++;
        else if (now === fixedText) outcomes.fixed++;
        else expect.fail(`run ${run}: the file is neither the old nor the fixed text (${now.length} characters)`);
      }
      note(`fix kill: ${RUNS} runs of ${full.ms.toFixed(0)} ms, ${killedMidway} killed, files old=${outcomes.old} fixed=${outcomes.fixed}`);
      expect(outcomes.old + outcomes.fixed).toBe(RUNS);
      // Nothing but the profile (and, after a kill, at most our own hidden temporary files) appears, and nowhere outside.
      expect(
        readdirSync(agents)
          .filter((f) => f !== 'fixme.md' && f !== 'good.md')
          .every((f) => /^\.fixme\.md\.\d+-[0-9a-f]+\.tmp$/.test(f)),
      ).toBe(true);
      expect(readdirSync(root).sort()).toEqual(others);
      expect(statSync(path).size).toBeGreaterThan(0);
      rmSync(scratch, { recursive: true, force: true });
    },
    120_000,
  );
});
