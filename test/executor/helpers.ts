/** Shared helpers for the executor's tests: hand-built hooks, tool detection, host-side checks. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookScript } from '../../src/hooks/types.js';
import { findExecutable } from '../../src/executor/host.js';
import { probeBwrap } from '../../src/executor/sandbox.js';

export function hookScript(name: string, text: string, file = '/profiles/coder.md'): HookScript {
  const range = { line: 1, column: 1, endLine: 1, endColumn: 2 };
  return {
    runtime: 'claude-flow',
    file,
    name,
    keyPath: name.includes('.') ? ['hooks', ...name.split('.')] : ['hooks', name],
    text,
    style: 'literal',
    keyRange: range,
    valueRange: range,
    segments: [],
  };
}

const isRoot = process.getuid?.() === 0;
const bwrap = probeBwrap(isRoot ? { hostUid: 65534, hostGid: 65534 } : {});
export const hasRedisCli = findExecutable('redis-cli') !== undefined;
export const hasRedisServer = findExecutable('redis-server') !== undefined;
export const hasSqlite3 = findExecutable('sqlite3') !== undefined;

/** Why sandboxed tests cannot run here, or undefined when they can. */
export const sandboxMissing: string | undefined = !bwrap.ok
  ? bwrap.problem
  : !hasRedisCli
    ? 'redis-cli is not installed (apt-get install redis-tools)'
    : undefined;

/** A test title that says, in the report, why it was skipped. */
export function needsSandbox(title: string): string {
  return sandboxMissing ? `${title} [skipped: ${sandboxMissing}]` : title;
}

if (sandboxMissing) console.warn(`[executor tests] sandboxed tests are skipped: ${sandboxMissing}`);

export function tempDir(prefix = 'vah-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every host process (not zombie) whose PID namespace is `namespace`: the check "no process survives" rests on this. */
export function processesInNamespace(namespace: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/ns/pid`) !== namespace) continue;
      const stat = spawnSync('cat', [`/proc/${name}/stat`], { encoding: 'utf8' }).stdout;
      if (!/\) [ZX] /.test(stat)) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Host PIDs of processes whose command line contains `needle`. */
export function processesMatching(needle: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = spawnSync('cat', [`/proc/${name}/cmdline`], { encoding: 'utf8' }).stdout.replaceAll('\0', ' ');
      if (cmdline.includes(needle)) found.push(Number(name));
    } catch {
      // Gone.
    }
  }
  return found;
}

/** A real redis-server on a Unix socket, for the --redis-url path. */
export async function startRealRedis(): Promise<{ url: string; socket: string; close: () => Promise<void> }> {
  const { dir, remove } = tempDir('vah-real-redis-');
  const socket = join(dir, 'redis.sock');
  const child = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '777', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!existsSync(socket)) throw new Error('redis-server did not start');
  return {
    url: `unix://${socket}`,
    socket,
    close: async () => {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      remove();
    },
  };
}
