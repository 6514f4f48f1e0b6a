import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { memoryIO } from '../../src/io.js';
import { main } from '../../src/cli/main.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { defaultConfig } from '../../src/engine/config.js';
import { applySafeFixes, fixInputs, unifiedDiff } from '../../src/engine/fix.js';
import { lintInputs, type LintInput } from '../../src/engine/lint.js';
import { defineRule } from '../../src/engine/rule.js';
import { lintFiles, outputFixes } from '../../src/index.js';

const HAS_SHELLCHECK = spawnSync('shellcheck', ['--version']).status === 0;

/** A test rule with a certain fix: `echo  ` (two spaces) becomes `echo `; one fix per pass. */
const doubleSpace = defineRule({
  id: 'test-double-space',
  meta: { description: 'test', severity: 'warning', category: 'shell', fixable: true },
  messages: { found: 'Unexpected double space after echo.' },
  checkScript(context) {
    const at = context.hook.text.indexOf('echo  ');
    if (at === -1) return;
    const range = context.range(at + 4, at + 6);
    context.report({ messageId: 'found', range, fixes: [{ title: 'Remove a space', safe: true, edits: [{ range, text: ' ' }] }] });
  },
});

/** Offers an unsafe fix only, and one that inserts a new line (written with the file's line ending). */
const insertsLine = defineRule({
  id: 'test-inserts-line',
  meta: { description: 'test', severity: 'warning', category: 'shell', fixable: true },
  messages: { found: 'Expected a set -e line.' },
  checkScript(context) {
    if (context.hook.text.startsWith('set -e')) return;
    const range = context.range(0, 0);
    context.report({ messageId: 'found', range, fixes: [{ title: 'Add set -e', safe: true, edits: [{ range, text: 'set -e\n    ' }] }] });
  },
});

const RULES = [...rules, doubleSpace, insertsLine];

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'vah-fix-'));
}

const BOM = '\uFEFF';
const CRLF_PROFILE = `${BOM}---\r\nname: fix\r\ndescription: fix test 🎉\r\nhooks:\r\n  on_blocking_start: |\r\n    set -e\r\n    echo  "a"\r\n    echo   "b"\r\n  pre: |\r\n    echo pre\r\n---\r\n\r\nBody  with  spaces.\r\n`;

describe('applySafeFixes', () => {
  const d = (line: number, column: number, endColumn: number, text: string, safe = true): Diagnostic => ({
    ruleId: 'r',
    severity: 'warning',
    message: 'm',
    line,
    column,
    endLine: line,
    endColumn,
    fixes: [{ title: 't', safe, edits: [{ range: { line, column, endLine: line, endColumn }, text }] }],
  });

  it('applies non-overlapping safe fixes, skips unsafe, overlapping and no-op ones', () => {
    const text = 'abcdef\r\nghij\r\n';
    const { text: out, applied } = applySafeFixes(
      text,
      [d(1, 1, 3, 'X'), d(1, 2, 4, 'Y'), d(1, 5, 6, 'e'), d(2, 1, 2, 'G', false), d(2, 3, 3, 'new\nline')],
      '\r\n',
    );
    expect(out).toBe('Xcdef\r\nghnew\r\nlineij\r\n');
    expect(applied).toHaveLength(2);
  });

  it('two insertions at the same point are not both applied in one pass', () => {
    const { text } = applySafeFixes('abc', [d(1, 2, 2, 'X'), d(1, 2, 2, 'Y')]);
    expect(text).toBe('aXbc');
  });
});

describe('fixInputs', () => {
  const lint = (inputs: LintInput[]) => lintInputs(inputs, { rules: RULES, config: defaultConfig() });

  it('runs passes until nothing applies, keeping BOM and CRLF; the result lints clean for the fixed rules', async () => {
    const bytes = Buffer.from(CRLF_PROFILE, 'utf8');
    const outcome = await fixInputs([{ filePath: '/x/.claude/agents/p.md', bytes }], lint);
    const [fixed] = outcome.fixed;
    // `echo  "a"` and `echo   "b"`: one fix per hook per pass (the rule finds the first) → 3 passes; `pre` gets set -e.
    expect(fixed!.passes).toBe(3);
    const expected = CRLF_PROFILE.replace('echo  "a"', 'echo "a"')
      .replace('echo   "b"', 'echo "b"')
      .replace('    echo pre', '    set -e\r\n    echo pre');
    expect(Buffer.from(fixed!.after).toString('utf8')).toBe(expected);
    expect(outcome.results[0]!.diagnostics.filter((x) => x.ruleId.startsWith('test-'))).toEqual([]);
  });

  it('stops after 10 passes when a fix keeps coming back', async () => {
    const forever = defineRule({
      id: 'test-forever',
      meta: { description: 't', severity: 'warning', category: 'shell' },
      messages: { m: 'm' },
      checkScript(context) {
        const range = context.range(0, 0);
        context.report({ messageId: 'm', range, fixes: [{ title: 'grow', safe: true, edits: [{ range, text: '#' }] }] });
      },
    });
    let calls = 0;
    const outcome = await fixInputs([{ filePath: '/x.md', bytes: Buffer.from('---\nhooks:\n  pre: |\n    echo\n---\n') }], (inputs) => {
      calls++;
      return lintInputs(inputs, { rules: [forever], config: defaultConfig() });
    });
    expect(calls).toBe(11);
    expect(outcome.fixed[0]!.afterText).toContain(`    ${'#'.repeat(10)}echo`);
  });

  it('leaves unreadable files alone', async () => {
    const outcome = await fixInputs([{ filePath: '/bin.md', bytes: Buffer.from([0, 1, 2]) }], lint);
    expect(outcome.fixed).toEqual([]);
    expect(outcome.results[0]!.diagnostics[0]!.ruleId).toBe('file-unreadable');
  });
});

describe('library fix: lintFiles({ fix }) + outputFixes', () => {
  it('writes atomically: same mode, no temporary files left, otherwise byte-identical', async () => {
    const dir = tempDir();
    const file = join(dir, 'p.md');
    writeFileSync(file, CRLF_PROFILE);
    chmodSync(file, 0o640);
    const results = await lintFiles([file], { rules: RULES, configFile: false, shellcheck: false, fix: true });
    expect(readFileSync(file, 'utf8')).toBe(CRLF_PROFILE); // nothing written yet
    await outputFixes(results);
    const after = readFileSync(file);
    expect(after.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(after.toString('utf8')).toBe(
      CRLF_PROFILE.replace('echo  "a"', 'echo "a"').replace('echo   "b"', 'echo "b"').replace('    echo pre', '    set -e\r\n    echo pre'),
    );
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['p.md']);
  });
});

describe('unifiedDiff', () => {
  it('prints git-style hunks with context and keeps CR of CRLF lines', () => {
    const before = 'a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\ni\r\n';
    const after = before.replace('b\r\n', 'B\r\n').replace('i\r\n', 'i\r\nj\r\n');
    expect(unifiedDiff(before, after, 'a/x.md', 'b/x.md')).toBe(
      '--- a/x.md\n+++ b/x.md\n@@ -1,5 +1,5 @@\n a\r\n-b\r\n+B\r\n c\r\n d\r\n e\r\n@@ -7,3 +7,4 @@\n g\r\n h\r\n i\r\n+j\r\n',
    );
  });

  it('marks a missing final newline', () => {
    expect(unifiedDiff('a', 'b', 'a/f', 'b/f')).toBe(
      '--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n',
    );
  });
});

describe.skipIf(!HAS_SHELLCHECK)('CLI --fix and --fix-dry-run (ShellCheck replacements)', () => {
  const PROFILE = `${BOM}---\r\nname: sc\r\ndescription: sc fix 🎉\r\nhooks:\r\n  on_blocking_start: |\r\n    echo $AGENT_ID\r\n    echo finished\r\n---\r\n`;
  const FIXED = PROFILE.replace('echo $AGENT_ID', 'echo "$AGENT_ID"');

  function setup(): { dir: string; file: string } {
    const dir = tempDir();
    mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
    const file = join(dir, '.claude', 'agents', 'sc.md');
    writeFileSync(file, PROFILE);
    return { dir, file };
  }

  it('--fix-dry-run prints a diff and writes nothing', async () => {
    const { dir, file } = setup();
    const io = memoryIO({ cwd: dir });
    const code = await main(['--fix-dry-run', '.claude/agents/sc.md'], io);
    expect(code).toBe(0);
    expect(io.out()).toBe(
      '--- a/.claude/agents/sc.md\n+++ b/.claude/agents/sc.md\n@@ -3,6 +3,6 @@\n description: sc fix 🎉\r\n hooks:\r\n   on_blocking_start: |\r\n-    echo $AGENT_ID\r\n+    echo "$AGENT_ID"\r\n     echo finished\r\n ---\r\n',
    );
    expect(io.err()).toContain('would fix 1 problem in 1 file');
    expect(readFileSync(file, 'utf8')).toBe(PROFILE);
  });

  it('--fix writes the fixed file, byte-identical elsewhere (BOM, CRLF), and it lints clean', async () => {
    const { dir, file } = setup();
    const io = memoryIO({ cwd: dir });
    expect(await main(['--fix', '.claude/agents/sc.md'], io)).toBe(0);
    expect(readFileSync(file)).toEqual(Buffer.from(FIXED, 'utf8'));
    expect(io.out()).toBe('');
    const again = memoryIO({ cwd: dir });
    expect(await main(['--format', 'json', '.claude/agents/sc.md'], again)).toBe(0);
    expect(JSON.parse(again.out())[0].messages).toEqual([]);
  });

  it('--fix-dry-run works on --stdin', async () => {
    const io = memoryIO({ cwd: '/repo', stdin: PROFILE });
    expect(await main(['--fix-dry-run', '--stdin', '--stdin-filename', '.claude/agents/in.md'], io)).toBe(0);
    expect(io.out()).toContain('--- a/.claude/agents/in.md\n+++ b/.claude/agents/in.md\n');
    expect(io.out()).toContain('+    echo "$AGENT_ID"\r\n');
  });

  it('refuses --fix with --stdin, and --fix with --fix-dry-run', async () => {
    expect(await main(['--fix', '--stdin'], memoryIO())).toBe(2);
    expect(await main(['--fix', '--fix-dry-run', 'x.md'], memoryIO())).toBe(2);
  });
});
