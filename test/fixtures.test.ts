import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { ConfigResolver } from '../src/config/load.js';
import { lintInputs } from '../src/engine/lint.js';

/**
 * Fixtures carry their expectations: `# expect: rule-id[, rule-id]` (or
 * `<!-- expect: rule-id -->`) on the line a finding must start on, or
 * `<!-- expect@N: rule-id -->` for line N where a marker cannot stand (a
 * `---` fence). For each
 * fixture, the rule ids reported on every line must be exactly the ones its
 * markers name — nothing missing, nothing extra. ShellCheck is not run here
 * (its findings are tested with exact positions in test/shellcheck.test.ts).
 */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'rules');
// In a JSON fixture the marker sits in a string (`"$comment": "# expect@5: json-syntax",`), so a closing quote and comma may follow.
const MARKER = /(?:#|<!--)\s*expect(?:@(\d+))?:\s*([a-z0-9/,\s-]+?)\s*(?:-->|",?$|$)/g;

export function expectedByLine(text: string): Map<number, string[]> {
  const expected = new Map<number, string[]>();
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(MARKER)) {
      const line = match[1] !== undefined ? Number(match[1]) : index + 1;
      const ids = match[2]!.split(/[\s,]+/).filter(Boolean);
      expected.set(line, [...(expected.get(line) ?? []), ...ids]);
    }
  });
  return expected;
}

// Markdown profiles, JSON hook configurations and scripts, also inside a project layout (`.claude/agents/x.md`).
const cases = readdirSync(FIXTURES).flatMap((ruleId) =>
  readdirSync(join(FIXTURES, ruleId), { recursive: true })
    .map(String)
    .filter((f) => /\.(?:md|json|sh)$/.test(f) && !f.endsWith('plugin.json'))
    .filter((f) => !/(?:^|\/)\.claude\/hooks\//.test(f))
    .map((file) => ({ ruleId, file, path: join(FIXTURES, ruleId, file) })),
);

describe('fixtures', () => {
  const resolver = new ConfigResolver();
  it.each(cases)('$ruleId/$file', async ({ path, file }) => {
    const bytes = readFileSync(path);
    const expected = expectedByLine(bytes.toString('latin1'));
    const { config } = resolver.forFile(path);
    const [result] = await lintInputs([{ filePath: path, bytes }], { rules, config });
    const actual = new Map<number, string[]>();
    for (const d of result!.diagnostics) actual.set(d.line, [...(actual.get(d.line) ?? []), d.ruleId]);
    const sortMap = (m: Map<number, string[]>) =>
      Object.fromEntries([...m].sort((a, b) => a[0] - b[0]).map(([k, v]) => [k, [...v].sort()]));
    expect(sortMap(actual), result!.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId} ${d.message}`).join('\n')).toEqual(
      sortMap(expected),
    );
    if (/(?:^|\/)valid\./.test(file) || file.endsWith('SKILL.md')) expect(result!.diagnostics).toEqual([]);
  });
});
