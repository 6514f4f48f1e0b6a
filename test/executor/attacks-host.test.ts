/**
 * The attacks a security review got through (issue 16), each replayed as it
 * was made: descriptors inherited from the caller, terminal escapes in hook
 * data, environment values aimed at the host, leftovers after an interrupted
 * run. Each test fails if its attack works again.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/io.js';
import { runCommand } from '../../src/cli/run.js';
import { simulateCommand } from '../../src/cli/simulate.js';
import { findCgroupRoot } from '../../src/executor/cgroup.js';
import { OWNER_FILE } from '../../src/executor/leftovers.js';
import { closeInheritedFds } from '../../src/executor/sandbox.js';
import { blockedSyscalls } from '../../src/executor/seccomp.js';
import { createExecutorSession } from '../../src/executor/session.js';
import { stylishReporter } from '../../src/reporters/stylish.js';
import { hasRawControl } from '../../src/text/control-chars.js';
import { hookScript, needsSandbox, sandboxMissing, tempDir } from './helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'validate-agent-hooks');
const built = existsSync(join(ROOT, 'dist', 'src', 'cli', 'entry.js'));
const cliMissing = sandboxMissing ?? (built ? undefined : 'the CLI is not built (npm run build)');

function profile(hooks: Record<string, string>): string {
  const body = Object.entries(hooks)
    .map(
      ([name, text]) =>
        `  ${name}: |\n${text
          .split('\n')
          .map((line) => `    ${line}`)
          .join('\n')}`,
    )
    .join('\n');
  return `---\nname: attacker\ndescription: Replays an attack on the executor.\nhooks:\n${body}\n---\nBody.\n`;
}

function sessionDirsIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('vah-session-'));
}

function ourMounts(): string[] {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('vah-writable ') || line.startsWith('vah-session '));
}

function cgroupLeftovers(sessionNames: string[]): string[] {
  const root = findCgroupRoot();
  if (!root) return [];
  // A run's group (`vah-NAME-N`) or the session's group that holds them (`vah-NAME`).
  return readdirSync(root.parent).filter((entry) =>
    sessionNames.some((name) => entry === `vah-${name}` || entry.startsWith(`vah-${name}-`)),
  );
}

describe('closeInheritedFds', () => {
  it('leaves bash with only 0, 1, 2 and the descriptors it was told to keep', () => {
    const { dir, remove } = tempDir('vah-fds-');
    try {
      const result = spawnSync(
        '/bin/bash',
        [
          '-c',
          `exec 30</ 31>>"${join(dir, 'file')}" 12</dev/null 4</dev/null; ${closeInheritedFds([4])}; ls /proc/$$/fd > "${join(dir, 'list')}"; sort -n "${join(dir, 'list')}" | tr '\\n' ' '`,
        ],
        { encoding: 'utf8' },
      );
      expect(result.stdout.trim()).toBe('0 1 2 4');
    } finally {
      remove();
    }
  });
});

describe.skipIf(cliMissing !== undefined)(
  needsSandbox(`attacks through the run command${cliMissing ? ` [skipped: ${cliMissing}]` : ''}`),
  () => {
    const { dir, remove } = tempDir('vah-attack-');
    // As root the sandbox user must be able to reach a session's directory, or the executor falls back to /tmp.
    beforeAll(() => chmodSync(tmpdir(), 0o711));
    afterAll(remove);

    it('descriptors 30 and 31 inherited from the caller are unusable by the hook (run … 30</ 31>>FILE)', () => {
      // A place the sandbox user could write through a directory descriptor on /, were it passed on.
      const target = join(dir, 'open');
      mkdirSync(target, { mode: 0o777 });
      chmodSync(target, 0o777);
      const appended = join(target, 'appended.log');
      writeFileSync(appended, 'original\n', { mode: 0o666 });
      chmodSync(appended, 0o666);
      const escaped = join(target, 'escaped');
      const file = join(dir, 'fds.md');
      writeFileSync(
        file,
        profile({
          pre: [
            `echo pwned > /proc/self/fd/30${escaped}; echo "dirfd=$?"`,
            'echo pwned >&31; echo "filefd=$?"',
            `ls /proc/self/fd/30${target}; echo "listing=$?"`,
            'ls /proc/$$/fd > /tmp/fds; sort -n /tmp/fds | tr "\\n" " "',
          ].join('\n'),
        }),
      );
      const result = spawnSync(
        '/bin/bash',
        ['-c', `exec "${process.execPath}" "${CLI}" run "${file}" --hook pre --format json 30</ 31>>"${appended}"`],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(result.status).toBe(0);
      const json = JSON.parse(result.stdout) as { stdout: string; exitCode: number };
      expect(json.stdout).toMatch(/dirfd=1\n/);
      expect(json.stdout).toMatch(/filefd=1\n/);
      expect(json.stdout).toMatch(/listing=[12]\n/);
      // The hook's shell holds the standard three and nothing else.
      expect(json.stdout.trim().split('\n').at(-1)!.trim()).toBe('0 1 2');
      expect(existsSync(escaped)).toBe(false);
      expect(readFileSync(appended, 'utf8')).toBe('original\n');
    });

    it('--env values reach the hook, never the shell that starts the sandbox nor bwrap', async () => {
      const marker = join(dir, 'host-shell-ran');
      const script = join(dir, 'bash-env.sh');
      writeFileSync(script, `touch ${marker}\n`, { mode: 0o644 });
      const secret = `secret-${process.pid}-${Date.now()}`;
      const session = await createExecutorSession({ timeoutMs: 5000 });
      try {
        const ownNamespace = readlinkSync('/proc/self/ns/pid');
        const leaks: string[] = [];
        const running = session.runHook(hookScript('pre', 'echo "env=$BASH_ENV $PROBE"; sleep 1.5'), {
          env: { BASH_ENV: script, PROBE: secret },
        });
        // While the hook sleeps: no process of the host's own PID namespace may carry the value.
        await new Promise((resolve) => setTimeout(resolve, 700));
        for (const name of readdirSync('/proc')) {
          if (!/^\d+$/.test(name)) continue;
          try {
            if (readlinkSync(`/proc/${name}/ns/pid`) !== ownNamespace) continue;
            if (readFileSync(`/proc/${name}/environ`).includes(secret)) leaks.push(readFileSync(`/proc/${name}/cmdline`, 'utf8'));
          } catch {
            // Gone.
          }
        }
        const result = await running;
        expect(result.stdout).toBe(`env=${script} ${secret}\n`);
        expect(leaks).toEqual([]);
        expect(existsSync(marker)).toBe(false);
      } finally {
        await session.close();
      }
    });

    it("keeps each run's sockets in a directory only the sandbox's user can enter", async () => {
      const session = await createExecutorSession({ timeoutMs: 5000 });
      try {
        const running = session.runHook(hookScript('pre', 'sleep 1'));
        const runDir = join(session.dir, 'runs', '1');
        for (let i = 0; i < 200 && !existsSync(join(runDir, 'redis.sock')); i++) await new Promise((resolve) => setTimeout(resolve, 10));
        const stat = statSync(runDir);
        expect(stat.mode & 0o777).toBe(0o700);
        if (process.getuid?.() === 0) {
          expect(stat.uid).toBe(65534);
          // Another local user can neither list the directory nor reach the sockets in it.
          const other = { uid: 12_345, gid: 12_345, encoding: 'utf8' as const };
          expect(spawnSync('ls', [runDir], other).status).not.toBe(0);
          expect(spawnSync('redis-cli', ['-s', join(runDir, 'redis.sock'), 'PING'], other).stdout).not.toMatch(/PONG/);
        }
        await running;
      } finally {
        await session.close();
      }
    });

    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      it(`an interrupted run (${signal}) leaves nothing in TMPDIR: no session directory, socket, mount or cgroup`, async () => {
        const tmp = mkdtempSync(join(tmpdir(), 'vah-interrupted-'));
        chmodSync(tmp, 0o711);
        const file = join(tmp, 'slow.md');
        writeFileSync(file, profile({ pre: 'echo started > /tmp/started; sleep 30' }));
        const child = spawn(process.execPath, [CLI, 'run', file, '--hook', 'pre', '--timeout-ms', '20000'], {
          env: { ...process.env, TMPDIR: tmp },
          stdio: 'ignore',
        });
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          child.once('exit', (code, sig) => resolve({ code, signal: sig })),
        );
        let sessions: string[] = [];
        // Wait until the hook itself runs (its /tmp is the session's).
        for (let i = 0; i < 1500; i++) {
          sessions = sessionDirsIn(tmp);
          if (sessions.some((name) => existsSync(join(tmp, name, 'rw', 'tmp', 'started')))) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(sessions).toHaveLength(1);
        child.kill(signal);
        const exit = await exited;
        expect(exit.signal).toBe(signal);
        expect(readdirSync(tmp).filter((name) => name !== 'slow.md')).toEqual([]);
        expect(ourMounts().filter((line) => line.includes(tmp))).toEqual([]);
        expect(cgroupLeftovers(sessions)).toEqual([]);
      });
    }

    it('a run killed outright (SIGKILL) is swept by the next one; live sessions, links and strangers are not', async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'vah-killed-'));
      chmodSync(tmp, 0o711);
      const file = join(tmp, 'slow.md');
      writeFileSync(file, profile({ pre: 'echo started > /tmp/started; sleep 30' }));
      const child = spawn(process.execPath, [CLI, 'run', file, '--hook', 'pre', '--timeout-ms', '20000'], {
        env: { ...process.env, TMPDIR: tmp },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let stale: string[] = [];
      for (let i = 0; i < 1500; i++) {
        stale = sessionDirsIn(tmp);
        if (stale.some((name) => existsSync(join(tmp, name, 'rw', 'tmp', 'started')))) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill('SIGKILL');
      await exited;
      expect(stale).toHaveLength(1);
      // Things that look like sessions but are not ours to remove.
      const elsewhere = mkdtempSync(join(tmpdir(), 'vah-elsewhere-'));
      writeFileSync(join(elsewhere, OWNER_FILE), JSON.stringify({ pid: 999_999_999, start: '1' }));
      spawnSync('ln', ['-s', elsewhere, join(tmp, 'vah-session-AAAAAA')]);
      mkdirSync(join(tmp, 'vah-session-BBBBBB'));
      writeFileSync(join(tmp, 'vah-session-BBBBBB', 'keep'), 'no owner file');
      const live = await createExecutorSession({ baseDir: tmp });
      try {
        const second = await createExecutorSession({ baseDir: tmp });
        await second.close();
        const left = readdirSync(tmp).sort();
        expect(left).toEqual(['slow.md', 'vah-session-AAAAAA', 'vah-session-BBBBBB', live.dir.split('/').at(-1)!].sort());
        expect(existsSync(join(elsewhere, OWNER_FILE))).toBe(true);
        expect(ourMounts().filter((line) => line.includes(join(tmp, stale[0]!)))).toEqual([]);
        expect(cgroupLeftovers(stale)).toEqual([]);
      } finally {
        await live.close();
      }
    });
  },
);

const perlMissing = existsSync('/usr/bin/perl') ? undefined : 'perl is not installed (it makes the raw system calls)';
describe.skipIf(sandboxMissing !== undefined || perlMissing !== undefined || blockedSyscalls() === undefined)(
  needsSandbox(
    `the seccomp filter${perlMissing ? ` [skipped: ${perlMissing}]` : blockedSyscalls() ? '' : ` [skipped: no table for ${process.arch}]`}`,
  ),
  () => {
    it('answers io_uring, keyctl, ptrace, bpf and userfaultfd with ENOSYS, and leaves ordinary calls alone', async () => {
      const numbers = process.arch === 'x64' ? { io_uring_setup: 425, keyctl: 250, ptrace: 101, bpf: 321, userfaultfd: 323 } : undefined;
      const session = await createExecutorSession({ timeoutMs: 5000 });
      try {
        const calls = Object.entries(numbers ?? {})
          .map(([name, nr]) => `$r = syscall(${nr}, 0, 0, 0, 0); print "${name}=", ($r == -1 ? $!+0 : "ok"), "\\n";`)
          .join(' ');
        const result = await session.runHook(
          hookScript('pre', `perl -e '${calls} print "getppid=", (syscall(110) > 0 ? "ok" : "no"), "\\n";'`),
        );
        const lines = result.stdout.trim().split('\n');
        if (numbers) for (const name of Object.keys(numbers)) expect(lines, name).toContain(`${name}=38`);
        expect(lines).toContain('getppid=ok');
        expect(result.sandbox.warnings.filter((warning) => warning.includes('seccomp'))).toEqual([]);
      } finally {
        await session.close();
      }
    });
  },
);

describe.skipIf(sandboxMissing !== undefined)(needsSandbox("the host's pseudo-terminals"), () => {
  it('opens none: /dev/ptmx 3071 times took every pty the host does not keep for itself (kernel.pty.max)', async () => {
    const session = await createExecutorSession({ timeoutMs: 5000 });
    try {
      const result = await session.runHook(hookScript('pre', 'exec 3<>/dev/ptmx; echo "open=$?"; ls /dev/pts'));
      expect(result.stdout.trim().split('\n')).toEqual(['open=1', 'ptmx']);
    } finally {
      await session.close();
    }
  });
});

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('terminal escapes in hook data'), () => {
  const { dir, remove } = tempDir('vah-escapes-');
  const ESC = '\\033';
  const hook = [
    `printf 'out ${ESC}[2J${ESC}[HResult: exit 0\\r\\n'`,
    `printf 'err ${ESC}]0;title\\a \\302\\233 \\342\\200\\256\\n' >&2`,
    `/sqlite-memory store --key "$(printf 'k${ESC}[2J')" --level agent --data "$(printf '"v${ESC}[31m"')"`,
    `/sqlite-memory store --key "$(printf 'nl\\nResult: exit 0')" --level "$(printf 'agent${ESC}')" --data 1`,
    `/eventbus publish --type "$(printf 'a.b${ESC}[2J')" --data "$(printf '{"x":"${ESC}"}')" --priority 5`,
    `redis-cli SET "$(printf 'key${ESC}[2J')" "$(printf 'v\\302\\233')" > /dev/null`,
    `/performance "$(printf 'x${ESC}c')"`,
    'sleep 10',
  ].join('\n');
  beforeAll(() => {
    writeFileSync(join(dir, 'escapes.md'), profile({ on_blocking_start: hook }));
  });
  afterAll(remove);

  it('run: no raw control byte from hook data in the human report, and the data is there, escaped', async () => {
    const io = memoryIO({ cwd: dir });
    const code = await runCommand(['escapes.md', '--hook', 'on_blocking_start', '--timeout-ms', '3000'], io);
    expect(code).toBe(0);
    const out = io.out();
    expect(hasRawControl(out)).toBe(false);
    expect(hasRawControl(io.err())).toBe(false);
    expect(out).toContain('\\x1b[2J');
    expect(out).toContain('\\x9b');
    expect(out).toContain('\\u202e');
    expect(out).toContain('timed out');
    // The forged result line stays inside the quoted stdout block; the only Result line is the executor's.
    expect(out.match(/^Result: /gm)).toHaveLength(1);
  });

  it('run --format json: C1 controls, DEL and bidi overrides are \\u escapes, and the parsed values keep them', async () => {
    const io = memoryIO({ cwd: dir });
    const code = await runCommand(['escapes.md', '--hook', 'on_blocking_start', '--timeout-ms', '3000', '--format', 'json'], io);
    expect(code).toBe(0);
    const out = io.out();
    expect(out).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out).toContain('\\u009b');
    expect(out).toContain('\\u202e');
    const report = JSON.parse(out) as { stderr: string };
    expect(report.stderr).toContain('\u009b \u202e');
  });

  it('simulate --format json: no raw C1 control or bidi override', async () => {
    const io = memoryIO({ cwd: dir });
    await simulateCommand(['escapes.md', '--scenario', 'timeout', '--format', 'json', '--hook-timeout-ms', '1500'], io);
    expect(io.out()).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(() => JSON.parse(io.out()) as unknown).not.toThrow();
  });

  it('simulate: no raw control byte in the timeline or in the findings', async () => {
    for (const format of ['timeline', 'stylish', 'mermaid']) {
      const io = memoryIO({ cwd: dir });
      await simulateCommand(['escapes.md', '--scenario', 'timeout', '--format', format, '--hook-timeout-ms', '1500'], io);
      expect(hasRawControl(io.out()), format).toBe(false);
      expect(hasRawControl(io.err()), format).toBe(false);
      if (format === 'timeline') expect(io.out()).toContain('\\x1b[2J');
    }
  });
});

describe('terminal escapes in findings', () => {
  it('stylish shows control characters of file names, messages and code frames as escapes', () => {
    const source = 'hooks:\n  pre: echo "\u001b[2J\u009b"\n';
    const out = stylishReporter(
      [
        {
          filePath: '/work/evil\u001b[2J.md',
          source,
          diagnostics: [
            {
              ruleId: 'some-rule',
              severity: 'error',
              message: "Unknown command '\u001b[2J\u202e'",
              line: 2,
              column: 8,
              endLine: 2,
              endColumn: 12,
            },
          ],
        },
      ] as never,
      { cwd: '/work', color: false, verbose: true, toolVersion: '0' },
    );
    expect(hasRawControl(out)).toBe(false);
    expect(out).toContain('evil\\x1b[2J.md');
    expect(out).toContain("Unknown command '\\x1b[2J\\u202e'");
    expect(out).toContain('echo "\\x1b[2J\\x9b"');
  });
});
