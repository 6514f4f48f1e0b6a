// Real-world accuracy check: lints the shared corpus (../shared/corpus) and
// any corpora given as arguments, and prints per rule how many findings it
// made and in how many files, so that a change in precision shows in review.
//
//   npm run accuracy [-- DIR ...] [--rule ID ...] [--json] [--no-shellcheck]
//
// `--rule ID` also lists every finding of that rule (file:line:column and
// message), to read them one by one; `--json` prints the counts as JSON.
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rule: { type: 'string', multiple: true, default: [] },
    json: { type: 'boolean', default: false },
    'no-shellcheck': { type: 'boolean', default: false },
    'no-shared': { type: 'boolean', default: false },
  },
});

const { main } = await import('../dist/src/cli/main.js');
const { memoryIO } = await import('../dist/src/io.js');

const shared = new URL('../../shared/corpus', import.meta.url).pathname;
const corpora = [...(values['no-shared'] || !existsSync(shared) ? [] : [shared]), ...positionals.map((p) => resolve(p))];
if (corpora.length === 0) {
  console.error('accuracy: no corpus (../shared/corpus is absent and no directory was given)');
  process.exit(2);
}

/** Findings per rule of one corpus: counts, files, exit code, and the findings of the rules asked for. */
async function measure(dir) {
  const io = memoryIO({ cwd: dir, env: { NO_COLOR: '1' } });
  const flags = values['no-shellcheck'] ? ['--no-shellcheck'] : ['--ci'];
  const code = await main(['.', '--format', 'json', ...flags], io);
  let results;
  try {
    results = JSON.parse(io.out());
  } catch {
    return { dir, code, files: 0, rules: [], listed: [], error: io.err().trim() };
  }
  const byRule = new Map();
  const listed = [];
  for (const result of results) {
    for (const m of result.messages) {
      const entry = byRule.get(m.ruleId) ?? { rule: m.ruleId, findings: 0, files: new Set(), errors: 0 };
      entry.findings++;
      entry.files.add(result.filePath);
      if (m.severity === 2) entry.errors++;
      byRule.set(m.ruleId, entry);
      if (values.rule.includes(m.ruleId)) listed.push(`${relative(dir, result.filePath)}:${m.line}:${m.column}  ${m.ruleId}  ${m.message}`);
    }
  }
  const rules = [...byRule.values()]
    .sort((a, b) => b.findings - a.findings || a.rule.localeCompare(b.rule))
    .map((e) => ({ rule: e.rule, findings: e.findings, files: e.files.size, errors: e.errors }));
  return { dir, code, files: results.length, rules, listed, error: io.err().includes('internal error') ? io.err().trim() : undefined };
}

const measured = [];
for (const dir of corpora) measured.push(await measure(dir));

if (values.json) {
  console.log(
    JSON.stringify(
      measured.map(({ listed, ...m }) => m),
      null,
      2,
    ),
  );
} else {
  for (const m of measured) {
    console.log(`\n${m.dir}: ${m.files} files, exit ${m.code}${m.error ? ` — ${m.error}` : ''}`);
    const width = Math.max(4, ...m.rules.map((r) => r.rule.length));
    console.log(`  ${'rule'.padEnd(width)}  findings  files  errors`);
    for (const r of m.rules)
      console.log(
        `  ${r.rule.padEnd(width)}  ${String(r.findings).padStart(8)}  ${String(r.files).padStart(5)}  ${String(r.errors).padStart(6)}`,
      );
    for (const line of m.listed) console.log(`    ${line}`);
  }
}
// A corpus that crashes the tool or makes it exit 2 is a failure of the check.
process.exit(measured.some((m) => m.code === 2 || m.error) ? 1 : 0);
