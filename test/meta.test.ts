import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { renderRuleTable } from '../scripts/rules-table.mjs';
import { MESSAGE_STYLE } from './helpers/rule-tester.js';

/** Keeps the wiring honest: every rule registered, documented, with fixtures; generated files fresh. */
const ROOT = join(import.meta.dirname, '..');
const ruleDirs = readdirSync(join(ROOT, 'rules')).filter((d) => statSync(join(ROOT, 'rules', d)).isDirectory());

describe('rules', () => {
  it('every rule directory is registered, once, under its own id', () => {
    expect(rules.map((r) => r.id).sort()).toEqual([...ruleDirs].sort());
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
  });

  it.each(ruleDirs)('%s has an id in kebab case, a description, a README with examples, and fixtures', (id) => {
    const rule = rules.find((r) => r.id === id)!;
    expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)+$/);
    expect(rule.meta.description.length).toBeGreaterThan(10);
    // `{{message}}` passes on the runtime contract's own words (cc-output-invalid); that rule's tests hold them to the same style.
    for (const message of Object.values(rule.messages)) if (message !== '{{message}}') expect(message).toMatch(MESSAGE_STYLE);
    const readme = readFileSync(join(ROOT, 'rules', id, 'README.md'), 'utf8');
    expect(readme).toMatch(new RegExp(`^# ${id}\\n`));
    expect(readme).toMatch(/## Incorrect|## Examples/i);
    // One fixture that triggers the rule and one that does not, anywhere below the rule's fixture directory
    // (a Claude Code rule's fixtures may sit in a project layout such as `.claude/agents/`).
    const fixtures = readdirSync(join(ROOT, 'fixtures', 'rules', id), { recursive: true }).map(String);
    const invalid = fixtures.find((f) => /(?:^|\/)invalid\.(?:md|json|sh)$/.test(f));
    expect(invalid, `an invalid.* fixture for ${id}`).toBeDefined();
    expect(fixtures.some((f) => /(?:^|\/)valid\.(?:md|json|sh)$/.test(f))).toBe(true);
    expect(readFileSync(join(ROOT, 'fixtures', 'rules', id, invalid!), 'latin1')).toContain(`expect`);
  });

  it('the README rule table is generated from the rules and up to date', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(renderRuleTable(rules));
  });

  it('generated files are fresh (rules/index.ts, schema validators)', () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'rules-index.mjs'), '--check']);
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-schemas.mjs'), '--check']);
  });
});
