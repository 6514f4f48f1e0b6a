/**
 * Everything the host does for a hook is bounded (issue 16, points 2 and 5):
 * a pathological memory pattern cannot hold the executor's event loop past
 * the run's timeout, a huge command is refused with an error, and a hook
 * that loops LRANGE gets a report of bounded size and a normal exit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run.js';
import { compileGlob } from '../../src/executor/memory-glob.js';
import { formatRunHuman, REPORT_SIZE_BOUND, type RunJson } from '../../src/executor/report.js';
import { createExecutorSession, type ExecutorSession } from '../../src/executor/session.js';
import { memoryIO } from '../../src/io.js';
import { hookScript, needsSandbox, sandboxMissing, tempDir } from './helpers.js';

describe('memory key globs', () => {
  it('match as the regular expression they used to be turned into, on every small case', () => {
    const alphabet = ['a', 'b', '*', '?'];
    const words = (length: number, letters: string[]): string[] =>
      length === 0 ? [''] : words(length - 1, letters).flatMap((word) => letters.map((letter) => word + letter));
    const patterns = [0, 1, 2, 3, 4].flatMap((length) => words(length, alphabet));
    const keys = [0, 1, 2, 3, 4, 5].flatMap((length) => words(length, ['a', 'b']));
    for (const pattern of patterns) {
      const regex = new RegExp(`^${pattern.replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]')}$`);
      const glob = compileGlob(pattern);
      for (const key of keys) expect(glob(key), `${pattern} ~ ${key}`).toBe(regex.test(key));
    }
  });

  it('decide a pattern that makes a backtracking engine run for minutes, at once', () => {
    const pattern = `${'*a'.repeat(40)}*b`;
    expect(compileGlob(pattern)('a'.repeat(1000))).toBe(false);
    expect(compileGlob(pattern)(`${'a'.repeat(999)}b`)).toBe(true);
  });
});

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('host work a hook drives'), () => {
  let session: ExecutorSession;
  beforeAll(async () => {
    session = await createExecutorSession({ timeoutMs: 3000 });
  });
  afterAll(() => session.close());

  // Red-teaming: 15 values of 4 MB of control bytes (within the store's bound) cost 15 s and 1.1 GB to
  // render a human report of a few KB: each value was escaped whole (six times its size) before being cut.
  it('the human report escapes only the part of a stored value it shows', async () => {
    const result = await session.runHook(hookScript('pre', 'true'));
    const value = '\u0001'.repeat(4_000_000);
    const entry = { level: 'agent', owner: 'a', swarmId: '', value, createdAt: 0, updatedAt: 0, expiresAt: null } as const;
    result.memory.push(...Array.from({ length: 3 }, (_, i) => ({ ...entry, key: `k${i}` })));
    const human = formatRunHuman(result);
    expect(human).toContain(`${'\\x01'.repeat(40)}… (4000000 chars)`);
    expect(human.length).toBeLessThan(20_000);
  });

  it('a pathological /sqlite-memory pattern cannot hold a 3-second run past 8 s', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          'long=$(head -c 1000 /dev/zero | tr "\\0" a)',
          'for i in $(seq 20); do /sqlite-memory store --key "$long$i" --level project --data 1; done',
          `pattern="${'*a'.repeat(40)}*b"`,
          'while :; do /sqlite-memory list --level project --pattern "$pattern"; done',
        ].join('\n'),
      ),
    );
    expect(result.timedOut).toBe(true);
    const lists = result.operations.filter((op) => op.kind === 'memory' && op.action === 'list');
    expect(lists.length).toBeGreaterThan(0);
  }, 8000);

  it('refuses a 500,000-argument RPUSH with an error, and over-long memory keys and patterns', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        [
          `{ printf '*500002\\r\\n$5\\r\\nRPUSH\\r\\n$1\\r\\nk\\r\\n'; yes "$(printf '$1\\r\\nx\\r')" | head -n 500000; } | redis-cli --pipe 2>&1 | head -c 300; echo`,
          'redis-cli LLEN k',
          '/sqlite-memory store --key "$(head -c 2000 /dev/zero | tr "\\0" k)" --level agent --data 1; echo "status=$?"',
          '/sqlite-memory list --pattern "$(head -c 2000 /dev/zero | tr "\\0" "*")"; echo "status=$?"',
        ].join('\n'),
      ),
    );
    expect(result.stdout).toMatch(/too many arguments \(500002; the executor's Redis takes at most 65536 per command\)/);
    expect(result.stdout).toMatch(/\n0\n/);
    expect(result.stderr).toMatch(/--key is too long \(2000 characters; keys and patterns take at most 1024\)/);
    expect(result.stderr).toMatch(/--pattern is too long/);
    expect(result.stdout).toMatch(/status=2\nstatus=2\n$/);
  });
});

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('bounded reports'), () => {
  const { dir, remove } = tempDir('vah-report-');
  afterAll(remove);

  it('a hook looping LRANGE gets a report under the documented size, an omitted-operations record, and a normal exit', async () => {
    writeFileSync(
      join(dir, 'lrange.md'),
      [
        '---',
        'name: looper',
        'description: Reads a big list over and over.',
        'hooks:',
        '  pre: |',
        '    item=$(head -c 1000 /dev/zero | tr "\\0" v)',
        '    for i in $(seq 200); do printf "RPUSH l %s\\r\\n" "$item"; done | redis-cli --pipe > /dev/null',
        '    for i in $(seq 400); do printf "LRANGE l 0 -1\\r\\n"; done | redis-cli --pipe > /dev/null',
        '    echo done',
        '---',
        'Body.',
        '',
      ].join('\n'),
    );
    const io = memoryIO({ cwd: dir });
    const code = await runCommand(['lrange.md', '--hook', 'pre', '--format', 'json', '--timeout-ms', '20000'], io);
    expect(code).toBe(0);
    const text = io.out();
    expect(text.length).toBeLessThan(REPORT_SIZE_BOUND);
    const report = JSON.parse(text) as RunJson;
    expect(report.exitCode).toBe(0);
    expect(report.timedOut).toBe(false);
    expect(report.stdout).toBe('done\n');
    const omitted = report.operations.at(-1);
    expect(omitted?.kind === 'command' && omitted.note).toMatch(/^\d+ operations omitted: the trace keeps at most/);
    const lrange = report.operations.find((op) => op.kind === 'redis' && op.command[0] === 'LRANGE');
    expect(lrange?.kind === 'redis' && (lrange.reply as unknown[]).at(-1)).toBe('(100 more items, not shown)');
  }, 60_000);
});
