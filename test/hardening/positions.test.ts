import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import type { Range } from '../../src/diagnostics.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs, type BatchAnalyzer } from '../../src/engine/lint.js';
import type { Rule } from '../../src/engine/rule.js';
import { ScriptSourceMap } from '../../src/hooks/source-map.js';
import { extractHooks } from '../../src/hooks/extract.js';
import { profileFromText } from '../../src/profile/profile.js';
import type { HookScript } from '../../src/hooks/types.js';
import { LineIndex } from '../../src/text/line-index.js';
import { shellcheckAnalyzer, shellcheckVersion } from '../../src/shellcheck/index.js';
// @ts-expect-error: a plain .mjs script without types
import { generateTree } from '../../scripts/generate-profiles.mjs';
import { corpusFiles, corpusMissing, note } from './helpers.js';

/**
 * For every shell-rule and ShellCheck finding, the text at the file range the
 * engine reports equals the text at the script range the rule or ShellCheck
 * gave. No product hook is needed: the rules are wrapped (their report sees
 * the script range) and the ShellCheck analyzer is handed source maps that
 * record each mapping. Findings that fall back to the whole value (text that
 * folding or escapes changed) are exempt, counted and printed.
 */

interface Mapping {
  source: string;
  hook: HookScript;
  scriptRange: Range;
  fileRange: Range;
  exact: boolean;
  origin: string;
}
const HAS_SHELLCHECK = shellcheckVersion() !== undefined;
const totals = { exact: 0, fallback: 0, byOrigin: new Map<string, number>() };

function recordingMap(map: ScriptSourceMap, sink: (m: { scriptRange: Range; fileRange: Range; exact: boolean }) => void): ScriptSourceMap {
  return new Proxy(map, {
    get(target, key, receiver) {
      if (key === 'mapRange')
        return (range: Range) => {
          const out = target.mapRange(range);
          sink({ scriptRange: range, fileRange: out.range, exact: out.exact });
          return out;
        };
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Wraps a rule so each script report is recorded with its mapping (the engine maps with the same source map). */
function recordingRule(rule: Rule<unknown>, sink: (m: Omit<Mapping, 'source'>) => void): Rule<unknown> {
  if (!rule.checkScript && !rule.checkHooks) return rule;
  const wrapped: Rule<unknown> = { ...rule };
  if (rule.checkScript) {
    wrapped.checkScript = (ctx) =>
      rule.checkScript!({
        ...ctx,
        report: (r) => {
          const map = (ctx as unknown as { map: ScriptSourceMap }).map;
          const out = map.mapRange(r.range);
          sink({ hook: ctx.hook, scriptRange: r.range, fileRange: out.range, exact: out.exact, origin: rule.id });
          ctx.report(r);
        },
      });
  }
  if (rule.checkHooks) {
    wrapped.checkHooks = (ctx) =>
      rule.checkHooks!({
        ...ctx,
        report: (r) => {
          const item = ctx.hooks.find((h) => h.hook === r.hook) as unknown as { map: ScriptSourceMap } | undefined;
          if (item) {
            const out = item.map.mapRange(r.range);
            sink({ hook: r.hook, scriptRange: r.range, fileRange: out.range, exact: out.exact, origin: rule.id });
          }
          ctx.report(r);
        },
      });
  }
  return wrapped;
}

function textAt(lines: LineIndex, range: Range): string {
  return lines.text.slice(
    lines.offsetAt({ line: range.line, column: range.column }),
    lines.offsetAt({ line: range.endLine, column: range.endColumn }),
  );
}

/** Script text equals file text; across lines, a block scalar's file lines carry indentation (and `\r`) the script does not. */
function sameText(scriptText: string, fileText: string): boolean {
  if (scriptText === fileText) return true;
  const s = scriptText.split('\n');
  const f = fileText.split('\n').map((l, i, all) => (i < all.length - 1 ? l.replace(/\r$/, '') : l));
  if (s.length !== f.length || s[0] !== f[0]) return false;
  return s.every((line, i) => i === 0 || (f[i]!.endsWith(line) && /^[ \t]*$/.test(f[i]!.slice(0, f[i]!.length - line.length))));
}

async function checkAll(inputs: { filePath: string; bytes: Buffer }[]): Promise<string[]> {
  const mappings: Mapping[] = [];
  const sources = new Map(inputs.map((i) => [i.filePath, i.bytes.toString('utf8').replace(/^\uFEFF/, '')]));
  const wrapped = rules.map((rule) => recordingRule(rule, (m) => mappings.push({ ...m, source: sources.get(m.hook.file)! })));
  const analyzers: BatchAnalyzer[] = [];
  if (HAS_SHELLCHECK) {
    const inner = shellcheckAnalyzer({ infoSeverity: 'warning' });
    analyzers.push({
      analyze: (hooks) =>
        inner.analyze(
          hooks.map(({ hook, map }) => ({
            hook,
            map: recordingMap(map, (m) => mappings.push({ ...m, hook, source: sources.get(hook.file)!, origin: 'shellcheck' })),
          })),
        ),
    });
  }
  await lintInputs(inputs, { rules: wrapped, config: defaultConfig(), batchAnalyzers: analyzers });
  const failures: string[] = [];
  const lineIndexes = new Map<string, LineIndex>();
  for (const m of mappings) {
    totals.byOrigin.set(m.origin, (totals.byOrigin.get(m.origin) ?? 0) + 1);
    if (!m.exact) {
      totals.fallback++;
      continue;
    }
    totals.exact++;
    const fileLines = lineIndexes.get(m.source) ?? new LineIndex(m.source);
    lineIndexes.set(m.source, fileLines);
    const scriptText = textAt(new LineIndex(m.hook.text), m.scriptRange);
    const fileText = textAt(fileLines, m.fileRange);
    if (!sameText(scriptText, fileText))
      failures.push(
        `${m.hook.file} ${m.hook.name} ${m.origin}: script ${JSON.stringify(scriptText)} vs file ${JSON.stringify(fileText)} (${m.fileRange.line}:${m.fileRange.column})`,
      );
  }
  return failures;
}

afterAll(() => {
  note(
    `positions: ${totals.exact} exact mappings checked, ${totals.fallback} fell back to the whole value (exempt); by origin: ${[...totals.byOrigin].map(([k, v]) => `${k}=${v}`).join(', ')}`,
  );
});

describe('mapped positions point at the same text', () => {
  it('regression: a range across an escape of a double-quoted hook is not called exact (it used to be, pointing at shifted text)', () => {
    const text = '---\nname: q\nhooks:\n  pre: "echo \\"a\\" $AGENT_ID"\n---\n';
    const profile = profileFromText('/x/q.md', text);
    const hook = extractHooks(profile)[0]!;
    expect(hook.text).toBe('echo "a" $AGENT_ID');
    const map = new ScriptSourceMap(hook, profile.lines);
    const across = map.mapRange({ line: 1, column: 6, endLine: 1, endColumn: 9 }); // `"a"`: both quotes are escapes in the file
    expect(across.exact).toBe(false);
    const inside = map.mapRange({ line: 1, column: 10, endLine: 1, endColumn: 19 }); // `$AGENT_ID`, verbatim
    expect(inside.exact).toBe(true);
    expect(textAt(profile.lines, inside.range)).toBe('$AGENT_ID');
    // A literal block's multi-line range stays exact across its lines, blank ones included.
    const block = profileFromText('/x/b.md', '---\nname: b\nhooks:\n  pre: |\n    a\r\n\r\n    b\n---\n'.replace(/\r/g, ''));
    const blockHook = extractHooks(block)[0]!;
    const spanning = new ScriptSourceMap(blockHook, block.lines).mapRange({ line: 1, column: 1, endLine: 3, endColumn: 2 });
    expect(spanning.exact).toBe(true);
  });

  it.skipIf(corpusMissing !== undefined)(
    `on the real corpus, shell rules${HAS_SHELLCHECK ? ' and ShellCheck' : ' (ShellCheck not installed: skipped)'}`,
    async () => {
      const failures = await checkAll(corpusFiles().map((f) => ({ filePath: f.path, bytes: f.bytes })));
      expect(totals.exact).toBeGreaterThan(20);
      expect(failures).toEqual([]);
    },
    60_000,
  );

  it('on 300 generated profiles (seed 7)', async () => {
    const before = totals.exact;
    const dir = mkdtempSync(join(tmpdir(), 'vah-positions-'));
    try {
      const agents = generateTree(dir, 300, 7) as string;
      const paths = readdirSync(agents, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(agents, f));
      const failures = await checkAll(paths.map((p) => ({ filePath: p, bytes: readFileSync(p) })));
      expect(totals.exact - before).toBeGreaterThan(100);
      expect(failures).toEqual([]);
      // The same profiles with folded (`>`) and double-quoted hooks: folding joins lines, so some findings fall back (counted, exempt).
      const restyled = paths.map((p, i) => {
        const text = readFileSync(p, 'utf8');
        const styled =
          i % 2 === 0
            ? text.replace(/: \|(\r?\n)/g, ': >$1')
            : text.replace(
                /^( {2}[a-z_]+): \|\r?\n((?: {4}.*\r?\n)+)/gm,
                (_m, key: string, body: string) =>
                  `${key}: "${body
                    .split(/\r?\n/)
                    .filter(Boolean)
                    .map((l) => l.slice(4).replace(/\\/g, '\\\\').replace(/"/g, '\\"'))
                    .join('\\n')}"\n`,
              );
        return { filePath: `${p}.restyled.md`, bytes: Buffer.from(styled) };
      });
      const fallbackBefore = totals.fallback;
      const restyledFailures = await checkAll(restyled);
      note(
        `positions: restyled (folded / double-quoted) generated profiles: ${totals.fallback - fallbackBefore} findings fell back to the whole value`,
      );
      expect(restyledFailures).toEqual([]);
      expect(failures).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
