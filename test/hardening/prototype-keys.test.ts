import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIO } from '../../src/io.js';
import { own } from '../../src/records.js';

/**
 * The names a plain object answers to without holding them (`constructor`,
 * `toString`, `__proto__` …), as every kind of name a hook or the command
 * line can give: command, option, hook and event names, handler types, JSON
 * keys, subcommands. Each once stopped the run with an internal error.
 */
const NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vah-proto-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(args: string[], cwd = root): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd, env: { NO_COLOR: '1' } });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('names that a plain object answers to', () => {
  it('own() reads only a table’s own entries', () => {
    const table: Record<string, number> = { a: 1 };
    for (const name of NAMES) expect(own(table, name)).toBeUndefined();
    expect(own(table, 'a')).toBe(1);
  });

  it.each(NAMES)('as commands, options, hook names and JSON keys in a profile and settings: %s', async (name) => {
    const dir = join(root, name.replace(/_/g, 'u'));
    mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
    const script = [
      `${name} -c x`,
      `redis-cli ${name} y`,
      `jq -n --${name} '{a: 1}'`,
      `python3 -c 'x' ${name}`,
      `echo '{"${name}": 1}' | sh`,
      `/sqlite-memory retrieve --key k --level ${name}`,
    ];
    writeFileSync(
      join(dir, '.claude', 'agents', 'a.md'),
      `---\nname: a\ndescription: d\nhooks:\n  ${name}: |\n${script.map((l) => `    ${l}`).join('\n')}\n---\n`,
    );
    const json = `jq -n '{${name}: 1, hookSpecificOutput: {hookEventName: "${name}"}}'`;
    const settings = {
      hooks: {
        [name]: [{ hooks: [{ type: 'command', command: `echo '{"decision": "block", "${name}": 1}'` }] }],
        PreToolUse: [
          { matcher: name, hooks: [{ type: name, command: 'x' }] },
          { hooks: [{ type: 'command', command: json, [name]: 1 }] },
          { hooks: [{ type: 'command', command: `echo "{\\"${name}\\": $X}"` }] },
        ],
      },
    };
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(settings));
    const { code, err } = await run([dir, '--no-shellcheck', '--format', 'json']);
    expect(err).not.toContain('internal error');
    expect([0, 1]).toContain(code);
  });

  it.each(NAMES)('as a subcommand: %s is a path, here a missing one', async (name) => {
    const empty = mkdtempSync(join(root, 'empty-'));
    const { code, err } = await run([name], empty);
    expect(err).not.toContain('internal error');
    expect(err).toContain(`No such file or directory: ${name}`);
    expect(code).toBe(2);
  });
});
