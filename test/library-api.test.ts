import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The library as a one-shot script uses it, in a process of its own (V8 flags are per process):
 * `preferFastWasmStart()` before the first lint changes how fast the grammar runs, never what it
 * finds; called again after a lint, it does nothing.
 */
const ROOT = new URL('../', import.meta.url).pathname;
const SCRIPT = `
const api = await import(${JSON.stringify(join(ROOT, 'dist/src/index.js'))});
if (process.argv[1] === 'fast') api.preferFastWasmStart();
const results = await api.lintFiles([${JSON.stringify(join(ROOT, 'fixtures/demo/.claude/agents'))}], { shellcheck: false });
api.preferFastWasmStart();
const again = await api.lintText('---\\nname: a\\ndescription: b\\nhooks:\\n  pre: |\\n    rm -rf /\\n---\\n', { filePath: '/p/.claude/agents/a.md', shellcheck: false });
process.stdout.write(api.formatters.json([...results, again], { cwd: '/', color: false, verbose: false }));
`;

function lintIn(mode: 'fast' | 'default'): unknown {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, mode], { encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

describe('library API: preferFastWasmStart', () => {
  it('finds the same, with positions, as a default start, and is harmless after the first lint', () => {
    const fast = lintIn('fast') as { messages: { ruleId: string }[] }[];
    expect(fast).toEqual(lintIn('default'));
    expect(fast.at(-1)!.messages.map((m) => m.ruleId)).toContain('command-rm-rf');
    expect(fast.slice(0, -1).flatMap((r) => r.messages).length).toBeGreaterThan(5);
  });
});
