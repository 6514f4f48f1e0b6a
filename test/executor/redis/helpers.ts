/** Shared helpers for the Redis fake's tests: a raw RESP client, temp dirs, a real redis-server. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { RespReplyDecoder, type DecodedReply } from '../../../src/executor/redis/reply-decoder.js';
import { encodeCommand } from '../../../src/executor/redis/resp.js';

function binaryWorks(name: string): boolean {
  const probe = spawnSync(name, ['--version'], { encoding: 'utf8' });
  return probe.status === 0;
}

export const hasRedisServer = binaryWorks('redis-server');
export const hasRedisCli = binaryWorks('redis-cli');

export function warnIfMissing(binary: 'redis-server' | 'redis-cli', present: boolean, what: string): void {
  if (!present) {
    console.warn(`[redis tests] ${binary} is not installed: skipping ${what}. Install it with apt-get install redis-tools redis-server.`);
  }
}

/** A private temp dir; Unix socket paths must stay short (108 bytes), so it sits directly in the OS temp dir. */
export function makeTempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'vah-redis-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A test-only RESP client: pipelined requests, replies matched in order. */
export class RespTestClient {
  private readonly decoder = new RespReplyDecoder();
  private readonly received: DecodedReply[] = [];
  private readonly waiting: { resolve: (reply: DecodedReply) => void; reject: (error: Error) => void }[] = [];
  private ended = false;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.decoder.push(chunk);
      for (let reply = this.decoder.next(); reply !== undefined; reply = this.decoder.next()) {
        const waiter = this.waiting.shift();
        if (waiter) waiter.resolve(reply);
        else this.received.push(reply);
      }
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.ended = true;
        for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('connection closed'));
        resolve();
      });
    });
    socket.on('error', () => {});
  }

  static connect(socketPath: string): Promise<RespTestClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      socket.once('connect', () => resolve(new RespTestClient(socket)));
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.ended;
  }

  writeRaw(bytes: string | Buffer): void {
    this.socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  }

  send(args: readonly (string | Buffer)[]): void {
    this.socket.write(encodeCommand(args));
  }

  call(...args: (string | Buffer)[]): Promise<DecodedReply> {
    this.send(args);
    return this.nextReply();
  }

  nextReply(): Promise<DecodedReply> {
    const ready = this.received.shift();
    if (ready) return Promise.resolve(ready);
    if (this.ended) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** The next reply, or what happened instead; a timed-out wait does not swallow a later reply. */
  nextReplyWithin(timeoutMs: number): Promise<DecodedReply | 'timeout' | 'closed'> {
    const ready = this.received.shift();
    if (ready) return Promise.resolve(ready);
    if (this.ended) return Promise.resolve('closed');
    return new Promise((resolve) => {
      const waiter = {
        resolve: (reply: DecodedReply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: () => {
          clearTimeout(timer);
          resolve('closed');
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        resolve('timeout');
      }, timeoutMs);
      this.waiting.push(waiter);
    });
  }

  /** Every reply until the server closes the connection (`closed`) or goes quiet (`still open`). */
  async repliesUntilClosed(quietMs = 500): Promise<string[]> {
    const replies: string[] = [];
    for (;;) {
      const next = await this.nextReplyWithin(quietMs);
      if (next === 'closed' || next === 'timeout') return [...replies, next === 'closed' ? 'closed' : 'still open'];
      replies.push(show(next));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A compact, exact rendering of a reply for assertions: `+OK`, `$v`, `$(nil)`, `:3`, `-ERR x`, `[...]`. */
export function show(reply: DecodedReply): string {
  switch (reply.kind) {
    case 'simple':
      return `+${reply.value}`;
    case 'error':
      return `-${reply.message}`;
    case 'integer':
      return `:${reply.value}`;
    case 'bulk':
      return reply.value === null ? '$(nil)' : `$${reply.value.toString('latin1')}`;
    case 'array':
      return reply.items === null ? '*(nil)' : `[${reply.items.map(show).join(', ')}]`;
    default:
      // RESP3 kinds: the fake speaks RESP2 only, and so does this test client.
      return `?${reply.kind}`;
  }
}

export interface RealRedis {
  socketPath: string;
  stop(): Promise<void>;
}

/** Starts a throwaway redis-server on a Unix socket only, without persistence. */
export async function startRealRedis(dir: string): Promise<RealRedis> {
  const socketPath = join(dir, 'real.sock');
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socketPath, '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 5000;
  while (!existsSync(socketPath)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start (exit code ${String(child.exitCode)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    socketPath,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** Runs the real redis-cli and returns what it printed. */
export function runRedisCli(
  socketPath: string,
  args: string[],
  options: { input?: string } = {},
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-cli', ['-s', socketPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.end(options.input ?? '');
  });
}
