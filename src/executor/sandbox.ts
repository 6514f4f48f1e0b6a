import { spawnSync } from 'node:child_process';
import { lstatSync, readlinkSync } from 'node:fs';
import { findExecutable } from './host.js';
import { probeKey, recalledProbe, rememberProbe } from '../cache/tool-probe.js';
import { HOOK_FILE_SIZE_LIMIT_BYTES } from '../runtime/contract.js';
import { SANDBOX_PATHS, shellQuote } from './shims.js';

/**
 * How a hook is confined. Everything here was measured on the target kind of
 * machine (root in a VM, bubblewrap 0.8):
 *
 * - bubblewrap's PID namespace is what leaves no survivors: when the hook's
 *   shell ends or bwrap is killed, the kernel kills every process in the
 *   namespace, `setsid`/`nohup`/`disown` children included. Timeouts,
 *   process groups and `unshare -rn` alone all leave children behind.
 * - `ulimit -u` does not hold for root, and a user namespace that maps the
 *   sandbox user to host root does not change that (the kernel exempts the
 *   root user). So when the executor is root, bwrap itself runs as an
 *   unprivileged host user (`sandboxUid`), and the process limit holds.
 * - All capabilities are dropped and nested user namespaces are disabled, so
 *   `mount`, remounts and `unshare -r` fail inside.
 * - Node crashes under an address-space limit (`ulimit -v`), and hooks run
 *   Node; the data-segment limit (`ulimit -d`) is used instead.
 */

export interface SandboxLimits {
  /** CPU seconds per process (`ulimit -t`). */
  cpuSeconds: number;
  /** Largest file a process may write (`ulimit -f`). */
  fileSizeBytes: number;
  /** Processes and threads of the sandbox user (`ulimit -u`). */
  processes: number;
  /** Open file descriptors per process (`ulimit -n`). */
  openFiles: number;
  /** Data segment per process (`ulimit -d`). */
  dataBytes: number;
  /** Bytes of stdout and of stderr kept; the rest is counted and dropped. */
  outputBytes: number;
  /** Output beyond which the hook is stopped rather than drained (a `yes` loop would otherwise run the timeout out). */
  outputKillBytes: number;
  /** Disk the run may consume in its writable directories, watched on the host. */
  diskBytes: number;
  /** Memory of the whole sandbox, when a control group can enforce it (root, cgroup v1 or v2). */
  memoryBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  cpuSeconds: 10,
  // The runtime's own `ulimit -f`: a hook that writes an 80 MB file there must not fail here.
  fileSizeBytes: HOOK_FILE_SIZE_LIMIT_BYTES,
  processes: 128,
  openFiles: 1024,
  dataBytes: 1024 * 1024 * 1024,
  outputBytes: 1024 * 1024,
  outputKillBytes: 64 * 1024 * 1024,
  diskBytes: 512 * 1024 * 1024,
  memoryBytes: 2 * 1024 * 1024 * 1024,
};

/** The user the hook runs as inside the sandbox. */
export const SANDBOX_USER = { name: 'agent', uid: 1000, gid: 1000 } as const;

export interface BwrapAvailability {
  ok: boolean;
  path?: string;
  version?: string;
  /** Why the sandbox cannot be used, with what to do about it. */
  problem?: string;
}

export const INSTALL_HINT =
  'Install bubblewrap (Debian/Ubuntu: `apt-get install -y bubblewrap`; Fedora: `dnf install bubblewrap`), ' +
  'or run with --no-sandbox to run the hook unconfined on this machine (not recommended).';

const availabilityCache = new Map<string, BwrapAvailability>();

/**
 * Whether bwrap exists and can build the sandbox here: a container without
 * user namespaces has the binary but cannot use it, and that should be said
 * before any hook runs.
 */
export function probeBwrap(
  options: { hostUid?: number; hostGid?: number; searchPath?: string; probeCacheFile?: string } = {},
): BwrapAvailability {
  const cacheKey = `${String(options.hostUid)}:${String(options.hostGid)}:${options.searchPath ?? ''}:${options.probeCacheFile ?? ''}`;
  const cached = availabilityCache.get(cacheKey);
  if (cached) return cached;
  const availability = probeUncached(options);
  availabilityCache.set(cacheKey, availability);
  return availability;
}

function probeUncached(options: { hostUid?: number; hostGid?: number; searchPath?: string; probeCacheFile?: string }): BwrapAvailability {
  const path = findExecutable('bwrap', options.searchPath);
  if (!path) return { ok: false, problem: `bubblewrap (bwrap) was not found on PATH. ${INSTALL_HINT}` };
  const key = probeKey(path, options.hostUid, options.hostGid);
  const cacheOptions = options.probeCacheFile === undefined ? {} : { file: options.probeCacheFile };
  const recalled = key === undefined ? undefined : recalledProbe(key, cacheOptions);
  if (recalled !== undefined) return { ok: true, path, version: recalled };
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' })
    .stdout.trim()
    .replace(/^bubblewrap\s*/, '');
  const probe = spawnSync(
    path,
    [
      '--unshare-all',
      '--unshare-user',
      '--die-with-parent',
      '--cap-drop',
      'ALL',
      ...systemBinds(),
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--',
      '/bin/true',
    ],
    {
      encoding: 'utf8',
      timeout: 5000,
      ...(options.hostUid === undefined ? {} : { uid: options.hostUid }),
      ...(options.hostGid === undefined ? {} : { gid: options.hostGid }),
    },
  );
  if (probe.status !== 0) {
    const detail = (
      probe.stderr ||
      probe.error?.message ||
      (probe.status === null ? `killed by ${probe.signal ?? 'a signal'}` : `exit status ${probe.status}`)
    ).trim();
    return {
      ok: false,
      path,
      version,
      problem:
        `bubblewrap is installed but cannot create a sandbox here (${detail}). ` +
        'It needs user namespaces: check `sysctl user.max_user_namespaces` (and on Ubuntu ' +
        '`kernel.apparmor_restrict_unprivileged_userns`), or run the container with them allowed. ' +
        'Alternatively run with --no-sandbox (not recommended).',
    };
  }
  if (key !== undefined) rememberProbe(key, version, cacheOptions);
  return { ok: true, path, version };
}

/** The host's system directories, bound read-only; merged-/usr systems get their symlinks back. */
export function systemBinds(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const name of ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32']) {
    const path = `/${name}`;
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
      else if (stat.isDirectory()) args.push('--ro-bind', path, path);
    } catch {
      // Not on this system.
    }
  }
  return args;
}

export interface SandboxPlan {
  /** The hook's script, run as `bash -c SCRIPT` as the runtime does. */
  script: string;
  limits: SandboxLimits;
  /** Host directories bound read-write. */
  workspaceDir: string;
  homeDir: string;
  tmpDir: string;
  /** Host directory bound read-only at /etc (src/executor/sandbox-etc.ts). */
  etcDir: string;
  /** Pieces of the host's /etc bound on top of it, each where etcDir has its mount point. */
  etcBinds: readonly string[];
  /** Host directory of the shims, bound read-only at /run/vah/bin. */
  binDir: string;
  /**
   * Host directory of the run's sockets and environment file (RUN_FILES),
   * bound read-only at SANDBOX_PATHS.runFiles: they may be made after bwrap
   * has started, while the sandbox waits at its gate.
   */
  runDir: string;
  /** The host's redis-cli, bound where the shims expect it. */
  realRedisCli: string;
  /** Where the host's PATH has redis-cli, so the wrapper covers absolute calls too. */
  redisCliLocations: string[];

  /** Slash commands made at `/NAME`, each a symlink to the one shim in binDir (`SANDBOX_PATHS.slashShim`). */
  slashCommands: readonly string[];
  /** File descriptor bwrap writes its child's PID to. */
  infoFd: number;
  /** A size-limited tmpfs (bytes) for the sandbox's own scratch places (/dev/shm). */
  shmBytes?: number;
  /** Descriptor bwrap reads its seccomp filter from (seccomp.ts), when there is one. */
  seccompFd?: number;
  /** A command line to exec instead of `bash -c script` (Claude Code's `sh -c` and exec forms). */
  argv?: readonly string[];
  /**
   * File descriptor the sandbox writes one byte to, and closes, once it is set
   * up and the hook's own process is about to start: the hook's time budget starts there.
   */
  startFd?: number;
  /**
   * File descriptor the sandbox, once set up, reads a line from before it
   * reads the hook's environment: the host sends it when what the hook needs
   * from it (sockets, environment, commands) is ready, so bwrap's own set-up
   * overlaps the host's.
   */
  gateFd?: number;
}

/** The run's files in its directory (SandboxPlan.runDir), each reached in the sandbox through a symlink. */
export const RUN_FILES = { controlSocket: 'control.sock', redisSocket: 'redis.sock', env: 'env' } as const;

/** Shell words that report "the hook starts now" on `fd` and close it, so the hook never sees it. */
export function startMarker(fd: number): string {
  return `{ printf . >&${fd}; } 2>/dev/null; exec ${fd}>&-`;
}

/** Where the hook's environment file appears inside the sandbox. */
export const SANDBOX_ENV_FILE = '/run/vah/env';

/**
 * Shell words that close every descriptor above 2 except `keep`. A caller
 * (a CI runner, a `flock` wrapper, `run … 30</`) may leave descriptors open
 * without close-on-exec; Node and bwrap pass them on, and a directory
 * descriptor is the host's file system through `/proc/self/fd/N`. The glob
 * lists the shell's own descriptors; closing one that is already closed
 * (the glob's own, say) is not an error in bash.
 */
export function closeInheritedFds(keep: readonly number[] = []): string {
  const kept = ['0', '1', '2', ...keep.map(String)].join('|');
  return `for vah_fd in /proc/self/fd/*; do vah_fd=\${vah_fd##*/}; case $vah_fd in ${kept}|*[!0-9]*) ;; *) eval "exec $vah_fd>&-";; esac; done; unset vah_fd`;
}

/**
 * The environment file: NUL-separated `KEY=VALUE` entries. The hook's
 * variables travel in it rather than in the environment of bwrap or of the
 * launching shell, so a `--env LD_PRELOAD=…` or `BASH_ENV=…` reaches the
 * hook and nothing that runs before its limits are in place.
 */
export function environmentFileText(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([key, value]) => `${key}=${value}\0`)
    .join('');
}

/**
 * How the executor's own shells start (the launcher here, the trampoline
 * before bwrap): `--norc`, because Node's pipes are socket pairs, and a
 * `bash -c` whose stdin is a socket and whose SHLVL is unset takes itself for
 * a shell started by sshd and first runs /etc/bash.bashrc and ~/.bashrc. In
 * the sandbox that ~/.bashrc is the agent's home, which lasts the session: a
 * hook could plant one to run in the next hook's launcher before its limits.
 * On the host it is the host's own. (The hook's bash gets SHLVL 2, and so
 * reads no rc file either: src/executor/hook-run.ts.)
 */
export const LAUNCHER_SHELL = ['--norc', '-c'] as const;

/**
 * `bash -c` arguments that start a hook: close inherited descriptors, set the
 * limits, export the hook's environment from `envFile`, then become
 * `bash -c SCRIPT` exactly as the runtime runs it. The launching shell itself
 * starts with an empty environment, and with `--norc` (see LAUNCHER_SHELL).
 */
export function hookLauncherArgs(
  script: string,
  envFile: string,
  limits: SandboxLimits,
  options: { processLimit?: boolean; argv?: readonly string[] | undefined; startFd?: number | undefined; gateFd?: number | undefined } = {},
): string[] {
  const kept = [options.startFd, options.gateFd].filter((fd): fd is number => fd !== undefined);
  const gate = options.gateFd !== undefined ? `read -r -u ${options.gateFd} _ || exit 125; exec ${options.gateFd}<&-; ` : '';
  const prelude =
    `${closeInheritedFds(kept)}; ${gate}${limitsPrelude(limits, options)} || exit 125; ` +
    `while IFS= read -r -d '' vah_kv; do export "$vah_kv" 2>/dev/null; done < "$1"; unset vah_kv; shift; ` +
    (options.startFd !== undefined ? `${startMarker(options.startFd)}; ` : '');
  // Claude Code's `sh -c` and exec forms run their own command line instead of `bash -c SCRIPT`.
  if (options.argv) return [...LAUNCHER_SHELL, `${prelude}exec "$@"`, 'vah-limits', envFile, ...options.argv];
  return [...LAUNCHER_SHELL, `${prelude}exec -a bash /bin/bash -c "$1"`, 'vah-limits', envFile, script];
}

/**
 * The `ulimit` line run before the hook. Without a sandbox the process limit
 * is left out: it would count every process the user has on the machine.
 */
export function limitsPrelude(limits: SandboxLimits, options: { processLimit?: boolean } = {}): string {
  const kib = (bytes: number): number => Math.max(1, Math.floor(bytes / 1024));
  const cpu = Math.max(1, Math.ceil(limits.cpuSeconds));
  return [
    // A hard limit one second above the soft one: SIGXCPU (reported as such) comes before the kernel's SIGKILL.
    `ulimit -S -t ${cpu}`,
    `ulimit -H -t ${cpu + 1}`,
    `ulimit -f ${kib(limits.fileSizeBytes)}`,
    ...(options.processLimit === false ? [] : [`ulimit -u ${limits.processes}`]),
    `ulimit -n ${limits.openFiles}`,
    `ulimit -d ${kib(limits.dataBytes)}`,
    // No core dumps, hard: on a host whose core_pattern pipes to a root helper (apport, systemd-coredump),
    // a hook that raised its own limit would have that helper run on the host with the hook's memory.
    'ulimit -H -c 0',
  ].join(' && ');
}

/**
 * The complete bwrap command line for one run. Order matters to bwrap:
 * later mounts cover earlier ones, and `--remount-ro /` comes after
 * everything has been created in the root.
 */
export function bwrapArguments(plan: SandboxPlan): string[] {
  const args = [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--cap-drop',
    'ALL',
    '--uid',
    String(SANDBOX_USER.uid),
    '--gid',
    String(SANDBOX_USER.gid),
    '--hostname',
    'vah-sandbox',
    ...systemBinds(),
  ];
  args.push('--ro-bind', plan.etcDir, '/etc');
  for (const piece of plan.etcBinds) args.push('--ro-bind-try', `/etc/${piece}`, `/etc/${piece}`);
  args.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // No pseudo-terminals: the kernel's pool of them is the host's (kernel.pty.max, 4096 less 1024 kept
    // for the host's own terminals), and one hook opening /dev/ptmx 3071 times took all the rest from every
    // container and sandbox on the machine while it ran. The runtime gives hooks pipes, not a terminal.
    '--ro-bind',
    '/dev/null',
    '/dev/pts/ptmx',
    '--size',
    String(plan.shmBytes ?? 1024 * 1024),
    '--tmpfs',
    '/dev/shm',
    '--bind',
    plan.tmpDir,
    SANDBOX_PATHS.tmp,
    '--bind',
    plan.homeDir,
    SANDBOX_PATHS.home,
    '--bind',
    plan.workspaceDir,
    SANDBOX_PATHS.workspace,
    '--ro-bind',
    plan.binDir,
    SANDBOX_PATHS.binDir,
    '--ro-bind',
    plan.realRedisCli,
    SANDBOX_PATHS.realRedisCli,
    '--ro-bind',
    plan.runDir,
    SANDBOX_PATHS.runFiles,
    '--symlink',
    `${SANDBOX_PATHS.runFiles}/${RUN_FILES.controlSocket}`,
    SANDBOX_PATHS.controlSocket,
    '--symlink',
    `${SANDBOX_PATHS.runFiles}/${RUN_FILES.redisSocket}`,
    SANDBOX_PATHS.redisSocket,
    '--symlink',
    `${SANDBOX_PATHS.runFiles}/${RUN_FILES.env}`,
    SANDBOX_ENV_FILE,
  );
  for (const location of plan.redisCliLocations) args.push('--ro-bind', `${plan.binDir}/redis-cli`, location);
  // Symlinks into the bound binDir: one file, and no bind mount a command.
  for (const name of plan.slashCommands) args.push('--symlink', SANDBOX_PATHS.slashShim, `/${name}`);
  args.push(
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    SANDBOX_PATHS.workspace,
    '--info-fd',
    String(plan.infoFd),
    ...(plan.seccompFd !== undefined ? ['--seccomp', String(plan.seccompFd)] : []),
    '--',
    '/bin/bash',
    ...hookLauncherArgs(plan.script, SANDBOX_ENV_FILE, plan.limits, { argv: plan.argv, startFd: plan.startFd, gateFd: plan.gateFd }),
  );
  return args;
}

/** A shell-ready rendering of a command line, for `--verbose` and error messages. */
export function renderCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}
