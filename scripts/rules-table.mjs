// Renders the README's rule table from the rules themselves; `--write`
// replaces the table between its markers in README.md. test/meta.test.ts
// checks the README holds exactly this table.
import { readFileSync, writeFileSync } from 'node:fs';

const BEGIN = '<!-- rules-table:begin -->';
const END = '<!-- rules-table:end -->';

export function renderRuleTable(rules) {
  const rows = [...rules]
    .sort((a, b) => a.meta.category.localeCompare(b.meta.category) || a.id.localeCompare(b.id))
    .map(
      (rule) =>
        `| [\`${rule.id}\`](rules/${rule.id}/README.md) | ${rule.meta.category} | ${rule.meta.severity} | ${rule.meta.fixable ? 'yes' : ''} | ${rule.meta.description.replace(/\|/g, '\\|')} |`,
    );
  return `${BEGIN}\n| rule | category | default | fix | what it reports |\n| --- | --- | --- | --- | --- |\n${rows.join('\n')}\n${END}`;
}

if (process.argv.includes('--write')) {
  const { rules } = await import('../dist/rules/index.js');
  const path = new URL('../README.md', import.meta.url);
  const readme = readFileSync(path, 'utf8');
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1) throw new Error('README.md has no rules-table markers');
  writeFileSync(path, readme.slice(0, start) + renderRuleTable(rules) + readme.slice(end + END.length));
}
