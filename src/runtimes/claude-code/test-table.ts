import { boundedRegExp } from '../../bounded-regex.js';
import { dirname, resolve } from 'node:path';
import type { Diagnostic, Range } from '../../diagnostics.js';
import { parsePositionedYaml, readYamlText, schemaProblems, type YamlProblem } from '../../profile/positioned-yaml.js';
import { validate } from '../../schema/generated/claude-code-test-validator.js';
import { closestMatch } from '../../text/suggest.js';
import { EVENT_NAMES, eventSpec, exit2Blocks, PERMISSION_DECISIONS_OF, TOP_LEVEL_BLOCK_EVENTS } from './contract.js';
import type { Decision } from './verdict.js';

/**
 * A guard's test table (`test FILE.yaml`): YAML checked against
 * schemas/claude-code-test.schema.json and the contract (known events,
 * tools only on tool events, reasons that compile), every problem a
 * diagnostic at its line and column.
 */

export interface TestCase {
  name: string;
  event: string;
  tool?: string;
  toolInput?: Record<string, unknown>;
  input?: Record<string, unknown>;
  matcherValue?: string;
  blocked: boolean;
  decision?: Decision;
  reasonMatches?: RegExp;
  /** Where the case is written (its `name`), for reports. */
  range: Range;
}

export interface TestTable {
  file: string;
  /** Absolute path of the target, resolved against the table's directory. */
  target: string;
  targetAsWritten: string;
  targetRange: Range;
  project?: string;
  projectRange?: Range;
  timeoutCap?: number;
  cases: TestCase[];
}

export type TestTableLoad = { ok: true; table: TestTable } | { ok: false; diagnostics: Diagnostic[] };

export const TEST_TABLE_RULE = 'claude-code-test-invalid';

/** A case as the YAML writes it: its reason pattern still text, its place not yet known. */
type RawCase = Omit<TestCase, 'reasonMatches' | 'range'> & { reasonMatches?: string };

export async function loadTestTable(file: string): Promise<TestTableLoad> {
  const read = await readYamlText(file, 'test table');
  if ('problems' in read) return { ok: false, diagnostics: asDiagnostics(read.problems) };
  return parseTestTable(file, read.text);
}

function problem(range: Range, message: string): Diagnostic {
  return { ruleId: TEST_TABLE_RULE, severity: 'error', ...range, message };
}

function asDiagnostics(problems: YamlProblem[]): Diagnostic[] {
  return problems.map((p) => problem(p.range, p.message));
}

export function parseTestTable(file: string, text: string): TestTableLoad {
  const loaded = parsePositionedYaml(text);
  if (!loaded.ok) return { ok: false, diagnostics: asDiagnostics(loaded.problems) };
  const { data, at } = loaded.yaml;
  if (!validate(data))
    return {
      ok: false,
      diagnostics: asDiagnostics(schemaProblems(loaded.yaml, validate.errors ?? [], 'the table')),
    };

  const raw = data as { target: string; project?: string; timeoutCap?: number; cases: RawCase[] };
  const base = dirname(resolve(file));
  const diagnostics: Diagnostic[] = [];
  const cases: TestCase[] = raw.cases.map((item, index) => {
    const path = ['cases', String(index)];
    const spec = eventSpec(item.event);
    if (!spec) {
      const near = closestMatch(item.event, EVENT_NAMES);
      diagnostics.push(
        problem(
          at([...path, 'event']),
          `Unknown event \`${item.event}\`${near ? `: did you mean \`${near}\`?` : ' (events are case-sensitive).'}`,
        ),
      );
    } else if (!spec.toolEvent)
      for (const key of ['tool', 'toolInput'] as const)
        if (item[key] !== undefined)
          diagnostics.push(problem(at([...path, key]), `Unexpected \`${key}\`: ${item.event} is not a tool event.`));
    let reasonMatches: RegExp | undefined;
    if (item.reasonMatches !== undefined) {
      try {
        reasonMatches = boundedRegExp(item.reasonMatches);
      } catch (error) {
        diagnostics.push(problem(at([...path, 'reasonMatches']), `Invalid \`reasonMatches\`: ${(error as Error).message}.`));
      }
    }
    const canBlock = spec !== undefined && spec.block !== 'none';
    if (spec && !canBlock && item.blocked)
      diagnostics.push(problem(at([...path, 'blocked']), `Unexpected \`blocked: true\`: ${item.event} cannot block.`));
    if (item.decision !== undefined && spec) {
      // Events with a permissionDecision (PreToolUse, PreModelSwitch) also take `block` when they read a top-level one.
      const permission = PERMISSION_DECISIONS_OF[spec.name];
      const possible = permission
        ? [...permission, ...(TOP_LEVEL_BLOCK_EVENTS.has(spec.name) ? ['block'] : []), 'none']
        : spec.block === 'json-only'
          ? ['deny', 'allow', 'none']
          : exit2Blocks(spec.name)
            ? ['block', 'none']
            : ['none'];
      if (!possible.includes(item.decision))
        diagnostics.push(
          problem(at([...path, 'decision']), `Invalid \`decision\` ${item.decision} for ${item.event}: expected ${possible.join(', ')}.`),
        );
      else if (canBlock && item.blocked !== (item.decision === 'deny' || item.decision === 'block'))
        diagnostics.push(
          problem(
            at([...path, 'blocked']),
            `Unexpected \`blocked: ${String(item.blocked)}\` with \`decision: ${item.decision}\`: ${item.decision} ${item.blocked ? 'does not block' : 'blocks'}.`,
          ),
        );
    }
    return {
      name: item.name,
      event: item.event,
      blocked: item.blocked,
      range: at([...path, 'name']),
      ...(item.tool !== undefined ? { tool: item.tool } : {}),
      ...(item.toolInput !== undefined ? { toolInput: item.toolInput } : {}),
      ...(item.input !== undefined ? { input: item.input } : {}),
      ...(item.matcherValue !== undefined ? { matcherValue: item.matcherValue } : {}),
      ...(item.decision !== undefined ? { decision: item.decision } : {}),
      ...(reasonMatches ? { reasonMatches } : {}),
    };
  });
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  return {
    ok: true,
    table: {
      file,
      target: resolve(base, raw.target),
      targetAsWritten: raw.target,
      targetRange: at(['target']),
      ...(raw.project !== undefined ? { project: resolve(base, raw.project), projectRange: at(['project']) } : {}),
      ...(raw.timeoutCap !== undefined ? { timeoutCap: raw.timeoutCap } : {}),
      cases,
    },
  };
}
