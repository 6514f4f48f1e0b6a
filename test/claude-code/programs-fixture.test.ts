// fixtures/claude-code/programs: a project whose PreToolUse hooks run a Python and a Node guard. Each file
// carries its expectations as `# expect: rule-id` (Python) or `// expect: rule-id` (Node) on the line a
// finding starts on; every finding must be marked and every marker found. The same project trains the
// lint bundle's code cache (scripts/code-cache.mjs), so reading such programs starts compiled.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFiles } from '../../src/index.js';

const PROJECT = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-code', 'programs');
const MARKER = /(?:#|\/\/)\s*expect:\s*([a-z0-9/,\s-]+?)\s*$/;

function expectedByLine(text: string): Record<number, string[]> {
  const expected: Record<number, string[]> = {};
  text.split('\n').forEach((line, index) => {
    const match = MARKER.exec(line);
    if (match)
      expected[index + 1] = match[1]!
        .split(/[\s,]+/)
        .filter(Boolean)
        .sort();
  });
  return expected;
}

describe('fixtures/claude-code/programs', () => {
  it('each program file has exactly the findings its markers name; the settings none', async () => {
    const results = await lintFiles([PROJECT], { shellcheck: false, cwd: PROJECT });
    const byFile = new Map(results.map((r) => [r.filePath.slice(PROJECT.length + 1), r.diagnostics]));
    expect([...byFile.keys()].sort()).toEqual(['.claude/hooks/guard.mjs', '.claude/hooks/guard.py', '.claude/settings.json']);
    expect(byFile.get('.claude/settings.json')).toEqual([]);
    for (const file of ['.claude/hooks/guard.py', '.claude/hooks/guard.mjs']) {
      const expected = expectedByLine(readFileSync(join(PROJECT, file), 'utf8'));
      expect(Object.keys(expected).length, file).toBeGreaterThan(2);
      const actual: Record<number, string[]> = {};
      for (const d of byFile.get(file)!) (actual[d.line] ??= []).push(d.ruleId);
      for (const ids of Object.values(actual)) ids.sort();
      expect(actual, file).toEqual(expected);
    }
  });
});
