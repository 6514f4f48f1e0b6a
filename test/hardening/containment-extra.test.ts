import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutorSession, type ExecutorSession, type HookRunResult } from '../../src/executor/index.js';
import { hookScript, needsSandbox, processesInNamespace, processesMatching, sandboxMissing, tempDir } from '../executor/helpers.js';

/**
 * Hostile hooks beyond test/executor/containment.test.ts (which covers the
 * default timeout, background children, writes to host paths, the network,
 * file-size and disk limits, output, fork bombs, the memory cgroup, SIGXCPU
 * and the basic mount/unshare/chroot/ptrace probes). Each test checks the
 * host afterwards: canary files and directories, and processes by PID.
 */

function expectNothingLeft(result: HookRunResult): void {
  expect(result.sandbox.survivors).toEqual([]);
  expect(result.sandbox.pidNamespace).toMatch(/^pid:\[\d+\]$/);
  expect(processesInNamespace(result.sandbox.pidNamespace!)).toEqual([]);
}

/** `name=status` lines of a hook's output. */
function fields(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** A host directory with a file whose content must never change, and a listing that must never change. */
function canaryDir(): { dir: string; file: string; check: () => void; remove: () => void } {
  const { dir, remove } = tempDir('vah-canary-');
  const file = join(dir, 'canary.txt');
  writeFileSync(file, 'original\n');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'keep.txt'), 'keep\n');
  return {
    dir,
    file,
    remove,
    check: () => {
      expect(readFileSync(file, 'utf8')).toBe('original\n');
      expect(readdirSync(dir).sort()).toEqual(['canary.txt', 'sub']);
      expect(readFileSync(join(dir, 'sub', 'keep.txt'), 'utf8')).toBe('keep\n');
    },
  };
}

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('containment, hostile hooks (hardening)'), () => {
  let session: ExecutorSession;
  beforeAll(async () => {
    session = await createExecutorSession({ timeoutMs: 2000 });
  });
  afterAll(() => session.close());

  it('denies escapes through /proc/1/root, nsenter, nested namespaces, bind mounts, pivot_root and remounts of each writable bind', async () => {
    const canary = canaryDir();
    try {
      const result = await session.runHook(
        hookScript(
          'pre',
          [
            `echo pwned > /proc/1/root${canary.file} 2>/dev/null; echo "proc1root=$?"`,
            `echo pwned > /proc/self/root${canary.file} 2>/dev/null; echo "procselfroot=$?"`,
            `ls /proc/1/root${canary.dir} >/dev/null 2>&1; echo "proc1root-list=$?"`,
            'nsenter -t 1 -m -U -p true 2>/dev/null; echo "nsenter=$?"',
            'unshare -U -r true 2>/dev/null; echo "unshare-user=$?"',
            'unshare -m true 2>/dev/null; echo "unshare-mount=$?"',
            'unshare -p -f true 2>/dev/null; echo "unshare-pid=$?"',
            'unshare -n true 2>/dev/null; echo "unshare-net=$?"',
            'mount --bind /workspace /usr 2>/dev/null; echo "bind=$?"',
            'mount -o remount,rw /usr 2>/dev/null; echo "remount-usr=$?"',
            'mount -o remount,rw,exec,suid /workspace 2>/dev/null; echo "remount-ws=$?"',
            'mount -o remount,rw /run/vah 2>/dev/null; echo "remount-run=$?"',
            'mkdir -p /workspace/new && pivot_root /workspace /workspace/new 2>/dev/null; echo "pivot=$?"',
            'touch /usr/vah-canary 2>/dev/null; echo "usr-write=$?"',
            'echo 1 > /proc/sys/kernel/core_pattern 2>/dev/null; echo "sysctl=$?"',
            'echo c > /proc/sysrq-trigger 2>/dev/null; echo "sysrq=$?"',
            'dd if=/dev/zero of=/proc/1/mem bs=1 count=1 2>/dev/null; echo "proc1mem=$?"',
            `strace -f -p 1 -o /dev/null -e trace=none true 2>/dev/null & sleep 0.2; kill %1 2>/dev/null; echo "ptrace-init-done=1"`,
          ].join('\n'),
        ),
      );
      const f = fields(result.stdout);
      for (const name of [
        'proc1root',
        'procselfroot',
        'proc1root-list',
        'nsenter',
        'unshare-user',
        'unshare-mount',
        'unshare-pid',
        'unshare-net',
        'bind',
        'remount-usr',
        'remount-ws',
        'remount-run',
        'pivot',
        'usr-write',
        'sysctl',
        'sysrq',
        'proc1mem',
      ]) {
        expect(f[name], name).toMatch(/^[1-9]\d*$/);
      }
      expect(existsSync('/usr/vah-canary')).toBe(false);
      canary.check();
      expectNothingLeft(result);
    } finally {
      canary.remove();
    }
  });

  it("keeps symlinks out of the workspace harmless: planted by the hook, or brought in by the workspace seed, and through the session's clean-up", async () => {
    const canary = canaryDir();
    const seed = tempDir('vah-seed-');
    symlinkSync(canary.file, join(seed.dir, 'link-to-host-file'));
    symlinkSync(canary.dir, join(seed.dir, 'link-to-host-dir'));
    symlinkSync('/', join(seed.dir, 'link-to-root'));
    const own = await createExecutorSession({ timeoutMs: 2000, workspaceSeed: seed.dir });
    try {
      const result = await own.runHook(
        hookScript(
          'pre',
          [
            'echo pwned >> link-to-host-file 2>/dev/null; echo "seed-file=$?"',
            'echo pwned > link-to-host-dir/new 2>/dev/null; echo "seed-dir=$?"',
            'rm -rf link-to-host-dir/sub 2>/dev/null; echo "seed-rm=$?"',
            `ln -s ${canary.dir} /workspace/planted; ln -s ${canary.dir} "$HOME/planted"; ln -s ${canary.dir} /tmp/planted; ln -s / /workspace/root; echo "planted=$?"`,
            `mkdir -p ${canary.dir} 2>/dev/null; echo pwned > ${canary.file} 2>/dev/null; echo "direct=$?"`,
          ].join('\n'),
        ),
        { agentId: 'linker' },
      );
      expect(result.exitCode).toBe(0);
      expect(fields(result.stdout).planted).toBe('0');
      canary.check();
      expectNothingLeft(result);
      // The session removes its directory, planted links and all, without following them.
      await own.close();
      canary.check();
      expect(existsSync(own.dir)).toBe(false);
      expect(readlinkTargets(seed.dir)).toEqual([canary.dir, canary.file, '/'].sort());
    } finally {
      await own.close().catch(() => undefined);
      seed.remove();
      canary.remove();
    }
  });

  it('keeps the bound sockets working when the hook attacks their directory, and the next run still reaches Redis', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          'mv /run/vah/redis.sock /run/vah/gone 2>/dev/null; echo "mv=$?"',
          'ln -sf /tmp/fake.sock /run/vah/redis.sock 2>/dev/null; echo "replace=$?"',
          'chmod 000 /run/vah/redis.sock 2>/dev/null; echo "chmod=$?"',
          'mkdir /run/vah/x 2>/dev/null; echo "mkdir=$?"',
          'rm -rf /run/vah/bin 2>/dev/null; echo "rm-bin=$?"',
          'echo pwned > /run/vah/bin/redis-cli 2>/dev/null; echo "overwrite-cli=$?"',
        ].join('\n'),
      ),
      { agentId: 'vandal' },
    );
    const f = fields(result.stdout);
    for (const name of ['mv', 'replace', 'chmod', 'mkdir', 'rm-bin', 'overwrite-cli']) expect(f[name], name).toMatch(/^[1-9]\d*$/);
    expectNothingLeft(result);
    const next = await session.runHook(hookScript('pre', 'redis-cli SET hardening:key ok >/dev/null && redis-cli GET hardening:key'), {
      agentId: 'after',
    });
    expect(next.stdout).toBe('ok\n');
  });

  it('holds open files to the descriptor limit, which the hook cannot raise', async () => {
    const limited = await createExecutorSession({ timeoutMs: 4000, limits: { openFiles: 64 } });
    try {
      const result = await limited.runHook(
        hookScript(
          'pre',
          [
            'ulimit -n 100000 2>/dev/null; echo "raise=$?"',
            'n=0; for i in $(seq 1000); do exec {fd}<>/dev/null 2>/dev/null || break; n=$((n+1)); done; echo "opened=$n"',
            'python3 -c "import os\nfs=[]\ntry:\n  [fs.append(os.open(\'/dev/null\', 0)) for _ in range(100000)]\nexcept OSError as e: print(\'py=\'+str(len(fs)))" 2>/dev/null || echo "py=absent"',
          ].join('\n'),
        ),
      );
      const f = fields(result.stdout);
      expect(f.raise).toMatch(/^[1-9]\d*$/);
      expect(Number(f.opened)).toBeGreaterThan(10);
      expect(Number(f.opened)).toBeLessThanOrEqual(64);
      if (f.py !== 'absent') expect(Number(f.py)).toBeLessThanOrEqual(64);
      expectNothingLeft(result);
    } finally {
      await limited.close();
    }
  });

  it('stops one process that eats memory at its data limit, quickly, with no cgroup needed', async () => {
    const limited = await createExecutorSession({ timeoutMs: 5000, limits: { dataBytes: 64 * 1024 * 1024 } });
    try {
      const result = await limited.runHook(
        hookScript('pre', 'x=$(head -c 300000000 /dev/zero | tr "\\0" a); echo "len=${#x}"; y=a; while :; do y=$y$y; done'),
      );
      expect(result.timedOut).toBe(false);
      expect(result.limitsHit).toContain('memory');
      expect(result.stderr).toMatch(/cannot allocate|Cannot allocate memory/);
      expect(result.durationMs).toBeLessThan(4000);
      expectNothingLeft(result);
    } finally {
      await limited.close();
    }
  });

  it('cannot signal the host: kill -9 -1 and kills of PID 1 inside leave a host canary process alive', async () => {
    const tag = `${9000 + Math.floor(Math.random() * 900)}${randomBytes(2).readUInt16BE(0) % 9}`;
    const hostCanary = spawn('sleep', [`${tag}.5`], { stdio: 'ignore' });
    try {
      const result = await session.runHook(
        hookScript(
          'pre',
          [
            `kill -9 ${hostCanary.pid!} 2>/dev/null; echo "host-pid=$?"`,
            'kill -TERM 1 2>/dev/null; kill -KILL 1 2>/dev/null; echo "init=$?"',
            'kill -9 -1 2>/dev/null; echo "all=$?"',
          ].join('\n'),
        ),
      );
      expect(result.stdout).toMatch(/host-pid=1\n/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(hostCanary.exitCode).toBeNull();
      expect(processesMatching(`sleep ${tag}.5`)).toEqual([hostCanary.pid]);
      expectNothingLeft(result);
      // The session is unharmed.
      const next = await session.runHook(hookScript('pre', 'echo still'));
      expect(next.stdout).toBe('still\n');
    } finally {
      hostCanary.kill('SIGKILL');
    }
  });

  it('ends a tree that ignores every catchable signal at the timeout', async () => {
    const tag = 6000 + Math.floor(Math.random() * 900);
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          "trap '' TERM INT HUP QUIT USR1 USR2 PIPE ALRM",
          `bash -c "trap '' TERM INT HUP QUIT; while :; do sleep ${tag}; done" &`,
          `setsid bash -c "trap '' TERM INT HUP; while :; do :; done" &`,
          'while :; do :; done',
        ].join('\n'),
      ),
      { timeoutMs: 700 },
    );
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(2000);
    expectNothingLeft(result);
    expect(processesMatching(`sleep ${tag}`)).toEqual([]);
  });

  it('kills busy loops and sleepers left behind when the hook exits at once, before they can act', async () => {
    const { dir: outside, remove } = tempDir('vah-late-');
    const own = await createExecutorSession({ timeoutMs: 3000 });
    try {
      const result = await own.runHook(
        hookScript(
          'pre',
          [
            '(while :; do :; done) & disown',
            'nohup bash -c "sleep 0.7; echo late > /workspace/late; echo late > /tmp/late" >/dev/null 2>&1 &',
            'setsid -f bash -c "trap \'\' HUP TERM; sleep 0.7; echo late > /workspace/late2"',
            'exit 0',
          ].join('\n'),
        ),
        { agentId: 'leaver' },
      );
      expect(result.exitCode).toBe(0);
      expect(result.durationMs).toBeLessThan(1500);
      expectNothingLeft(result);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const workspace = await own.workspaceOf('leaver');
      expect(readdirSync(workspace).filter((f) => f.startsWith('late'))).toEqual([]);
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      await own.close();
      remove();
    }
  });
});

function readlinkTargets(dir: string): string[] {
  return readdirSync(dir)
    .map((name) => readlinkSyncSafe(join(dir, name)))
    .sort();
}

function readlinkSyncSafe(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}
