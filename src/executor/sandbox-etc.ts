import { lstatSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionFs } from './session-fs.js';
import { SANDBOX_PATHS } from './shims.js';
import { SANDBOX_USER } from './sandbox.js';

/**
 * The sandbox's /etc: one directory of the session's, bound read-only at
 * /etc, holding the generated passwd, group, hosts and hostname and what the
 * host has of the small files programs need to start; the host's directories
 * among those (and any file too large to copy) are bound on top of mount
 * points made for them. One bind where there were fourteen: bwrap reads the
 * mount table again after each bind, and the fourteen cost ~2.3 ms of every
 * run's start (9.8 against 7.6 ms for bwrap alone, measured).
 */

/** Pieces of the host's /etc that programs need to start (the dynamic loader, alternatives, time zone); nothing with secrets. */
export const ETC_PIECES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'localtime',
  'timezone',
  'nsswitch.conf',
  'os-release',
  'ssl',
  'ca-certificates',
] as const;

/** A host file larger than this is bound, not copied into every session. */
const COPY_LIMIT_BYTES = 1024 * 1024;

/** /etc/passwd, /etc/group, /etc/hosts and /etc/hostname of the sandbox. */
export function sandboxEtcFiles(): Record<string, string> {
  const { name, uid, gid } = SANDBOX_USER;
  return {
    passwd: `root:x:0:0:root:/root:/usr/sbin/nologin\n${name}:x:${uid}:${gid}:agent:${SANDBOX_PATHS.home}:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    group: `root:x:0:\n${name}:x:${gid}:\nnogroup:x:65534:\n`,
    hosts: '127.0.0.1\tlocalhost vah-sandbox\n::1\tlocalhost ip6-localhost ip6-loopback\n',
    hostname: 'vah-sandbox\n',
  };
}

/** How one host piece reaches the sandbox's /etc. */
type Placement = { how: 'copy' } | { how: 'link'; target: string } | { how: 'bind'; directory: boolean } | { how: 'absent' };

/**
 * A symlink whose target is under /usr (bound into the sandbox) stays a symlink,
 * so `readlink /etc/localtime` still names the zone; a small regular file is
 * copied; a directory, or anything else, is bound.
 */
function placement(host: string): Placement {
  try {
    const link = lstatSync(host);
    const stat = statSync(host);
    if (link.isSymbolicLink()) {
      const target = realpathSync(host);
      if (target.startsWith('/usr/')) return { how: 'link', target };
    }
    if (stat.isFile() && stat.size <= COPY_LIMIT_BYTES) return { how: 'copy' };
    return { how: 'bind', directory: stat.isDirectory() };
  } catch {
    return { how: 'absent' };
  }
}

/**
 * Writes the sandbox's /etc into `etcDir` (a directory the session has made);
 * returns the host pieces the sandbox binds on top of it (bwrapArguments'
 * `etcBinds`). `etcRoot` is the host's /etc (a test's stand-in).
 */
export async function writeSandboxEtc(etcDir: string, fs: SessionFs, etcRoot = '/etc'): Promise<string[]> {
  const bound = new Set<string>();
  /** The mount point, in a directory the sandbox sees read-only (bwrap cannot make one there). */
  const bind = (piece: string, directory: boolean): Promise<void> => {
    bound.add(piece);
    const target = join(etcDir, piece);
    return directory ? fs.mkdir(target, 0o755) : fs.writeFile(target, '', 0o644);
  };
  const writes: Promise<void>[] = Object.entries(sandboxEtcFiles()).map(([name, text]) => fs.writeFile(join(etcDir, name), text, 0o644));
  for (const piece of ETC_PIECES) {
    const host = join(etcRoot, piece);
    const target = join(etcDir, piece);
    const place = placement(host);
    // A file that cannot be copied (unreadable to this user, gone meanwhile) is bound as before, if it is there.
    if (place.how === 'copy') writes.push(fs.copyFile(host, target).catch(() => bind(piece, false)));
    else if (place.how === 'link') writes.push(fs.symlink(place.target, target));
    else if (place.how === 'bind') writes.push(bind(piece, place.directory));
  }
  await Promise.all(writes);
  return ETC_PIECES.filter((piece) => bound.has(piece));
}
