import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheSettings, ResultCache } from '../src/cache/index.js';
import { main } from '../src/cli/main.js';
import { memoryIO } from '../src/io.js';

const BAD = '---\nname: bad\ndescription: d\nhooks:\n  pre: |\n    rm -rf ./x\n---\n';

/** A stand-in ShellCheck whose version the test controls, and which counts its runs. */
function fakeShellcheck(dir: string, version: string): string {
  const path = join(dir, `shellcheck-${version}`);
  writeFileSync(
    path,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "version: ${version}"; exit 0; fi\necho run >> "${dir}/runs"\necho '{"comments":[]}'\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

function runs(dir: string): number {
  try {
    return readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n').length;
  } catch {
    return 0;
  }
}

async function lint(dir: string, shellcheck: string, extra: string[] = []) {
  const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1', VALIDATE_AGENT_HOOKS_SHELLCHECK: shellcheck } });
  const code = await main(['agents', '--cache', '--format', 'json', ...extra], io);
  return { code, out: JSON.parse(io.out()) as { messages: { ruleId: string }[] }[], err: io.err() };
}

/** Every file under `dir` whose name ends in .tmp: a failed write must leave none. */
function temporaries(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith('.tmp'));
}

describe('--cache', () => {
  function setup() {
    const dir = mkdtempSync(join(tmpdir(), 'vah-cache-'));
    const agents = join(dir, 'agents');
    mkdirSync(agents);
    writeFileSync(join(agents, 'a.md'), BAD);
    return { dir, agents, sc1: fakeShellcheck(dir, '0.9.0'), sc2: fakeShellcheck(dir, '0.10.0') };
  }

  it('reuses findings while nothing changed, and re-lints on each kind of change', async () => {
    const { dir, agents, sc1, sc2 } = setup();
    const first = await lint(dir, sc1);
    expect(first.code).toBe(1);
    expect(runs(dir)).toBe(1);
    const second = await lint(dir, sc1);
    expect(second.out).toEqual(first.out);
    expect(runs(dir)).toBe(1);
    // Content.
    writeFileSync(join(agents, 'a.md'), BAD.replace('./x', './y'));
    await lint(dir, sc1);
    expect(runs(dir)).toBe(2);
    // ShellCheck version.
    await lint(dir, sc2);
    expect(runs(dir)).toBe(3);
    await lint(dir, sc2);
    expect(runs(dir)).toBe(3);
    // Effective configuration.
    writeFileSync(join(dir, '.validate-agent-hooks.yaml'), 'rules:\n  command-rm-rf: warn\n');
    const relaxed = await lint(dir, sc2);
    expect(runs(dir)).toBe(4);
    expect(relaxed.code).toBe(0);
    // Flags that change the findings are part of the settings too.
    await lint(dir, sc2, ['--no-inline-config']);
    expect(runs(dir)).toBe(5);
  });

  it('the key covers the tool version and ShellCheck arguments', () => {
    const base = {
      toolVersion: '1.0.0',
      config: { rules: {} },
      inlineConfig: true,
      shellcheck: { version: '0.9.0', args: ['-s', 'bash'] },
    };
    const cache = ResultCache.open(join(mkdtempSync(join(tmpdir(), 'vah-cache-')), 'c'));
    const key = (s: typeof base) => cache.keyFor('text', cacheSettings(s));
    expect(key(base)).toBe(key({ ...base }));
    expect(key({ ...base, toolVersion: '1.0.1' })).not.toBe(key(base));
    expect(key({ ...base, shellcheck: { version: '0.9.0', args: ['-s', 'sh'] } })).not.toBe(key(base));
  });

  it('a corrupt cache file is ignored, and the cache is written atomically', async () => {
    const { dir, sc1 } = setup();
    writeFileSync(join(dir, '.validate-agent-hooks-cache'), '{"format":1,"entries":{"x":');
    expect((await lint(dir, sc1)).code).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, '.validate-agent-hooks-cache'), 'utf8')).format).toBe(1);
    // Two writers in parallel: the file is always one writer's whole document.
    await Promise.all([lint(dir, sc1, ['--no-inline-config']), lint(dir, sc1)]);
    expect(() => JSON.parse(readFileSync(join(dir, '.validate-agent-hooks-cache'), 'utf8'))).not.toThrow();
  });

  it('--cache-location chooses the file', async () => {
    const { dir, sc1 } = setup();
    await lint(dir, sc1, ['--cache-location', 'sub/dir/cache.json']);
    expect(JSON.parse(readFileSync(join(dir, 'sub', 'dir', 'cache.json'), 'utf8')).format).toBe(1);
  });

  it('--cache-location naming a directory, or a path ending in /, puts the cache file in it', async () => {
    const { dir, sc1 } = setup();
    mkdirSync(join(dir, 'existing'));
    const first = await lint(dir, sc1, ['--cache-location', 'existing']);
    expect(first.code).toBe(1);
    expect(first.err).toBe('');
    expect(JSON.parse(readFileSync(join(dir, 'existing', '.validate-agent-hooks-cache'), 'utf8')).format).toBe(1);
    // Read back from there: ShellCheck is not run again.
    expect((await lint(dir, sc1, ['--cache-location', join(dir, 'existing')])).out).toEqual(first.out);
    expect(runs(dir)).toBe(1);
    await lint(dir, sc1, ['--cache-location', 'new/dir/']);
    expect(JSON.parse(readFileSync(join(dir, 'new', 'dir', '.validate-agent-hooks-cache'), 'utf8')).format).toBe(1);
    expect(temporaries(dir)).toEqual([]);
  });

  it('a cache that cannot be written is a warning: the findings and exit code are as without it, and no temporary file is left', async () => {
    const { dir, sc1 } = setup();
    const uncached = await lint(dir, sc1, ['--cache-location', 'plain.json']);
    writeFileSync(join(dir, 'a-file'), '');
    // The cache file's place is a directory (the rename fails), under a file (mkdir fails), or in /proc (the write fails).
    mkdirSync(join(dir, 'taken', '.validate-agent-hooks-cache', 'x'), { recursive: true });
    for (const location of ['taken', 'a-file/cache', '/proc/nope']) {
      const result = await lint(dir, sc1, ['--cache-location', location]);
      expect(result.code).toBe(uncached.code);
      expect(result.out).toEqual(uncached.out);
      expect(result.err).toMatch(/^validate-agent-hooks: warning: could not write the cache .*; findings were not cached\.\n$/);
      expect(temporaries(dir)).toEqual([]);
    }
  });
});
