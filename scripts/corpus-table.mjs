// Findings per rule on the real corpus (../shared/corpus), with ShellCheck,
// as a table in the README, so that a change in what the tool reports on
// real profiles shows in review. `--write` updates README.md; the corpus
// test checks the README holds exactly this table (when ShellCheck is installed).
import { readFileSync, writeFileSync } from 'node:fs';

const BEGIN = '<!-- corpus-table:begin -->';
const END = '<!-- corpus-table:end -->';

/** results: ESLint-shaped JSON results of linting the corpus. */
export function renderCorpusTable(results) {
  const counts = new Map();
  const files = new Map();
  for (const result of results) {
    for (const m of result.messages) {
      counts.set(m.ruleId, (counts.get(m.ruleId) ?? 0) + 1);
      if (!files.has(m.ruleId)) files.set(m.ruleId, new Set());
      files.get(m.ruleId).add(result.filePath);
    }
  }
  const rows = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([rule, n]) => `| \`${rule}\` | ${n} | ${files.get(rule).size} |`);
  return `${BEGIN}\n| rule | findings | files |\n| --- | --- | --- |\n${rows.join('\n')}\n${END}`;
}

if (process.argv.includes('--write')) {
  const { main } = await import('../dist/src/cli/main.js');
  const { memoryIO } = await import('../dist/src/io.js');
  const corpus = new URL('../../shared/corpus/claude-flow-novice', import.meta.url).pathname;
  const io = memoryIO({ cwd: corpus, env: { NO_COLOR: '1' } });
  await main(['.', '--format', 'json', '--ci'], io);
  const path = new URL('../README.md', import.meta.url);
  const readme = readFileSync(path, 'utf8');
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1) throw new Error('README.md has no corpus-table markers');
  writeFileSync(path, readme.slice(0, start) + renderCorpusTable(JSON.parse(io.out())) + readme.slice(end + END.length));
}
