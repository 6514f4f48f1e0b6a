import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNativeHelper } from '../../src/executor/native-helper.js';
import { createExecutorSession, SandboxUnavailableError, type ExecutorSession } from '../../src/executor/session.js';
import type { MemoryOperation, RedisOperation } from '../../src/executor/trace.js';
import {
  hasRedisCli,
  hasRedisServer,
  hookScript,
  needsSandbox,
  processesMatching,
  sandboxMissing,
  startRealRedis,
  tempDir,
} from './helpers.js';

describe('executor session', () => {
  it('refuses to run without bubblewrap, saying how to install it', async () => {
    const attempt = createExecutorSession({ bwrapSearchPath: '/nonexistent-dir' });
    await expect(attempt).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(attempt).rejects.toThrow(/bubblewrap \(bwrap\) was not found.*apt-get install -y bubblewrap.*--no-sandbox/s);
  });
});

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('executor session in the sandbox'), () => {
  let session: ExecutorSession;
  beforeAll(async () => {
    session = await createExecutorSession({ timeoutMs: 3000, swarmId: 'swarm-t' });
  });
  afterAll(() => session.close());

  it("runs the hook with bash as the sandbox user in /workspace with exactly the runtime's variables", async () => {
    const result = await session.runHook(hookScript('on_signal_received', 'echo "$(id -un):$(id -u) $PWD $0"; env | sort'), {
      agentId: 'env-1',
      iteration: 2,
    });
    expect(result.exitCode).toBe(0);
    const [first, ...envLines] = result.stdout.trimEnd().split('\n');
    expect(first).toBe('agent:1000 /workspace bash');
    const env = Object.fromEntries(envLines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    expect(env).toMatchObject({
      AGENT_ID: 'env-1',
      HOOK_NAME: 'on_signal_received',
      SWARM_ID: 'swarm-t',
      ITERATION: '2',
      HOME: '/home/agent',
    });
    expect(env.SIGNAL_DATA).toBeDefined();
    expect(env.WAIT_DURATION).toBeDefined();
    expect(env.TIMEOUT_DURATION).toBeUndefined();
    expect(Object.keys(env).filter((name) => /VITEST|NODE_OPTIONS|npm_/.test(name))).toEqual([]);
  });

  it("gives the hook's own bash the commands as functions (one process a call), and scripts to what does not look functions up", async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          'type -t redis-cli /sqlite-memory /eventbus /fleet',
          'bash -c "type -t /sqlite-memory"',
          '/sqlite-memory store --key fn --level agent --data 5 && /sqlite-memory retrieve --key fn --level agent',
          'command redis-cli SET viascript 1 && redis-cli GET viascript',
          'env /eventbus publish --type a.b --data {} --priority 7; echo "script=$?"',
        ].join('\n'),
      ),
      { agentId: 'functions-1' },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('function\nfunction\nfunction\nfunction\nfunction\n5\nOK\n1\nscript=0\n');
    expect(result.events).toHaveLength(1);
  });

  it('serves every /NAME through the one script behind its symlink, named by the path it was called by', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          'env /fleet status --swarm s1; echo "fleet=$?"',
          'xargs -0 /sqlite-memory store --level agent --key viaxargs --data < <(printf "7")',
          'command /sqlite-memory retrieve --level agent --key viaxargs',
          'test -L /fleet && test ! -L /run/vah/bin/slash/command && echo linked',
        ].join('\n'),
      ),
      { agentId: 'symlinks-1' },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('fleet=0\n7\nlinked\n');
    expect(result.operations.map((op) => (op.kind === 'command' ? op.command : op.kind))).toEqual(['/fleet', 'memory', 'memory']);
  });

  it.skipIf(findNativeHelper('vah-redis') === undefined)(
    "serves a hook's redis-cli and slash-command calls with the one-process helper, and hands other forms to redis-cli",
    async () => {
      const result = await session.runHook(
        hookScript(
          'pre',
          [
            'declare -f redis-cli __vah_call | grep -c /run/vah/bin/libexec/vah-redis',
            'grep -c vah-redis /usr/bin/redis-cli /run/vah/bin/slash/command',
            'redis-cli SET helper 1',
            'printf "from stdin" | redis-cli -x SET piped',
            'redis-cli -n 0 GET piped',
            'env redis-cli GET helper',
            '/sqlite-memory store --key viahelper --level agent --data 3 && /sqlite-memory retrieve --key viahelper --level agent',
          ].join('\n'),
        ),
        { agentId: 'helper-1' },
      );
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('2\n/usr/bin/redis-cli:1\n/run/vah/bin/slash/command:1\nOK\nOK\nfrom stdin\n1\n3\n');
      expect(result.operations.filter((op) => op.kind === 'redis').map((op) => op.command.join(' '))).toEqual([
        'SET helper 1',
        'SET piped from stdin',
        'GET piped',
        'GET helper',
      ]);
    },
  );

  it('traces memory writes, events, Redis commands and other slash commands with exact keys', async () => {
    const hook = hookScript(
      'on_blocking_start',
      [
        '/sqlite-memory store --key "agent:${AGENT_ID}:blocking:context" --level agent --data \'{"status":"blocked"}\'',
        '/sqlite-memory store --key "swarm:${SWARM_ID}:plan" --level swarm --data \'{"step":1}\'',
        '/eventbus publish --type agent.blocking.start --data "{\\"agent\\":\\"${AGENT_ID}\\"}" --priority 8',
        'redis-cli SETEX "swarm:t1:${AGENT_ID}:confidence" 3600 0.85 >/dev/null',
        'redis-cli -h redis.example -p 6380 GET "swarm:t1:${AGENT_ID}:confidence"',
        '/performance analyze --component x',
      ].join('\n'),
    );
    const result = await session.runHook(hook, { agentId: 'trace-1' });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('0.85\n');
    const kinds = result.operations.map((op) => op.kind);
    expect(kinds).toEqual(['memory', 'memory', 'event', 'redis', 'redis', 'command']);
    expect(result.operations[0]).toMatchObject({
      kind: 'memory',
      action: 'store',
      level: 'agent',
      key: 'agent:trace-1:blocking:context',
      outcome: 'ok',
      agentId: 'trace-1',
      runId: result.runId,
    });
    expect(result.operations[3]).toMatchObject({
      kind: 'redis',
      command: ['SETEX', 'swarm:t1:trace-1:confidence', '3600', '0.85'],
      reply: 'OK',
    });
    expect(result.operations[4]).toMatchObject({ kind: 'redis', command: ['GET', 'swarm:t1:trace-1:confidence'], reply: '0.85' });
    expect(result.operations[5]).toMatchObject({ kind: 'command', command: '/performance', args: ['analyze', '--component', 'x'] });
    expect(result.events).toEqual([
      expect.objectContaining({ type: 'agent.blocking.start', priority: 8, data: { agent: 'trace-1' }, agentId: 'trace-1' }),
    ]);
    expect(result.memory.filter((entry) => entry.owner === 'trace-1').map(({ level, key, value }) => ({ level, key, value }))).toEqual([
      { level: 'agent', key: 'agent:trace-1:blocking:context', value: '{"status":"blocked"}' },
      { level: 'swarm', key: 'swarm:swarm-t:plan', value: '{"step":1}' },
    ]);
    const times = result.operations.map((op) => op.t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times[0]!).toBeGreaterThanOrEqual(result.startedAt);
  });

  it('keeps agent-level memory private even when a hook claims another AGENT_ID', async () => {
    await session.runHook(hookScript('on_blocking_start', '/sqlite-memory store --key private:note --level agent --data \'"mine"\''), {
      agentId: 'owner-1',
    });
    const thief = await session.runHook(
      hookScript(
        'on_signal_received',
        [
          'export AGENT_ID=owner-1',
          '/sqlite-memory retrieve --key private:note --level agent; echo "status=$?"',
          'AGENT_ID=owner-1 /sqlite-memory delete --key private:note --level agent; echo "status=$?"',
          '/sqlite-memory list --level agent',
          "cd /run/vah && ls . run | tr '\\n' ' '",
        ].join('\n'),
      ),
      { agentId: 'thief-1', env: { AGENT_ID: 'owner-1' } },
    );
    expect(thief.stdout).toBe('status=1\nstatus=1\n.: bin control.sock env libexec redis.sock run  run: control.sock env redis.sock ');
    expect(thief.stderr).toMatch(/access denied: agent-level entry 'private:note' is private to agent 'owner-1'/);
    expect(
      thief.operations.filter((op): op is MemoryOperation => op.kind === 'memory').map((op) => [op.action, op.outcome, op.agentId]),
    ).toEqual([
      ['retrieve', 'denied', 'thief-1'],
      ['delete', 'denied', 'thief-1'],
      ['list', 'ok', 'thief-1'],
    ]);
    const owner = await session.runHook(hookScript('on_signal_received', '/sqlite-memory retrieve --key private:note --level agent'), {
      agentId: 'owner-1',
    });
    expect(owner.stdout).toBe('"mine"\n');
  });

  it("shares swarm memory, Redis and /tmp between agents, and keeps each agent's workspace to itself", async () => {
    await session.runHook(
      hookScript(
        'on_blocking_start',
        [
          '/sqlite-memory store --key shared --level swarm --data 42',
          'redis-cli RPUSH queue a b >/dev/null',
          'echo from-a > /tmp/shared-a.txt',
          'echo mine > notes.txt',
        ].join('\n'),
      ),
      { agentId: 'share-a' },
    );
    const b = await session.runHook(
      hookScript(
        'on_blocking_start',
        [
          '/sqlite-memory retrieve --key shared --level swarm',
          'redis-cli LRANGE queue 0 -1',
          'cat /tmp/shared-a.txt',
          'cat notes.txt 2>/dev/null || echo no-notes',
        ].join('\n'),
      ),
      { agentId: 'share-b' },
    );
    expect(b.stdout).toBe('42\na\nb\nfrom-a\nno-notes\n');
    const again = await session.runHook(hookScript('on_signal_received', 'cat notes.txt'), { agentId: 'share-a' });
    expect(again.stdout).toBe('mine\n');
    expect(readFileSync(join(await session.workspaceOf('share-a'), 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(await session.redis.call(['LLEN', 'queue'])).toBe(2);
  });

  it('runs hooks of several agents at once without mixing up who wrote what', async () => {
    const agents = ['par-1', 'par-2', 'par-3', 'par-4'];
    const results = await Promise.all(
      agents.map((agentId) =>
        session.runHook(
          hookScript(
            'on_blocking_start',
            [
              'for i in 1 2 3; do /sqlite-memory store --key "item:$i" --level agent --data "\\"${AGENT_ID}-$i\\"" || exit 9; done',
              'redis-cli INCR parallel-counter >/dev/null',
            ].join('\n'),
          ),
          { agentId },
        ),
      ),
    );
    for (const [i, result] of results.entries()) {
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.operations.every((op) => op.agentId === agents[i])).toBe(true);
      expect(result.operations.filter((op) => op.kind === 'memory')).toHaveLength(3);
    }
    const entries = (await session.memoryEntries()).filter((entry) => entry.key.startsWith('item:'));
    expect(entries).toHaveLength(12);
    expect(entries.every((entry) => entry.value === `"${entry.owner}-${entry.key.slice(5)}"`)).toBe(true);
    expect(await session.redis.call(['GET', 'parallel-counter'])).toBe('4');
  });

  it('traces a blocking Redis call with its wait', async () => {
    const result = await session.runHook(hookScript('on_blocking_start', 'redis-cli BLPOP never-filled 0.3'), { agentId: 'block-1' });
    const blpop = result.operations.find((op): op is RedisOperation => op.kind === 'redis');
    expect(blpop).toMatchObject({ command: ['BLPOP', 'never-filled', '0.3'], reply: null });
    expect(blpop!.durationMs).toBeGreaterThanOrEqual(250);
  });

  it('seeds a fresh workspace from a copy and leaves the original untouched', async () => {
    const { dir, remove } = tempDir();
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'app.js'), 'original\n');
      const seeded = await createExecutorSession({ workspaceSeed: dir, timeoutMs: 3000 });
      try {
        const result = await seeded.runHook(
          hookScript('pre', 'cat src/app.js; echo changed > src/app.js; rm -f src/app.js; touch new-file; ls'),
          { agentId: 'seed-1' },
        );
        expect(result.stdout).toBe('original\nnew-file\nsrc\n');
      } finally {
        await seeded.close();
      }
      expect(readFileSync(join(dir, 'src', 'app.js'), 'utf8')).toBe('original\n');
      expect(existsSync(join(dir, 'new-file'))).toBe(false);
    } finally {
      remove();
    }
  });

  it('starts reliably: twenty quick hooks in a row all run, with no stragglers', async () => {
    // bwrap dies of SIGPIPE if its info pipe is closed early; quick hooks made that show.
    for (let i = 0; i < 20; i++) {
      const result = await session.runHook(hookScript('pre', `echo ${i}`), { agentId: 'quick' });
      expect({ i, exitCode: result.exitCode, stdout: result.stdout, signal: result.signal, survivors: result.sandbox.survivors }).toEqual({
        i,
        exitCode: 0,
        stdout: `${i}\n`,
        signal: null,
        survivors: [],
      });
    }
  });

  it('reports a script it cannot start instead of throwing', async () => {
    const result = await session.runHook(hookScript('pre', 'echo a\0b'));
    expect(result.error).toMatch(/could not start/);
    expect(result.exitCode).toBeNull();
    expect(result.failed).toBe(true);
  });

  it('traces Redis commands the host sends, under the name it gives', async () => {
    expect(await session.callRedis(['LPUSH', 'swarm:t1:gate-passed', '1'], { agentId: 'orchestrator' })).toBe(1);
    const waiter = await session.runHook(hookScript('on_signal_received', 'redis-cli BLPOP swarm:t1:gate-passed 1'), { agentId: 'waiter' });
    expect(waiter.stdout).toBe('swarm:t1:gate-passed\n1\n');
    expect(session.trace.operations.find((op) => op.agentId === 'orchestrator')).toMatchObject({
      kind: 'redis',
      command: ['LPUSH', 'swarm:t1:gate-passed', '1'],
      reply: 1,
    });
  });

  it('waits for runs in progress before closing', async () => {
    const closing = await createExecutorSession({ timeoutMs: 3000 });
    const run = closing.runHook(hookScript('pre', 'sleep 0.3; /sqlite-memory store --key late --level project --data 1; echo stored'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await closing.close();
    expect((await run).stdout).toBe('stored\n');
    await expect(closing.runHook(hookScript('pre', 'true'))).rejects.toThrow(/closed/);
  });

  it('removes its directory on close', async () => {
    const temporary = await createExecutorSession({ timeoutMs: 2000 });
    await temporary.runHook(hookScript('pre', 'echo x > /tmp/file; echo y > here'));
    expect(existsSync(temporary.dir)).toBe(true);
    await temporary.close();
    expect(existsSync(temporary.dir)).toBe(false);
  });
});

describe.skipIf(sandboxMissing !== undefined || !hasRedisServer)(
  needsSandbox('executor session with --redis-url (a real redis-server)'),
  () => {
    it("sends and traces the hook's Redis commands to the real server", async () => {
      const redis = await startRealRedis();
      try {
        const session = await createExecutorSession({ redisUrl: `${redis.url}?db=2`, timeoutMs: 3000 });
        try {
          const result = await session.runHook(
            hookScript('on_blocking_start', 'redis-cli SET real-key 1 >/dev/null; redis-cli INCR real-key'),
            { agentId: 'real-1' },
          );
          expect(result.stdout).toBe('2\n');
          // The URL's SELECT is the proxy's connection setup, not the hook's: the trace shows what the hook sent.
          expect(result.operations.map((op) => op.kind === 'redis' && [op.command.join(' '), op.reply])).toEqual([
            ['SET real-key 1', 'OK'],
            ['INCR real-key', 2],
          ]);
        } finally {
          await session.close();
        }
        const { execFileSync } = await import('node:child_process');
        expect(execFileSync('redis-cli', ['-s', redis.socket, '-n', '2', 'GET', 'real-key'], { encoding: 'utf8' })).toBe('2\n');
      } finally {
        await redis.close();
      }
    });

    it('says which server it cannot reach', async () => {
      await expect(createExecutorSession({ redisUrl: 'unix:///nonexistent/redis.sock' })).rejects.toThrow(
        /cannot reach the Redis server at unix:\/nonexistent\/redis.sock/,
      );
    });
  },
);

describe.skipIf(!hasRedisCli)('executor session with --no-sandbox', () => {
  it('offers the same commands as bash functions, and kills what the hook left behind', async () => {
    const session = await createExecutorSession({ sandbox: 'none', timeoutMs: 2000 });
    const tag = 9000 + Math.floor(Math.random() * 900);
    try {
      const result = await session.runHook(
        hookScript(
          'pre',
          [
            '/sqlite-memory store --key k --level agent --data 1 && /sqlite-memory retrieve --key k --level agent',
            'bash -c "/eventbus publish --type a.b --data {} --priority 7"; echo "child=$?"',
            `setsid sleep ${tag}1 & nohup sleep ${tag}2 >/dev/null 2>&1 &`,
            'echo "$0 $PWD"',
          ].join('\n'),
        ),
        { agentId: 'loose' },
      );
      expect(result.stdout).toBe(`1\nchild=0\nbash ${await session.workspaceOf('loose')}\n`);
      expect(result.events).toHaveLength(1);
      expect(result.sandbox.mode).toBe('none');
      expect(result.sandbox.warnings[0]).toMatch(/^WARNING: --no-sandbox/);
      expect(result.sandbox.survivors).toHaveLength(2);
      expect(processesMatching(`sleep ${tag}`)).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
