import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { defaultConfig, type LintConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';
import type { Rule } from '../../src/engine/rule.js';

/**
 * Declarative unit cases for one rule (the style of ESLint's RuleTester).
 * A case is either a hook script (`code`, wrapped into a profile under
 * `hooks.<hook>` as a literal block) with positions relative to the script,
 * or a whole profile (`profile`) with positions relative to the file.
 */
export interface AcceptCase {
  code?: string;
  profile?: string;
  hook?: string;
  options?: Record<string, unknown>;
  name?: string;
}

export interface RejectCase extends AcceptCase {
  errors: {
    messageId?: string;
    severity?: 'error' | 'warning' | 'info';
    line: number;
    column: number;
    endLine?: number;
    endColumn?: number;
    message?: RegExp | string;
  }[];
}

/** How every finding's message starts (ESLint's style: what was expected, or what was not). */
export const MESSAGE_STYLE = /^(Expected|Unexpected|Invalid|Disallowed)\b/;

const HOOK_INDENT = 4;
/** The script starts on line 6 of the wrapping profile. */
const HOOK_FIRST_LINE = 6;

export function wrapScript(code: string, hook = 'on_blocking_start'): string {
  const body = code
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line === '' ? '' : ' '.repeat(HOOK_INDENT) + line))
    .join('\n');
  const [group, name] = hook.includes('.') ? (hook.split('.') as [string, string]) : [undefined, hook];
  const key = group
    ? `  ${group}:\n    ${name}: |\n${body
        .split('\n')
        .map((l) => (l ? `  ${l}` : l))
        .join('\n')}`
    : `  ${name}: |\n${body}`;
  return `---\nname: rule-test\ndescription: A profile wrapped around a unit case.\nhooks:\n${key}\n---\n`;
}

export async function lintCase(rule: Rule<unknown>, testCase: AcceptCase): Promise<Diagnostic[]> {
  const config: LintConfig = defaultConfig();
  config.reportUnusedDisableDirectives = false;
  if (testCase.options) config.rules[rule.id] = ['error', testCase.options];
  const text = testCase.profile ?? wrapScript(testCase.code ?? '', testCase.hook);
  const [result] = await lintInputs([{ filePath: '/virtual/case.md', text }], { rules: [rule], config });
  return result!.diagnostics.filter((d) => d.ruleId === rule.id);
}

function toScriptPosition(testCase: AcceptCase, d: Diagnostic): Diagnostic {
  if (testCase.profile !== undefined) return d;
  const nested = (testCase.hook ?? '').includes('.');
  const lineShift = HOOK_FIRST_LINE - 1 + (nested ? 1 : 0);
  const columnShift = HOOK_INDENT + (nested ? 2 : 0);
  return {
    ...d,
    line: d.line - lineShift,
    endLine: d.endLine - lineShift,
    column: d.column - columnShift,
    endColumn: d.endColumn - columnShift,
  };
}

export function ruleTester(rule: Rule<unknown>, cases: { accept: (string | AcceptCase)[]; reject: RejectCase[] }): void {
  describe(rule.id, () => {
    cases.accept.forEach((raw, index) => {
      const testCase = typeof raw === 'string' ? { code: raw } : raw;
      it(`accepts ${testCase.name ?? `case ${index + 1}`}`, async () => {
        const found = await lintCase(rule, testCase);
        expect(found.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
      });
    });
    cases.reject.forEach((testCase, index) => {
      it(`rejects ${testCase.name ?? `case ${index + 1}`}`, async () => {
        const found = (await lintCase(rule, testCase)).map((d) => toScriptPosition(testCase, d));
        expect(found.length, found.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n')).toBe(testCase.errors.length);
        testCase.errors.forEach((expected, i) => {
          const actual = found[i]!;
          if (expected.messageId !== undefined) expect(actual.messageId).toBe(expected.messageId);
          if (expected.severity !== undefined) expect(actual.severity).toBe(expected.severity);
          expect({ line: actual.line, column: actual.column }).toEqual({ line: expected.line, column: expected.column });
          if (expected.endLine !== undefined) expect(actual.endLine).toBe(expected.endLine);
          if (expected.endColumn !== undefined) expect(actual.endColumn).toBe(expected.endColumn);
          if (expected.message instanceof RegExp) expect(actual.message).toMatch(expected.message);
          else if (expected.message !== undefined) expect(actual.message).toBe(expected.message);
        });
      });
    });
  });
}
