import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { superviseProcess, type SuperviseOptions } from '../../src/executor/execute.js';
import { nodeProcessRunner, type ProcessRunner, type SpawnedProcess } from '../../src/executor/process-runner.js';
import { DEFAULT_LIMITS, environmentFileText, hookLauncherArgs } from '../../src/executor/sandbox.js';
import { createExecutorSession } from '../../src/executor/session.js';
import { hookScript, needsSandbox, sandboxMissing, tempDir } from './helpers.js';

// A sandboxed run starts bwrap as soon as what it binds is there, and makes the rest of what the
// hook reaches through it (its sockets, its environment file, its commands) while bwrap makes the
// sandbox: the sandbox waits at a gate, a line on a pipe of its own, before it reads the hook's
// environment. A failure on the host's side stops the waiting sandbox.

const options = (runner: ProcessRunner, extra: Partial<SuperviseOptions>): SuperviseOptions => ({
  runner,
  clock: { now: () => performance.now() },
  request: { command: '/usr/bin/bwrap', args: [], env: {}, cwd: '/', extraPipes: 2 },
  timeoutMs: 30_000,
  limits: DEFAULT_LIMITS,
  containment: { kind: 'environment-marker', marker: `VAH_TEST_MARKER=${process.pid}-sandbox-gate` },
  startPipe: 0,
  gatePipe: 1,
  ...extra,
});

/** A sandbox that waits for its gate's line, then starts (the marker) and exits 0; killed, it ends at once. */
function gatedSandbox(events: string[]): ProcessRunner {
  return {
    spawn() {
      events.push('spawn');
      const [stdout, stderr, start, gate] = [new PassThrough(), new PassThrough(), new PassThrough(), new PassThrough()];
      let exit!: (value: { code: number | null; signal: NodeJS.Signals | null }) => void;
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => (exit = resolve));
      const end = (code: number | null, signal: NodeJS.Signals | null): void => {
        start.end();
        stdout.end();
        stderr.end();
        exit({ code, signal });
      };
      gate.on('data', (line: Buffer) => {
        events.push(`gate ${JSON.stringify(line.toString())}`);
        start.write('.');
        end(0, null);
      });
      const child: SpawnedProcess = {
        pid: undefined,
        stdout,
        stderr,
        extra: [start, gate],
        kill: (signal) => {
          events.push(`kill ${signal}`);
          end(null, 'SIGKILL');
        },
        exited,
        started: Promise.resolve(),
      };
      return child;
    },
  };
}

describe("the sandbox's gate", () => {
  it("starts the host's part only once the sandbox has been started, and lets the sandbox go on when it is ready", async () => {
    const events: string[] = [];
    const outcome = await superviseProcess(
      options(gatedSandbox(events), {
        gate: () => {
          events.push('host part');
          return new Promise((resolve) => setTimeout(resolve, 20)).then(() => events.push('host ready'));
        },
      }),
    );
    expect(events).toEqual(['spawn', 'host part', 'host ready', 'gate "\\n"']);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.startError).toBeUndefined();
  });

  it("stops the waiting sandbox when the host's part fails, and never opens the gate", async () => {
    const events: string[] = [];
    const failure = new Error('the run socket could not be made');
    const outcome = await superviseProcess(options(gatedSandbox(events), { gate: () => Promise.reject(failure) }));
    expect(events).toEqual(['spawn', 'kill SIGKILL']);
    expect(outcome.exitCode).toBeNull();
  });

  it('opens the gate at once when there is nothing to wait for', async () => {
    const events: string[] = [];
    const outcome = await superviseProcess(options(gatedSandbox(events), {}));
    expect(events).toEqual(['spawn', 'gate "\\n"']);
    expect(outcome.exitCode).toBe(0);
  });

  it("holds a real launcher before it reads the hook's environment: a file written after the spawn is what the hook sees", async () => {
    const scratch = tempDir();
    try {
      const envFile = join(scratch.dir, 'env');
      let startedBeforeGate = false;
      let gateOpen = false;
      const outcome = await superviseProcess({
        runner: nodeProcessRunner,
        clock: { now: () => performance.now() },
        request: {
          command: '/bin/bash',
          args: hookLauncherArgs('echo "seen=$VAH_GATE_TEST"', envFile, DEFAULT_LIMITS, { processLimit: false, startFd: 3, gateFd: 4 }),
          env: { PATH: '/usr/bin:/bin' },
          cwd: scratch.dir,
          extraPipes: 2,
        },
        timeoutMs: 30_000,
        limits: DEFAULT_LIMITS,
        containment: { kind: 'environment-marker', marker: `VAH_TEST_MARKER=${process.pid}-sandbox-gate-real` },
        startPipe: 0,
        gatePipe: 1,
        onProcessStart: () => (startedBeforeGate = !gateOpen),
        gate: async () => {
          // The launcher is running by now; it must not have read (or missed) the file.
          await new Promise((resolve) => setTimeout(resolve, 50));
          expect(existsSync(envFile)).toBe(false);
          writeFileSync(envFile, environmentFileText({ VAH_GATE_TEST: 'written after the spawn', PATH: '/usr/bin:/bin' }));
          gateOpen = true;
        },
      });
      expect(outcome.stdout).toBe('seen=written after the spawn\n');
      expect(outcome.exitCode).toBe(0);
      expect(startedBeforeGate).toBe(false);
    } finally {
      scratch.remove();
    }
  });

  it.skipIf(sandboxMissing !== undefined)(
    needsSandbox("throws the host's failure of a first run whose sandbox was already starting, and leaves nothing behind"),
    async () => {
      const sessions = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('vah-session-'));
      const mounts = (): string[] =>
        readFileSync('/proc/self/mounts', 'utf8')
          .split('\n')
          .filter((line) => /^vah-(?:session|writable) /.test(line));
      const [sessionsBefore, mountsBefore] = [sessions(), mounts()];
      const session = await createExecutorSession({ timeoutMs: 5000 });
      // The slash commands' directory is made once the first sandbox has started: a file in its way fails it.
      writeFileSync(join(session.dir, 'bin', 'slash'), 'in the way');
      try {
        await expect(session.runHook(hookScript('pre', 'echo never'))).rejects.toThrow(/EEXIST/);
      } finally {
        await session.close();
      }
      expect(sessions()).toEqual(sessionsBefore);
      expect(mounts()).toEqual(mountsBefore);
      // Nor a process: a SIGKILL at the failed gate could catch bwrap while it made its namespaces, and its
      // second process, not yet bound to die with it, stayed blocked for good (one run in ten, here).
      expect(processesNaming(session.dir)).toEqual([]);
    },
  );
});

/** The processes whose command line names `path` (a session's directory is on its sandboxes' bwrap lines). */
function processesNaming(path: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (line.includes(path)) found.push(`${pid} ${line.slice(0, 80)}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
