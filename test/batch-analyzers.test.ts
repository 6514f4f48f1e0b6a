import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Diagnostic } from '../src/diagnostics.js';
import { defaultConfig } from '../src/engine/config.js';
import { lintInputs, type BatchAnalyzer } from '../src/engine/lint.js';
import { shellcheckAnalyzer } from '../src/shellcheck/index.js';

/** An analyzer that reports one finding per hook, naming the hook's first line, and records each call. */
function recordingAnalyzer(lanes: number) {
  const calls: { hooks: number; processes: number | undefined }[] = [];
  const analyzer: BatchAnalyzer = {
    lanes,
    analyze(hooks, options) {
      calls.push({ hooks: hooks.length, processes: options?.processes });
      return Promise.resolve(
        hooks.map(({ hook }): Diagnostic[] => [
          { ruleId: 'fake/echo', severity: 'warning', message: hook.text.split('\n')[0]!, line: 1, column: 1, endLine: 1, endColumn: 2 },
        ]),
      );
    },
  };
  return { analyzer, calls };
}

const id = (i: number) => String(i).padStart(2, '0');
const inputs = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    filePath: `/virtual/${id(i)}.md`,
    text: `---\nname: f${id(i)}\ndescription: d\nhooks:\n  pre: |\n    echo f${id(i)}\n---\n`,
  }));

describe('batch analyzers (ShellCheck) over many files', () => {
  it('get the files in one slice per lane, each as soon as it is read, and their findings go back to the right file', async () => {
    const { analyzer, calls } = recordingAnalyzer(2);
    const results = await lintInputs(inputs(40), { rules, config: defaultConfig(), batchAnalyzers: [analyzer] });
    expect(calls).toEqual([
      { hooks: 20, processes: 1 },
      { hooks: 20, processes: 1 },
    ]);
    results.forEach((result, i) =>
      expect(result.diagnostics.filter((d) => d.ruleId === 'fake/echo').map((d) => d.message)).toEqual([`echo f${id(i)}`]),
    );
  });

  it('the first slice is analysed before the second is read', async () => {
    const events: string[] = [];
    const { analyzer } = recordingAnalyzer(2);
    const analyze = analyzer.analyze.bind(analyzer);
    analyzer.analyze = (hooks, options) => {
      events.push('analyze');
      return analyze(hooks, options);
    };
    const files = inputs(8).map((input, i) => ({
      text: input.text,
      get filePath() {
        if (!events.includes(`read ${i}`)) events.push(`read ${i}`);
        return input.filePath;
      },
    }));
    await lintInputs(files, { rules, config: defaultConfig(), batchAnalyzers: [analyzer] });
    expect(events.slice(0, 10)).toEqual([
      'read 0',
      'read 1',
      'read 2',
      'read 3',
      'analyze',
      'read 4',
      'read 5',
      'read 6',
      'read 7',
      'analyze',
    ]);
  });

  it('a failing analyzer fails the lint with its own error', async () => {
    const failing: BatchAnalyzer = { lanes: 2, analyze: () => Promise.reject(new Error('ShellCheck failed: boom')) };
    await expect(lintInputs(inputs(12), { rules, config: defaultConfig(), batchAnalyzers: [failing] })).rejects.toThrow(
      'ShellCheck failed: boom',
    );
  });

  it('a handful of files is one call, spread as the analyzer likes', async () => {
    const { analyzer, calls } = recordingAnalyzer(4);
    await lintInputs(inputs(3), { rules, config: defaultConfig(), batchAnalyzers: [analyzer] });
    expect(calls).toEqual([{ hooks: 3, processes: undefined }]);
  });

  it('slices follow the size of the files, not their count', async () => {
    const { analyzer, calls } = recordingAnalyzer(2);
    const files = inputs(12);
    files[0]!.text = files[0]!.text.replace('description: d', `description: ${'x'.repeat(5000)}`);
    await lintInputs(files, { rules, config: defaultConfig(), batchAnalyzers: [analyzer] });
    expect(calls).toEqual([
      { hooks: 1, processes: 1 },
      { hooks: 11, processes: 1 },
    ]);
    // With three lanes the large file is a slice alone and the small ones share the other two.
    const three = recordingAnalyzer(3);
    await lintInputs(files, { rules, config: defaultConfig(), batchAnalyzers: [three.analyzer] });
    expect(three.calls.map((c) => c.hooks)).toEqual([1, 6, 5]);
  });
});

describe('ShellCheck process queue', () => {
  it('runs at most one process per lane at a time, first asked first run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-fake-shellcheck-'));
    const log = join(dir, 'log');
    const fake = join(dir, 'shellcheck');
    // A stand-in for the binary: logs when it starts and ends (with the first script's text) and finds nothing.
    writeFileSync(
      fake,
      `#!/bin/sh\nlast=""; for a; do last="$a"; done\nname=$(cat "$last")\necho "start $name" >> '${log}'\nsleep 0.2\necho "end $name" >> '${log}'\necho '{"comments":[]}'\n`,
    );
    chmodSync(fake, 0o755);
    const analyzer = shellcheckAnalyzer({ binary: fake, infoSeverity: 'warning', processes: 2 });
    const hooksOf = (name: string) =>
      [{ hook: { name: 'pre', text: name, kind: 'block' }, map: undefined }] as unknown as Parameters<BatchAnalyzer['analyze']>[0];
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => analyzer.analyze(hooksOf(name), { processes: 1 })));
    const events = readFileSync(log, 'utf8').trim().split('\n');
    let running = 0;
    let most = 0;
    for (const event of events) {
      running += event.startsWith('start') ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
    expect(
      events
        .filter((e) => e.startsWith('start'))
        .slice(0, 2)
        .sort(),
    ).toEqual(['start a', 'start b']);
    const firstEnd = Math.min(events.indexOf('end a'), events.indexOf('end b'));
    expect(events.indexOf('start c')).toBeGreaterThan(firstEnd);
    expect(events.indexOf('start d')).toBeGreaterThan(firstEnd);
  });

  it("starts a process before analyze returns when a lane is free, so the caller's synchronous work does not hold it back", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-fake-shellcheck-'));
    const started = join(dir, 'started');
    const fake = join(dir, 'shellcheck');
    writeFileSync(fake, `#!/bin/sh\n: > '${started}'\necho '{"comments":[]}'\n`);
    chmodSync(fake, 0o755);
    const analyzer = shellcheckAnalyzer({ binary: fake, infoSeverity: 'warning', processes: 2 });
    const hooks = [{ hook: { name: 'pre', text: 'echo', kind: 'block' }, map: undefined }] as unknown as Parameters<
      BatchAnalyzer['analyze']
    >[0];
    const done = analyzer.analyze(hooks);
    // Without yielding to the event loop (as the lint parses its next slice): a process spawned on a later turn never starts here.
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let waited = 0; !existsSync(started) && waited < 10_000; waited += 10) Atomics.wait(pause, 0, 0, 10);
    expect(existsSync(started)).toBe(true);
    await done;
  });

  it('writes the scripts to TMPDIR when it is set, otherwise to memory-backed /dev/shm where there is one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-fake-shellcheck-'));
    const fake = join(dir, 'shellcheck');
    writeFileSync(fake, `#!/bin/sh\nfor a; do last="$a"; done\necho "$last" >> '${join(dir, 'args')}'\necho '{"comments":[]}'\n`);
    chmodSync(fake, 0o755);
    const analyzer = shellcheckAnalyzer({ binary: fake, infoSeverity: 'warning' });
    const hooks = [{ hook: { name: 'pre', text: 'echo', kind: 'block' }, map: undefined }] as unknown as Parameters<
      BatchAnalyzer['analyze']
    >[0];
    const saved = process.env.TMPDIR;
    const own = mkdtempSync(join(tmpdir(), 'vah-own-tmp-'));
    try {
      process.env.TMPDIR = own;
      await analyzer.analyze(hooks);
      delete process.env.TMPDIR;
      await analyzer.analyze(hooks);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    const [withTmpdir, without] = readFileSync(join(dir, 'args'), 'utf8').trim().split('\n');
    expect(withTmpdir!.startsWith(`${own}/validate-agent-hooks-`)).toBe(true);
    const shm = existsSync('/dev/shm') && statSync('/dev/shm').isDirectory();
    expect(without!.startsWith(shm ? '/dev/shm/validate-agent-hooks-' : `${tmpdir()}/validate-agent-hooks-`)).toBe(true);
    // Nothing is left behind.
    expect(readdirSync(own)).toEqual([]);
  });
});

/** Whether a process still runs: a zombie (killed, not yet reaped by whoever adopted it) does not. */
function running(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('an interrupted run', () => {
  const BIN = fileURLToPath(new URL('../bin/validate-agent-hooks', import.meta.url));
  const BUILT = existsSync(fileURLToPath(new URL('../dist/bundle', import.meta.url)));

  it.skipIf(!BUILT)(
    `SIGTERM or SIGINT during ShellCheck removes the scratch scripts, stops ShellCheck, and ends by the signal${BUILT ? '' : ' [skipped: needs the build]'}`,
    async () => {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        const dir = mkdtempSync(join(tmpdir(), 'vah-interrupt-'));
        const scratch = join(dir, 'tmp');
        mkdirSync(scratch);
        mkdirSync(join(dir, 'agents'));
        for (let i = 0; i < 10; i++)
          writeFileSync(join(dir, 'agents', `p${i}.md`), `---\nname: p${i}\ndescription: d\nhooks:\n  pre: |\n    echo $x${i}\n---\n`);
        // A ShellCheck that says its version, then notes its pid and hangs.
        const fake = join(dir, 'shellcheck');
        const mark = join(dir, 'mark');
        writeFileSync(
          fake,
          `#!/bin/sh\nif [ "$1" = --version ]; then echo 'version: 0.9.0'; exit 0; fi\necho $$ >> '${mark}'\nexec sleep 30\n`,
        );
        chmodSync(fake, 0o755);
        const child = spawn(process.execPath, [BIN, join(dir, 'agents'), '--format', 'json'], {
          env: { ...process.env, TMPDIR: scratch, VALIDATE_AGENT_HOOKS_SHELLCHECK: fake },
          stdio: 'ignore',
        });
        const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
        for (let waited = 0; !existsSync(mark) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
        expect(readdirSync(scratch).filter((name) => name.startsWith('validate-agent-hooks-')).length).toBeGreaterThan(0);
        child.kill(signal);
        expect(await exited).toBe(signal);
        expect(readdirSync(scratch)).toEqual([]);
        await new Promise((r) => setTimeout(r, 100));
        const pids = readFileSync(mark, 'utf8').trim().split('\n').map(Number);
        for (const pid of pids) expect(running(pid), `ShellCheck ${pid} still running`).toBe(false);
      }
    },
    30_000,
  );
});
