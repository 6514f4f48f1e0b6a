import { basename, dirname, join, relative } from 'node:path';
import { findExecutable } from './host.js';
import { probeBwrap } from './sandbox.js';
import { writeSandboxEtc } from './sandbox-etc.js';
import type { SessionFs } from './session-fs.js';
import { controlShim, redisCliShim, shellFunctions, SANDBOX_PATHS } from './shims.js';
import { SandboxUnavailableError, type ExecutorSessionOptions, type SandboxMode } from './session-types.js';

/**
 * The parts of an executor session made once, before any hook runs: who the
 * sandbox runs as, which bwrap and redis-cli it uses, and the session's files
 * (its directories, the redis-cli shim, the commands' functions and shims).
 */

export interface SandboxIdentity {
  /** Host user and group the sandbox runs as. */
  hostUid: number;
  hostGid: number;
  isRoot: boolean;
  /** Set when a root executor hands the sandbox's directories to the unprivileged sandbox user. */
  sandboxOwner?: { uid: number; gid: number };
}

export function sandboxIdentity(options: ExecutorSessionOptions, mode: SandboxMode): SandboxIdentity {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) return { hostUid: process.getuid?.() ?? 0, hostGid: process.getgid?.() ?? 0, isRoot };
  const hostUid = options.sandboxHostUid ?? 65534;
  const hostGid = options.sandboxHostGid ?? options.sandboxHostUid ?? 65534;
  return { hostUid, hostGid, isRoot, ...(mode === 'bwrap' ? { sandboxOwner: { uid: hostUid, gid: hostGid } } : {}) };
}

/** The bwrap to use, or the reason there is none (thrown as SandboxUnavailableError). */
export function requireBwrap(identity: SandboxIdentity, searchPath: string | undefined): { path: string; version?: string } {
  const availability = probeBwrap({
    ...(identity.isRoot ? { hostUid: identity.hostUid, hostGid: identity.hostGid } : {}),
    ...(searchPath !== undefined ? { searchPath } : {}),
  });
  if (!availability.ok) throw new SandboxUnavailableError(availability.problem);
  return { path: availability.path ?? 'bwrap', ...(availability.version ? { version: availability.version } : {}) };
}

export function requireRedisCli(): string {
  const found = findExecutable('redis-cli');
  if (found) return found;
  throw new SandboxUnavailableError(
    'redis-cli was not found on PATH; the sandbox uses it to carry /sqlite-memory, /eventbus and ' +
      'redis-cli calls. Install it (Debian/Ubuntu: `apt-get install -y redis-tools`).',
  );
}

export interface SessionPaths {
  dir: string;
  binDir: string;
  etcDir: string;
  privateDir: string;
  tmpDir: string;
  agentsDir: string;
}

export function sessionPaths(dir: string, writablePath: string): SessionPaths {
  return {
    dir,
    binDir: join(dir, 'bin'),
    etcDir: join(dir, 'etc'),
    privateDir: join(dir, 'private'),
    tmpDir: join(writablePath, 'tmp'),
    agentsDir: join(writablePath, 'agents'),
  };
}

/**
 * What every sandbox binds, made before any can start: the session's
 * directories (outside the writable area, which may still be being mounted
 * meanwhile), the redis-cli shim bound over the host's redis-cli, and /etc.
 */
export async function writeLaunchFiles(paths: SessionPaths, helper: string | undefined, fs: SessionFs): Promise<{ etcBinds: string[] }> {
  await Promise.all([paths.binDir, paths.etcDir].map((path) => fs.mkdir(path, 0o755)));
  // Each run's sockets live in a directory only the sandbox's user can enter; the fakes' own sockets in one only we can.
  await Promise.all([fs.mkdir(join(paths.dir, 'runs'), 0o711), fs.mkdir(paths.privateDir, 0o700)]);
  await fs.writeFile(
    join(paths.binDir, 'redis-cli'),
    redisCliShim({ ...shimClient(helper), redisSocket: SANDBOX_PATHS.redisSocket }),
    0o755,
  );
  return { etcBinds: await writeSandboxEtc(paths.etcDir, fs) };
}

/** The files in the bound bin directory the hook's commands run (the slash commands' shim, the Redis helper). */
export async function writeCommandFiles(paths: SessionPaths, helper: string | undefined, fs: SessionFs): Promise<void> {
  await Promise.all([
    writeSlashShim(paths.binDir, shimClient(helper), fs),
    helper ? placeHelper(helper, join(paths.binDir, relative(SANDBOX_PATHS.binDir, SANDBOX_PATHS.redisHelper)), fs) : undefined,
  ]);
}

function shimClient(helper: string | undefined): { redisCli: string; redisHelper?: string } {
  return { redisCli: SANDBOX_PATHS.realRedisCli, ...(helper ? { redisHelper: SANDBOX_PATHS.redisHelper } : {}) };
}

/**
 * The helper goes into the session's bin directory (bound into the sandbox),
 * because the sandbox's user may not reach the package's own directory; a
 * hard link where it can be one, else a copy.
 */
async function placeHelper(helper: string, target: string, fs: SessionFs): Promise<void> {
  await fs.mkdir(dirname(target), 0o755);
  // A copy keeps the helper's mode (libuv's copyfile sets it).
  await fs.link(helper, target).catch(() => fs.copyFile(helper, target));
}

/** The directories in the writable area: the agents' and the shared /tmp. */
export async function makeAreaDirs(paths: SessionPaths, sandboxOwner: SandboxIdentity['sandboxOwner'], fs: SessionFs): Promise<void> {
  await fs.mkdir(paths.agentsDir, 0o755);
  await fs.mkdir(paths.tmpDir, 0o1777);
  await fs.chmod(paths.tmpDir, 0o1777);
  if (sandboxOwner) await fs.chown(paths.tmpDir, sandboxOwner.uid, sandboxOwner.gid);
}

/**
 * Functions for every command a run may call, grown as hooks name new ones;
 * replaced whole (rename), so a sandbox that is starting reads either the old
 * file or the new one.
 */
export function functionsWriter(binDir: string, helper: boolean, fs: SessionFs): (names: readonly string[]) => Promise<void> {
  const functionNames = new Set<string>();
  let functionsWritten: Promise<void> = Promise.resolve();
  return (names) => {
    if (names.every((name) => functionNames.has(name))) return functionsWritten;
    for (const name of names) functionNames.add(name);
    const text = shellFunctions({
      redisCli: SANDBOX_PATHS.realRedisCli,
      ...(helper ? { redisHelper: SANDBOX_PATHS.redisHelper } : {}),
      redisSocket: SANDBOX_PATHS.redisSocket,
      controlSocket: SANDBOX_PATHS.controlSocket,
      commands: [...functionNames].sort(),
    });
    const target = join(binDir, basename(SANDBOX_PATHS.functions));
    const next = `${target}.${functionNames.size}`;
    functionsWritten = functionsWritten.then(async () => {
      await fs.writeFile(next, text, 0o644);
      await fs.rename(next, target);
    });
    return functionsWritten;
  };
}

/** The one script behind every slash command's /NAME, written once per session under binDir. */
async function writeSlashShim(binDir: string, client: { redisCli: string; redisHelper?: string }, fs: SessionFs): Promise<void> {
  const dir = join(binDir, basename(dirname(SANDBOX_PATHS.slashShim)));
  await fs.mkdir(dir, 0o755);
  await fs.writeFile(
    join(dir, basename(SANDBOX_PATHS.slashShim)),
    controlShim({ ...client, controlSocket: SANDBOX_PATHS.controlSocket }),
    0o755,
  );
}
