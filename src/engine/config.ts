import type { Severity } from '../diagnostics.js';

export type SeveritySetting = 'off' | 'warn' | 'error' | 'info';
export type RuleSetting = SeveritySetting | [SeveritySetting, Record<string, unknown>?];

/** The configuration the engine runs with, after files and flags are merged. */
export interface LintConfig {
  rules: Record<string, RuleSetting>;
  /** Honour `# validate-agent-hooks-disable…` comments (off with `--no-inline-config`). */
  inlineConfig: boolean;
  /** Report suppression comments that suppress nothing. */
  reportUnusedDisableDirectives: boolean;
  /** Absolute glob patterns of files not to lint. */
  ignorePatterns: string[];
  /** Extra forbidden commands, in the shape of the data rules' patterns. */
  forbiddenCommands: { commands: string[]; flags?: string[][]; argument?: string; message: string; severity?: Severity }[];
  /** Commands the user allows although a rule would flag them (by name). */
  allowedCommands: string[];
  /** ShellCheck's info and style findings: reported as warnings, or not at all. */
  shellcheckInfo: 'warn' | 'off';
}

export function defaultConfig(): LintConfig {
  return {
    rules: {},
    inlineConfig: true,
    reportUnusedDisableDirectives: true,
    ignorePatterns: [],
    forbiddenCommands: [],
    allowedCommands: [],
    shellcheckInfo: 'warn',
  };
}

export function settingSeverity(setting: RuleSetting | undefined): SeveritySetting | undefined {
  if (setting === undefined) return undefined;
  return Array.isArray(setting) ? setting[0] : setting;
}

export function settingOptions(setting: RuleSetting | undefined): Record<string, unknown> | undefined {
  return Array.isArray(setting) ? setting[1] : undefined;
}

export function toSeverity(setting: SeveritySetting): Severity | undefined {
  return setting === 'off' ? undefined : setting === 'warn' ? 'warning' : setting;
}
