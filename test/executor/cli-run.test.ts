import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/io.js';
import { runCommand, type RunCommandDependencies } from '../../src/cli/run.js';
import { createExecutorSession, type ExecutorSession } from '../../src/executor/session.js';
import type { RunJson } from '../../src/executor/report.js';
import { hasSqlite3, needsSandbox, sandboxMissing, tempDir } from './helpers.js';

const CORPUS_EXAMPLE = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'shared',
  'corpus',
  'claude-flow-novice',
  'examples',
  'blocking-coordinator-example.md',
);

if (!existsSync(CORPUS_EXAMPLE))
  console.warn(`cli-run.test.ts: the corpus example test is skipped: ${CORPUS_EXAMPLE} is not there (../shared; CI has it).`);

const PROFILE = `---
name: tester
description: A profile written for the executor's tests.
hooks:
  on_blocking_start: |
    echo "blocking \${AGENT_ID} in \${PHASE}"
    /sqlite-memory store --key "agent:\${AGENT_ID}:ctx" --level agent --data '{"status":"blocked"}'
    /sqlite-memory store --key "swarm:\${SWARM_ID}:progress" --level swarm --data '{"done":1}'
    /eventbus publish --type agent.blocking.start --data '{"phase":"x"}' --priority 8
    redis-cli SET "swarm:t1:\${AGENT_ID}:done" 1 > /dev/null
  on_signal_received: |
    echo "signal: \${SIGNAL_DATA}"
    exit 3
  on_blocking_timeout: sleep 30
  lifecycle:
    init: echo "init \${HOOK_NAME} \${CUSTOM}"
---
Body.
`;

async function run(args: string[], cwd: string, dependencies?: RunCommandDependencies) {
  const io = memoryIO({ cwd });
  const code = await runCommand(args, io, dependencies);
  return { code, out: io.out(), err: io.err() };
}

describe('run command: arguments', () => {
  const { dir, remove } = tempDir('vah-run-');
  beforeAll(() => writeFileSync(join(dir, 'tester.md'), PROFILE));
  afterAll(remove);

  it('documents its flags in --help', async () => {
    const { code, out } = await run(['--help'], dir);
    expect(code).toBe(0);
    for (const flag of [
      '--hook',
      '--env',
      '--agent-id',
      '--task',
      '--swarm-id',
      '--iteration',
      '--phase',
      '--timeout-ms',
      '--workspace',
      '--memory-db',
      '--redis-url',
      '--no-sandbox',
      '--format',
      '--strict',
      '--limit-procs',
      '--limit-output',
    ]) {
      expect(out).toContain(flag);
    }
  });

  it.each([
    [['--hook', 'pre'], /missing PROFILE/],
    [['tester.md', '--hook', 'pre', '--bogus'], /Unknown option '--bogus'/],
    [['tester.md', '--hook', 'pre', '--format', 'xml'], /unknown --format 'xml'/],
    [['tester.md', '--hook', 'pre', '--env', 'NOEQUALS'], /invalid --env 'NOEQUALS'/],
    [['tester.md', '--hook', 'pre', '--timeout-ms', '0'], /invalid --timeout-ms '0'/],
    [['tester.md', '--hook', 'pre', '--limit-output', 'lots'], /invalid --limit-output 'lots'/],
    [['missing.md', '--hook', 'pre'], /missing.md: no such file/],
    [['tester.md'], /missing --hook NAME; hooks in tester.md: on_blocking_start, on_signal_received, on_blocking_timeout, lifecycle.init/],
    [['tester.md', '--hook', 'pre'], /no hook 'pre'; hooks in tester.md: on_blocking_start/],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const { code, err, out } = await run(args, dir);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(out).toBe('');
  });

  it('makes the session while it reads the profile: a bad profile still speaks first, and that session is closed', async () => {
    const made: string[] = [];
    const recording: RunCommandDependencies = {
      createSession: () => {
        made.push('made');
        return Promise.resolve({
          close: () => {
            made.push('closed');
            return Promise.resolve();
          },
        } as unknown as ExecutorSession);
      },
    };
    const { code, err } = await run(['tester.md', '--hook', 'pre'], dir, recording);
    expect(code).toBe(2);
    expect(err).toMatch(/no hook 'pre'/);
    expect(made).toEqual(['made', 'closed']);
    const unsandboxed = await run(['tester.md', '--hook', 'pre'], dir, {
      createSession: (options) => createExecutorSession({ ...options, bwrapSearchPath: '/nonexistent-dir' }),
    });
    expect(unsandboxed.code).toBe(2);
    expect(unsandboxed.err).toMatch(/no hook 'pre'/);
    expect(unsandboxed.err).not.toMatch(/cannot sandbox/);
  });

  it('refuses to run without bubblewrap and says how to install it', async () => {
    const { code, err, out } = await run(['tester.md', '--hook', 'on_blocking_start'], dir, {
      createSession: (options) => createExecutorSession({ ...options, bwrapSearchPath: '/nonexistent-dir' }),
    });
    expect(code).toBe(2);
    expect(err).toMatch(/cannot sandbox the hook: bubblewrap \(bwrap\) was not found.*apt-get install -y bubblewrap/s);
    expect(out).toBe('');
  });
});

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('run command'), () => {
  const { dir, remove } = tempDir('vah-run-');
  beforeAll(() => writeFileSync(join(dir, 'tester.md'), PROFILE));
  afterAll(remove);

  it('--format json shows the exact memory keys, event and Redis command a hook produced', async () => {
    const { code, out, err } = await run(
      [
        'tester.md',
        '--hook',
        'on_blocking_start',
        '--format',
        'json',
        '--agent-id',
        'coder-42',
        '--swarm-id',
        'swarm-9',
        '--phase',
        'build',
      ],
      dir,
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    const json = JSON.parse(out) as RunJson;
    expect(json).toMatchObject({
      profile: 'tester.md',
      hook: 'on_blocking_start',
      agentId: 'coder-42',
      exitCode: 0,
      timedOut: false,
      stdout: 'blocking coder-42 in build\n',
      stderr: '',
    });
    expect(json.durationMs).toBeGreaterThan(0);
    expect(json.memory).toEqual([
      { level: 'agent', key: 'agent:coder-42:ctx', owner: 'coder-42', value: '{"status":"blocked"}' },
      { level: 'swarm', key: 'swarm:swarm-9:progress', owner: 'coder-42', value: '{"done":1}', swarmId: 'swarm-9' },
    ]);
    expect(json.events).toEqual([expect.objectContaining({ type: 'agent.blocking.start', priority: 8, data: { phase: 'x' } })]);
    expect(json.operations.map((op) => op.kind)).toEqual(['memory', 'memory', 'event', 'redis']);
    expect(json.operations[3]).toMatchObject({ kind: 'redis', command: ['SET', 'swarm:t1:coder-42:done', '1'], reply: 'OK' });
    for (const op of json.operations) expect(typeof op.t).toBe('number');
    expect(json.sandbox).toMatchObject({ mode: 'bwrap', survivors: [] });
    expect(json.limitsHit).toEqual([]);
  });

  it('prints a readable timeline by default', async () => {
    const { code, out } = await run(['tester.md', '--hook', 'on_blocking_start', '--agent-id', 'coder-1'], dir);
    expect(code).toBe(0);
    expect(out).toMatch(/^Hook on_blocking_start of tester\.md\n {2}agent coder-1 · swarm swarm-local · sandbox bwrap/);
    expect(out).toMatch(/\d+\.\d {2}memory {3}store agent:coder-1:ctx \[agent\] = \{"status":"blocked"\}/);
    expect(out).toMatch(/event {4}publish agent\.blocking\.start priority 8 \{"phase":"x"\}/);
    expect(out).toMatch(/redis {4}SET swarm:t1:coder-1:done 1 → OK/);
    expect(out).toContain('stdout (');
    expect(out).toContain('  │ blocking coder-1 in implementation');
    expect(out).toContain('Result: exit 0 in ');
    expect(out).toContain('Memory after the run (2 entries)');
    expect(out).toContain('Events published (1)');
  });

  it('passes --env and the shortcuts to the hook, and hook-specific variables only to their hook', async () => {
    const { out } = await run(['tester.md', '--hook', 'lifecycle.init', '--env', 'CUSTOM=a=b', '--format', 'json'], dir);
    const json = JSON.parse(out) as RunJson;
    expect(json.stdout).toBe('init lifecycle.init a=b\n');
    expect(json.env.SIGNAL_DATA).toBeUndefined();
    const signal = JSON.parse(
      (await run(['tester.md', '--hook', 'on_signal_received', '--format', 'json', '--env', 'SIGNAL_DATA={"ok":true}'], dir)).out,
    ) as RunJson;
    expect(signal.stdout).toBe('signal: {"ok":true}\n');
    expect(signal.env.WAIT_DURATION).toBeDefined();
  });

  it('exits 0 when the hook fails or times out, and 1 with --strict', async () => {
    expect((await run(['tester.md', '--hook', 'on_signal_received'], dir)).code).toBe(0);
    const strict = await run(['tester.md', '--hook', 'on_signal_received', '--strict'], dir);
    expect(strict.code).toBe(1);
    expect(strict.out).toContain('Result: exit 3 — the runtime logs this as a failure and carries on');
    const timedOut = await run(['tester.md', '--hook', 'on_blocking_timeout', '--timeout-ms', '300', '--strict', '--format', 'json'], dir);
    expect(timedOut.code).toBe(1);
    expect(JSON.parse(timedOut.out)).toMatchObject({ timedOut: true, exitCode: null });
    expect((await run(['tester.md', '--hook', 'on_blocking_start', '--strict'], dir)).code).toBe(0);
  });

  it.skipIf(!hasSqlite3)('--memory-db saves the memory for sqlite3', async () => {
    const { code } = await run(['tester.md', '--hook', 'on_blocking_start', '--agent-id', 'db-1', '--memory-db', 'out.db'], dir);
    expect(code).toBe(0);
    expect(
      execFileSync('sqlite3', [join(dir, 'out.db'), "SELECT level || ' ' || key || ' ' || owner FROM memory ORDER BY key"], {
        encoding: 'utf8',
      }),
    ).toBe('agent agent:db-1:ctx db-1\nswarm swarm:swarm-local:progress db-1\n');
  });

  it('--workspace seeds a copy and leaves the directory alone', async () => {
    const seed = join(dir, 'project');
    mkdirSync(seed, { recursive: true });
    writeFileSync(join(seed, 'README'), 'seed\n');
    writeFileSync(join(dir, 'ws.md'), '---\nname: ws\nhooks:\n  pre: |\n    cat README; echo changed > README; touch made-here\n---\n');
    const { out } = await run(['ws.md', '--hook', 'pre', '--workspace', 'project', '--format', 'json'], dir);
    expect((JSON.parse(out) as RunJson).stdout).toBe('seed\n');
    expect(readFileSync(join(seed, 'README'), 'utf8')).toBe('seed\n');
    expect(existsSync(join(seed, 'made-here'))).toBe(false);
  });

  it('--no-sandbox runs the hook but warns loudly on stderr, keeping stdout parseable', async () => {
    const { code, out, err } = await run(
      ['tester.md', '--hook', 'on_blocking_start', '--no-sandbox', '--format', 'json', '--agent-id', 'loose-1'],
      dir,
    );
    expect(code).toBe(0);
    expect(err).toMatch(/!{20,}\nWARNING: --no-sandbox: the hook runs directly on this machine/);
    const json = JSON.parse(out) as RunJson;
    expect(json.sandbox.mode).toBe('none');
    expect(json.sandbox.warnings[0]).toMatch(/^WARNING: --no-sandbox/);
    expect(json.memory.map((entry) => entry.key)).toEqual(['agent:loose-1:ctx', 'swarm:swarm-local:progress']);
    expect(json.events).toHaveLength(1);
  });

  it.skipIf(!existsSync(CORPUS_EXAMPLE))(
    'runs a real profile from the corpus: on_blocking_timeout stores its key and publishes its event',
    async () => {
      const { code, out } = await run(
        [CORPUS_EXAMPLE, '--hook', 'on_blocking_timeout', '--format', 'json', '--agent-id', 'coder-3', '--iteration', '2'],
        dir,
      );
      expect(code).toBe(0);
      const json = JSON.parse(out) as RunJson;
      expect(json.exitCode).toBe(0);
      expect(json.memory.map(({ level, key, owner }) => ({ level, key, owner }))).toEqual([
        { level: 'agent', key: 'agent:coder-3:timeout', owner: 'coder-3' },
      ]);
      expect(JSON.parse(json.memory[0]!.value)).toMatchObject({ status: 'timeout', action: 'escalate', iteration: '${ITERATION}' });
      // The profile single-quotes its JSON, so the event carries the variable names, not their values: the trace shows it.
      expect(json.events).toEqual([
        expect.objectContaining({
          type: 'agent.timeout',
          priority: 9,
          data: { agent: '${AGENT_ID}', iteration: '${ITERATION}', phase: '${PHASE}' },
        }),
      ]);
    },
  );
});
