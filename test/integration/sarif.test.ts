import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import type { Diagnostic, LintResult } from '../../src/diagnostics.js';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';
import { FINGERPRINT_KEY, sarifReporter } from '../../src/reporters/sarif.js';

/**
 * The official SARIF 2.1.0 JSON Schema (draft-07, `$id` …/oasis-tcs/sarif-spec/…/sarif-schema-2.1.0.json),
 * kept in the repository so the test runs offline. Taken from the npm package
 * @datadog/datadog-ci-plugin-sarif 5.25.0, which bundles it (dist/bundle.js, from
 * src/json-schema/sarif-schema-2.1.0.json); its 52 definitions match those of the
 * rtm.5 schema shipped by @microsoft/jest-sarif.
 */
const schema = JSON.parse(readFileSync(new URL('../../schemas/sarif-2.1.0.json', import.meta.url), 'utf8')) as Record<string, unknown>;
let validate: ValidateFunction;

beforeAll(() => {
  // The schema is draft-07 and uses formats (uri, date-time): strict mode off for its own keywords, formats on.
  const ajv = new Ajv({ allErrors: true, strict: false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  validate = ajv.compile(schema);
});

function expectValid(log: unknown): void {
  const ok = validate(log);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(ok).toBe(true);
}

const PROFILE = `---
name: sarif
description: sarif test
hooks:
  on_blocking_start: |
    rm -rf ./out
    echo ok
    rm -rf ./out
  pre: |
    chmod 777 /tmp/x
---
`;

async function lint(text: string, filePath = '/repo/.claude/agents/a b.md'): Promise<LintResult[]> {
  return lintInputs([{ filePath, text }], { rules, config: defaultConfig() });
}

const OPTIONS = { cwd: '/repo', color: false, verbose: false, rules, toolVersion: '1.2.3' };

describe('sarif reporter', () => {
  it('the schema copy is the official draft-07 SARIF 2.1.0 schema', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.title).toBe('Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema');
  });

  it('produces a log that validates, with rules, repo-relative locations, regions and fingerprints', async () => {
    const log = JSON.parse(sarifReporter(await lint(PROFILE), OPTIONS));
    expectValid(log);
    const run = log.runs[0];
    expect(run.tool.driver).toMatchObject({
      name: 'validate-agent-hooks',
      version: '1.2.3',
      informationUri: expect.stringMatching(/^https:/),
    });
    const driverIds = run.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(driverIds).toEqual(['command-chmod-777', 'command-rm-rf']); // the rules with results, in registry order
    const rmRf = run.tool.driver.rules.find((r: { id: string }) => r.id === 'command-rm-rf');
    expect(rmRf).toMatchObject({
      shortDescription: { text: expect.any(String) },
      fullDescription: { text: expect.any(String) },
      help: { text: expect.any(String), markdown: expect.any(String) },
      helpUri: expect.stringContaining('rules/command-rm-rf/README.md'),
      properties: { 'security-severity': '9.0', tags: expect.arrayContaining(['security']) },
    });
    expect(run.results).toHaveLength(3);
    const [first] = run.results;
    expect(first).toMatchObject({
      ruleId: 'command-rm-rf',
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: '.claude/agents/a%20b.md', uriBaseId: '%SRCROOT%' },
            region: { startLine: 6, startColumn: 5, endLine: 6, endColumn: 17 },
          },
        },
      ],
    });
    expect(driverIds[first.ruleIndex]).toBe('command-rm-rf');
    for (const result of run.results) expect(result.partialFingerprints[FINGERPRINT_KEY]).toMatch(/^[0-9a-f]{32}:\d+$/);
  });

  it('fingerprints survive lines moving, and tell identical lines apart', async () => {
    const fingerprints = async (text: string): Promise<string[]> =>
      JSON.parse(sarifReporter(await lint(text), OPTIONS)).runs[0].results.map(
        (r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints[FINGERPRINT_KEY],
      );
    const before = await fingerprints(PROFILE);
    const moved = await fingerprints(PROFILE.replace('    rm -rf ./out\n', '    echo first\n\n    rm -rf ./out\n'));
    expect(moved).toEqual(before);
    expect(new Set(before).size).toBe(before.length);
    const otherFile = JSON.parse(sarifReporter(await lint(PROFILE, '/repo/.claude/agents/other.md'), OPTIONS)).runs[0].results[0]
      .partialFingerprints[FINGERPRINT_KEY];
    expect(otherFile).not.toBe(before[0]);
  });

  it('adds driver rules for ShellCheck codes on the fly; related locations and fixes validate too', () => {
    const base = { severity: 'warning' as const, line: 6, column: 10, endLine: 6, endColumn: 12 };
    const diagnostics: Diagnostic[] = [
      {
        ...base,
        ruleId: 'shellcheck/SC2086',
        message: 'Double quote to prevent globbing and word splitting.',
        fixes: [
          {
            title: 'Quote it',
            safe: true,
            edits: [
              { range: { line: 6, column: 10, endLine: 6, endColumn: 10 }, text: '"' },
              { range: { line: 6, column: 12, endLine: 6, endColumn: 12 }, text: '"' },
            ],
          },
        ],
      },
      { ...base, ruleId: 'shellcheck/SC2086', message: 'again', line: 7, endLine: 7 },
      {
        ...base,
        severity: 'info',
        ruleId: 'shellcheck/SC2034',
        message: 'unused',
        related: [{ message: 'assigned here', file: '/repo/x.md', range: { line: 1, column: 1, endLine: 1, endColumn: 2 } }],
      },
    ];
    const log = JSON.parse(sarifReporter([{ filePath: '/repo/x.md', diagnostics }], OPTIONS));
    expectValid(log);
    const driver = log.runs[0].tool.driver.rules;
    const added = driver.filter((r: { id: string }) => r.id.startsWith('shellcheck/'));
    expect(added.map((r: { id: string; helpUri: string }) => [r.id, r.helpUri])).toEqual([
      ['shellcheck/SC2086', 'https://www.shellcheck.net/wiki/SC2086'],
      ['shellcheck/SC2034', 'https://www.shellcheck.net/wiki/SC2034'],
    ]);
    const results = log.runs[0].results;
    expect(results.map((r: { ruleIndex: number }) => driver[r.ruleIndex].id)).toEqual([
      'shellcheck/SC2086',
      'shellcheck/SC2086',
      'shellcheck/SC2034',
    ]);
    expect(results[2].level).toBe('note');
    expect(results[2].relatedLocations[0].physicalLocation.artifactLocation.uri).toBe('x.md');
  });

  it('the golden SARIF files validate', () => {
    for (const name of ['profile-emoji', 'profile-crlf-bom']) {
      expectValid(JSON.parse(readFileSync(new URL(`../golden/${name}.sarif.json`, import.meta.url), 'utf8')));
    }
  });

  it('files outside the working directory get absolute file URIs', () => {
    const log = JSON.parse(
      sarifReporter(
        [
          {
            filePath: '/elsewhere/p.md',
            diagnostics: [{ ruleId: 'command-rm-rf', severity: 'error', message: 'm', line: 1, column: 1, endLine: 1, endColumn: 2 }],
          },
        ],
        OPTIONS,
      ),
    );
    expectValid(log);
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'file:///elsewhere/p.md' });
  });

  it('the validation fails on broken documents (the test can fail)', async () => {
    const good = JSON.parse(sarifReporter(await lint(PROFILE), OPTIONS));
    // Each breaker reaches into the parsed log wherever it likes; typing the whole of SARIF for that adds nothing.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const broken: ((log: any) => void)[] = [
      (log) => {
        delete log.version;
      },
      (log) => {
        log.version = '2.0.0';
      },
      (log) => {
        log.runs[0].results[0].level = 'fatal';
      },
      (log) => {
        log.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
      },
      (log) => {
        delete log.runs[0].tool.driver.name;
      },
      (log) => {
        log.runs[0].results[0].message = 'not an object';
      },
      (log) => {
        log.runs[0].tool.driver.rules[0].helpUri = 'not a uri';
      },
    ];
    for (const breakIt of broken) {
      const log = structuredClone(good);
      breakIt(log);
      expect(validate(log)).toBe(false);
    }
  });
});
