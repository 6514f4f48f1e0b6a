import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTestTable } from '../../src/runtimes/claude-code/test-table.js';
import { loadScenario } from '../../src/simulate/scenario.js';

describe("the tool's own YAML inputs", () => {
  const dir = mkdtempSync(join(tmpdir(), 'vah-yaml-inputs-'));

  it('a file that cannot be read is one finding at its first character, naming the document and the reason', async () => {
    const missing = join(dir, 'missing.yaml');
    const first = { line: 1, column: 1, endLine: 1, endColumn: 1 };
    expect(await loadScenario(missing)).toEqual({
      ok: false,
      diagnostics: [{ ruleId: 'scenario-invalid', severity: 'error', ...first, message: 'Unreadable scenario: ENOENT.' }],
    });
    expect(await loadTestTable(missing)).toEqual({
      ok: false,
      diagnostics: [{ ruleId: 'claude-code-test-invalid', severity: 'error', ...first, message: 'Unreadable test table: ENOENT.' }],
    });
  });

  it('a byte-order mark is dropped before the YAML is read: positions are those of the same file without it', async () => {
    const withBom = join(dir, 'bom.yaml');
    const without = join(dir, 'plain.yaml');
    writeFileSync(withBom, '\uFEFFa: [1,\n');
    writeFileSync(without, 'a: [1,\n');
    for (const load of [loadScenario, loadTestTable]) {
      const read = await load(withBom);
      expect(read.ok).toBe(false);
      if (read.ok) continue;
      expect(read.diagnostics[0]!.message).toMatch(/^Invalid YAML: /);
      expect(read).toEqual(await load(without));
    }
  });
});
