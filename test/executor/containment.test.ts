import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCgroupRoot, SESSION_MEMORY_FACTOR } from '../../src/executor/cgroup.js';
import { createExecutorSession, type ExecutorSession, type HookRunResult } from '../../src/executor/session.js';
import { hookScript, needsSandbox, processesInNamespace, processesMatching, sandboxMissing } from './helpers.js';

/**
 * Hostile hooks. Each test states the limit that stops the hook and checks
 * the host afterwards: canary paths, and processes by PID.
 */

function expectNothingLeft(result: HookRunResult): void {
  expect(result.sandbox.survivors).toEqual([]);
  expect(result.sandbox.pidNamespace).toMatch(/^pid:\[\d+\]$/);
  expect(processesInNamespace(result.sandbox.pidNamespace!)).toEqual([]);
}

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('containment'), () => {
  let session: ExecutorSession;
  beforeAll(async () => {
    session = await createExecutorSession({ timeoutMs: 2000 });
  });
  afterAll(() => session.close());

  it('reports a hook that sleeps 100 s as timed out after the default 5 s, and kills it', async () => {
    const defaults = await createExecutorSession();
    try {
      const result = await defaults.runHook(hookScript('on_blocking_start', 'echo waiting; sleep 100; echo never'));
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(result.failed).toBe(true);
      expect(result.stdout).toBe('waiting\n');
      expect(result.sandbox.timeoutMs).toBe(5000);
      // A lower bound only (load can lengthen a run, never shorten it): the 5 s were waited out.
      expect(result.durationMs).toBeGreaterThanOrEqual(4990);
      expectNothingLeft(result);
    } finally {
      await defaults.close();
    }
  });

  it('kills background, nohup, disowned, setsid and double-forked children when the hook ends', async () => {
    const tag = 7000 + Math.floor(Math.random() * 900);
    const result = await session.runHook(
      hookScript(
        'on_blocking_start',
        [
          `sleep ${tag}1 &`,
          `nohup sleep ${tag}2 >/dev/null 2>&1 &`,
          `sleep ${tag}3 & disown`,
          `setsid sleep ${tag}4 &`,
          `setsid -f sleep ${tag}5`,
          `(bash -c "sleep ${tag}6 &" &)`,
          `bash -c 'trap "" TERM HUP; exec sleep ${tag}7' &`,
          'sleep 0.2',
          'pgrep -xc sleep',
        ].join('\n'),
      ),
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('7\n');
    expectNothingLeft(result);
    expect(processesMatching(`sleep ${tag}`)).toEqual([]);
  });

  it('kills the whole tree when the timeout strikes, TERM traps and all', async () => {
    const tag = 8000 + Math.floor(Math.random() * 900);
    const result = await session.runHook(
      hookScript(
        'on_blocking_start',
        ["trap '' TERM HUP INT", `setsid sleep ${tag}1 &`, `(while :; do sleep ${tag}2; done) &`, 'while :; do sleep 1; done'].join('\n'),
      ),
      { timeoutMs: 800 },
    );
    expect(result.timedOut).toBe(true);
    expectNothingLeft(result);
    expect(processesMatching(`sleep ${tag}`)).toEqual([]);
  });

  it('keeps writes to /tmp, $HOME, /root, /etc, /var/tmp, /dev/shm and above the workspace off the host', async () => {
    const id = randomBytes(6).toString('hex');
    const canary = `vah-canary-${id}`;
    const existing = `/tmp/vah-canary-existing-${id}`;
    writeFileSync(existing, 'original\n');
    const hostHome = homedir();
    const targets = [
      `/tmp/${canary}`,
      `${hostHome}/${canary}`,
      `/root/${canary}`,
      `/etc/${canary}`,
      `/var/tmp/${canary}`,
      `/dev/shm/${canary}`,
      `/${canary}`,
      `/usr/${canary}`,
    ];
    try {
      const result = await session.runHook(
        hookScript(
          'on_blocking_start',
          [
            ...targets.map((path) => `echo pwned > ${path} 2>/dev/null; echo "${path}=$?"`),
            `echo pwned > "$HOME/${canary}"; echo "home=$?"`,
            `echo pwned > ../${canary} 2>/dev/null; echo "parent=$?"`,
            `echo pwned > ${existing}; echo "existing=$?"`,
            `ln -s ${existing} link; echo pwned >> link 2>/dev/null; echo "symlink=$?"`,
            'echo pwned > /etc/passwd 2>/dev/null; echo "passwd=$?"',
          ].join('\n'),
        ),
      );
      expect(result.exitCode).toBe(0);
      for (const path of targets) expect(existsSync(path), path).toBe(false);
      expect(readFileSync(existing, 'utf8')).toBe('original\n');
      expect(readFileSync('/etc/passwd', 'utf8')).not.toContain('pwned');
      // Inside, /tmp and $HOME are the session's own: those writes succeed there and nowhere else.
      expect(result.stdout).toContain(`/tmp/${canary}=0`);
      expect(result.stdout).toContain('home=0');
      expect(result.stdout).toContain('/etc/vah-canary');
      expect(result.stdout).toMatch(/passwd=1/);
      expectNothingLeft(result);
    } finally {
      rmSync(existing, { force: true });
    }
  });

  it('has no network: a connection to a listener on the host fails and the listener sees nothing', async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const result = await session.runHook(
        hookScript(
          'on_blocking_start',
          [
            `echo hello > /dev/tcp/127.0.0.1/${port}; echo "tcp=$?"`,
            `curl -s --max-time 1 http://127.0.0.1:${port}/ >/dev/null; echo "curl=$?"`,
            'ls /sys/class/net 2>/dev/null | tr "\\n" " "; cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " " | tr "\\n" ","',
          ].join('\n'),
        ),
      );
      expect(result.stdout).toMatch(/^tcp=1\ncurl=[1-9]\d*\n/);
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('lo,');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("keeps the runtime's file-size limit: an 80 MiB file is written, one past 100 MiB stops there", async () => {
    // hooks "Resource Limits": `ulimit -f 102400`, in KiB.
    const result = await session.runHook(
      hookScript(
        'pre',
        'head -c 80M /dev/zero > a.bin; echo "a=$?"; rm a.bin; head -c 101M /dev/zero > b.bin; echo "b=$?"; stat -c %s b.bin',
      ),
      { agentId: 'writer' },
    );
    expect(result.stdout).toBe(`a=0\nb=153\n${102400 * 1024}\n`);
    // The kernel stopped the write (b=153, the file at the limit), but from outside that looks like a file written to that size.
    expect(result.limitsHit).not.toContain('file-size');
    expect(result.sandbox.warnings.join('\n')).toMatch(/exactly at the file-size limit/);
    expectNothingLeft(result);
  });

  it('stops a disk fill at the file-size limit, and the host keeps its space', async () => {
    const limited = await createExecutorSession({ timeoutMs: 3000, limits: { fileSizeBytes: 8 * 1024 * 1024 } });
    try {
      const result = await limited.runHook(hookScript('pre', 'head -c 200M /dev/zero > big.bin; echo "status=$?"; stat -c %s big.bin'), {
        agentId: 'filler',
      });
      expect(result.stdout).toBe('status=153\n8388608\n');
      expect(result.limitsHit).not.toContain('file-size');
      expect(result.sandbox.warnings.join('\n')).toMatch(/exactly at the file-size limit \(8388608 bytes\)/);
      expect(statSync(join(await limited.workspaceOf('filler'), 'big.bin')).size).toBe(8 * 1024 * 1024);
      expectNothingLeft(result);
    } finally {
      await limited.close();
    }
  });

  it('stops a fill made of many files at the disk budget', async () => {
    const limited = await createExecutorSession({ timeoutMs: 5000, limits: { diskBytes: 48 * 1024 * 1024 } });
    try {
      const result = await limited.runHook(
        hookScript('pre', 'for i in $(seq 400); do head -c 4M /dev/zero > f$i.bin; done; echo finished'),
        { agentId: 'many' },
      );
      expect(result.limitsHit).toContain('disk');
      expect(result.timedOut).toBe(false);
      const workspace = await limited.workspaceOf('many');
      if (result.sandbox.warnings.some((warning) => warning.includes('size-limited'))) {
        // Without root the budget is watched, and the hook is stopped when it passes it.
        expect(result.exitCode).toBeNull();
      } else {
        // A size-limited file system: writes past the budget fail with ENOSPC, and the hook carries on.
        expect(result.stderr).toMatch(/No space left on device/);
        expect(result.stdout).toBe('finished\n');
        const bytes = readdirSync(workspace).reduce((sum, name) => sum + statSync(join(workspace, name)).size, 0);
        expect(bytes).toBeLessThanOrEqual(48 * 1024 * 1024);
      }
      expect(readdirSync(workspace).filter((name) => statSync(join(workspace, name)).size === 4 * 1024 * 1024).length).toBeLessThanOrEqual(
        12,
      );
      expectNothingLeft(result);
    } finally {
      await limited.close();
    }
  });

  it('caps megabytes of output, and stops a hook that will not stop printing', async () => {
    const chatty = await session.runHook(hookScript('pre', "head -c 5000000 /dev/zero | tr '\\0' a; echo; echo done >&2"));
    expect(chatty.exitCode).toBe(0);
    expect(chatty.stdout.length).toBe(1024 * 1024);
    expect(chatty.stdoutBytes).toBe(5_000_001);
    expect(chatty.stderr).toBe('done\n');
    expect(chatty.limitsHit).toEqual(['output']);

    const noisy = await createExecutorSession({ timeoutMs: 5000, limits: { outputBytes: 1024, outputKillBytes: 4 * 1024 * 1024 } });
    try {
      const runaway = await noisy.runHook(hookScript('pre', 'yes'));
      expect(runaway.limitsHit).toContain('output');
      expect(runaway.timedOut).toBe(false);
      expect(runaway.stdout).toBe('y\n'.repeat(512));
      expectNothingLeft(runaway);
    } finally {
      await noisy.close();
    }
  });

  it('holds a fork bomb at the process limit, although the executor runs as root', async () => {
    const uid = 64_000 + Math.floor(Math.random() * 500);
    const limited = await createExecutorSession({ timeoutMs: 2500, limits: { processes: 40 }, sandboxHostUid: uid });
    let peak = 0;
    const sampler = setInterval(() => {
      let count = 0;
      for (const name of readdirSync('/proc')) {
        if (!/^\d+$/.test(name)) continue;
        try {
          if (statSync(`/proc/${name}`).uid === uid) count++;
        } catch {
          // Gone.
        }
      }
      peak = Math.max(peak, count);
    }, 15);
    try {
      const result = await limited.runHook(hookScript('pre', 'bomb() { bomb | bomb & }; bomb; sleep 2; echo survived'));
      // The count at the limit is seen and said; a refused fork is not observable from outside, so not claimed.
      expect(result.sandbox.warnings.join('\n')).toMatch(/processes reached \d+, at the process limit of 40/);
      expect(result.limitsHit).not.toContain('processes');
      expect(result.stderr).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
      expect(peak).toBeGreaterThan(5);
      // bwrap itself and its init run as the same user but outside the hook's user namespace count.
      expect(peak).toBeLessThanOrEqual(40 + 3);
      expectNothingLeft(result);
    } finally {
      clearInterval(sampler);
      await limited.close();
    }
  });

  it.skipIf(findCgroupRoot() === null)(
    `holds many memory-hungry processes to the sandbox's memory limit${findCgroupRoot() === null ? ' [skipped: needs root and a writable cgroup v1 or v2 memory controller]' : ''}`,
    async () => {
      const limited = await createExecutorSession({
        timeoutMs: 5000,
        limits: { memoryBytes: 128 * 1024 * 1024, dataBytes: 100 * 1024 * 1024 },
      });
      try {
        // Each process stays under its own data limit; together they are far over the sandbox's.
        const result = await limited.runHook(
          hookScript('pre', 'for i in $(seq 8); do (x=$(head -c 60000000 /dev/zero | tr "\\0" a); sleep 2) & done; wait; echo finished'),
        );
        expect(result.sandbox.cgroup).toMatch(/^v[12]$/);
        // Which process the kernel kills (a child, whose death bash reports, or the hook's shell) is its choice.
        expect(result.limitsHit).toContain('memory');
        expectNothingLeft(result);
      } finally {
        await limited.close();
      }
    },
  );

  it.skipIf(findCgroupRoot() === null)(
    `holds the sandboxes that run at once to ${SESSION_MEMORY_FACTOR} × the memory limit together${findCgroupRoot() === null ? ' [skipped: needs root and a writable cgroup v1 or v2 memory controller]' : ''}`,
    async () => {
      // A settings file's handlers run at once, each under its own limit: six of them must not take six times it.
      const limited = await createExecutorSession({
        timeoutMs: 8000,
        limits: { memoryBytes: 128 * 1024 * 1024, dataBytes: 100 * 1024 * 1024 },
      });
      try {
        // Two 25 MB strings a hook, held for 2 s: under its own 128 MiB, while eight of them are over the 256 MiB they share.
        const hog = 'for i in 1 2; do (x=$(head -c 25000000 /dev/zero | tr "\\0" a); sleep 2; echo "${#x}") & done; wait';
        const alone = await limited.runHook(hookScript('solo', hog));
        expect(alone).toMatchObject({ exitCode: 0, limitsHit: [], stdout: '25000000\n25000000\n' });
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => limited.runHook(hookScript(`h${i}`, hog))));
        expect(results.filter((r) => r.limitsHit.includes('memory')).length).toBeGreaterThan(0);
        for (const result of results) expectNothingLeft(result);
      } finally {
        await limited.close();
      }
      // The session's group went with it.
      const root = findCgroupRoot()!;
      expect(readdirSync(root.parent).filter((entry) => entry.startsWith(`vah-${basename(limited.dir)}`))).toEqual([]);
    },
  );

  it('ends a busy loop at the CPU-time limit with SIGXCPU', async () => {
    const limited = await createExecutorSession({ timeoutMs: 5000, limits: { cpuSeconds: 1 } });
    try {
      const result = await limited.runHook(hookScript('pre', 'while :; do :; done'));
      expect(result.signal).toBe('SIGXCPU');
      expect(result.exitCode).toBe(152);
      expect(result.limitsHit).toEqual(['cpu']);
      // The limit ended it, not the timeout (no wall-clock bound: the house rules keep durations out of tests).
      expect(result.timedOut).toBe(false);
    } finally {
      await limited.close();
    }
  });

  // On a host whose core_pattern pipes to a root helper, a core dump runs that helper on the host.
  it('keeps core dumps off: the hard limit is 0, and a hook cannot raise it', async () => {
    const result = await session.runHook(
      hookScript('pre', 'echo "hard=$(ulimit -H -c) soft=$(ulimit -S -c)"; ulimit -c unlimited 2>/dev/null && echo raised || echo refused'),
    );
    expect(result.stdout).toBe('hard=0 soft=0\nrefused\n');
  });

  it("denies privileged escapes as root: mount, remount, unshare, chroot, ptrace, and the executor's sockets", async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          'mount -t tmpfs none /tmp 2>/dev/null; echo "mount=$?"',
          'mount -o remount,rw / 2>/dev/null; echo "remount=$?"',
          'unshare -r true 2>/dev/null; echo "unshare=$?"',
          'chroot / true 2>/dev/null; echo "chroot=$?"',
          `strace -p ${process.pid} -o /dev/null 2>/dev/null; echo "ptrace-host=$?"`,
          `test -e /proc/${process.pid}; echo "host-pid-visible=$?"`,
          'echo "processes=$(ls -d /proc/[0-9]* | wc -l)"',
          'rm -f /run/vah/control.sock 2>/dev/null; echo "rm-socket=$?"',
          'touch /run/vah/evil 2>/dev/null; echo "socket-dir=$?"',
          'cat /proc/1/root/etc/shadow 2>/dev/null; echo "shadow=$?"',
          'grep -c . /proc/self/status >/dev/null; grep CapEff /proc/self/status',
        ].join('\n'),
      ),
    );
    const fields = Object.fromEntries(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/[=:]\s*/) as [string, string]),
    );
    for (const name of ['mount', 'remount', 'unshare', 'chroot', 'ptrace-host', 'host-pid-visible', 'rm-socket', 'socket-dir', 'shadow']) {
      expect(fields[name], name).toMatch(/^[1-9]\d*$/);
    }
    // bwrap's init, the hook's shell and the pipeline: nothing of the host.
    expect(Number(fields.processes)).toBeLessThan(8);
    expect(fields.CapEff).toBe('0000000000000000');
    expectNothingLeft(result);
  });

  // Node's pipes are socket pairs, and a `bash -c` whose stdin is a socket and whose SHLVL is unset
  // takes itself for a shell sshd started: it runs /etc/bash.bashrc and ~/.bashrc first. The
  // executor's own launchers start that way; a hook could plant a ~/.bashrc in its agent's home
  // (which lasts the session) and have it run in the next hook's launcher, before its limits.
  it("runs no rc file in the executor's own shells: a ~/.bashrc a hook plants is not run before the next hook's limits", async () => {
    const plant = await session.runHook(
      hookScript(
        'pre',
        ['printf \'%s\\n\' \'echo "rc ran: $(ulimit -t)" >&2\' \'echo x > "$HOME/rc-ran"\' > "$HOME/.bashrc"', 'echo planted'].join('\n'),
      ),
      { agentId: 'rc-1' },
    );
    expect(plant.stdout).toBe('planted\n');
    const next = await session.runHook(hookScript('post', 'test -e "$HOME/rc-ran"; echo "rc-file=$?"; cat "$HOME/.bashrc" | wc -l'), {
      agentId: 'rc-1',
    });
    expect(next.stderr).toBe('');
    expect(next.stdout).toBe('rc-file=1\n2\n');
  });
});
