import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { ClaudeCodeRunJson } from '../../src/executor/claude-code-report.js';
import { memoryIO } from '../../src/io.js';
import { tempDir } from '../executor/helpers.js';

/** Projects written under one temporary directory (removed after the file's tests), and the CLI run in them. */
export function cliRunHelpers(prefix: string) {
  const { dir: root, remove } = tempDir(prefix);
  afterAll(remove);

  function project(name: string, files: Record<string, string>): string {
    const base = join(root, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text, { mode: path.endsWith('.sh') ? 0o755 : 0o644 });
    }
    return base;
  }

  async function cli(args: string[], cwd: string, env?: Record<string, string>) {
    const io = memoryIO({ cwd, ...(env ? { env: { NO_COLOR: '1', ...env } } : {}) });
    const code = await main(args, io);
    return { code, out: io.out(), err: io.err() };
  }

  async function runJson(args: string[], cwd: string, env?: Record<string, string>): Promise<ClaudeCodeRunJson> {
    const { code, out, err } = await cli([...args, '--format', 'json'], cwd, env);
    expect(err).toBe('');
    expect(code).toBe(0);
    return JSON.parse(out) as ClaudeCodeRunJson;
  }

  return { root, project, cli, runJson };
}
