// Inputs that are not plain files of a sane size: a device or a pipe named on
// the command line, a loop of symbolic links, standard input that never ends or
// is not text. Each gets a diagnostic or a usage error, in bounded memory and
// time, never an internal error or a hang.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';

const BIN = fileURLToPath(new URL('../../bin/validate-agent-hooks', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../dist/bundle', import.meta.url)));
const HAS_DEV_ZERO = existsSync('/dev/zero');
const RM = '---\nname: a\ndescription: d\nhooks:\n  pre: |\n    rm -rf ./x\n---\n';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vah-special-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lint(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd: dir });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** The CLI as a process, `input` written to its stdin (a function writes it as it likes). */
function run(
  args: string[],
  input: Buffer | ((stdin: NodeJS.WritableStream) => void),
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdin.on('error', () => {}); // The linter stops reading past the limit: the rest is refused.
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    if (typeof input === 'function') input(child.stdin);
    else child.stdin.end(input);
  });
}

const messages = (out: string): { ruleId: string; message: string }[] =>
  (JSON.parse(out) as { messages: { ruleId: string; message: string }[] }[]).flatMap((r) => r.messages);

describe('special inputs', () => {
  it.skipIf(!HAS_DEV_ZERO)(
    `reads a device named on the command line only to past the size limit${HAS_DEV_ZERO ? '' : ' [skipped: no /dev/zero]'}`,
    async () => {
      const { code, out, err } = await lint(['/dev/zero', '--format', 'json', '--no-shellcheck']);
      expect(err).toBe('');
      expect(code).toBe(1);
      expect(messages(out)).toEqual([
        expect.objectContaining({
          ruleId: 'file-unreadable',
          message: expect.stringMatching(/^Unexpected file size of more than 4194304 bytes/),
        }),
      ]);
    },
  );

  it('reports a file over the limit with its size on disk, without reading it whole', async () => {
    const path = join(dir, 'big.md');
    writeFileSync(path, `${RM}${'x'.repeat(6 * 1024 * 1024)}`);
    const { code, out } = await lint([path, '--format', 'json', '--no-shellcheck']);
    expect(code).toBe(1);
    expect(messages(out)).toEqual([
      expect.objectContaining({
        ruleId: 'file-unreadable',
        message: expect.stringMatching(`^Unexpected file size of ${RM.length + 6 * 1024 * 1024} bytes`),
      }),
    ]);
  });

  it('gives a loop of symbolic links named on the command line a usage error, not an internal one', async () => {
    symlinkSync('loop-b.md', join(dir, 'loop-a.md'));
    symlinkSync('loop-a.md', join(dir, 'loop-b.md'));
    const { code, err } = await lint([join(dir, 'loop-a.md'), '--no-shellcheck']);
    expect(code).toBe(2);
    expect(err).toMatch(/Cannot read .*loop-a\.md: ELOOP/);
    expect(err).not.toContain('internal error');
  });

  it.skipIf(!BUILT)(
    `checks --stdin's bytes as a file's: invalid UTF-8 is reported where it is${BUILT ? '' : ' [skipped: needs the build]'}`,
    async () => {
      const { code, out } = await run(['--stdin', '--format', 'json', '--no-shellcheck'], Buffer.from('---\nname: \xff\n---\n', 'latin1'));
      expect(code).toBe(1);
      expect(messages(out)).toEqual([
        expect.objectContaining({ ruleId: 'file-unreadable', message: 'Invalid UTF-8 byte sequence: profiles must be UTF-8 text.' }),
      ]);
      const good = await run(['--stdin', '--format', 'json', '--no-shellcheck'], Buffer.from(RM));
      expect(messages(good.out).map((m) => m.ruleId)).toEqual(['command-rm-rf']);
    },
  );

  it.skipIf(!BUILT)(
    `stops reading a --stdin that does not end past the size limit${BUILT ? '' : ' [skipped: needs the build]'}`,
    async () => {
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      // Writes until the linter stops reading; a linter that read on would never answer, and the test would time out.
      const { code, out } = await run(['--stdin', '--format', 'json', '--no-shellcheck'], (stdin) => {
        const write = (): void => {
          while (stdin.write(chunk));
          stdin.once('drain', write);
        };
        write();
      });
      expect(code).toBe(1);
      expect(messages(out)).toEqual([
        expect.objectContaining({
          ruleId: 'file-unreadable',
          message: expect.stringMatching(/^Unexpected file size of more than 4194304 bytes/),
        }),
      ]);
    },
    30_000,
  );
});
