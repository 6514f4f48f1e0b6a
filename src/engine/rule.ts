import type { Fix, Range, RelatedInformation, Severity } from '../diagnostics.js';
import type { HookEntry } from '../hooks/extract.js';
import type { HookScript } from '../hooks/types.js';
import type { CcConfig } from '../runtimes/claude-code/config.js';
import type { RuntimeId } from '../runtimes/index.js';
import type { Profile } from '../profile/profile.js';
import type { ShellCommand } from '../shell/commands.js';
import type { ProgramLanguage } from '../shell/program-fields.js';
import type { SyntaxTree } from '../shell/parser.js';

export const DOCS_BASE = 'https://github.com/validate-agent-hooks/validate-agent-hooks/blob/main/rules/';

export type RuleCategory = 'file' | 'frontmatter' | 'hooks' | 'shell' | 'injection' | 'runtime' | 'shellcheck' | 'suppressions';

export interface RuleMeta {
  description: string;
  /** Severity when the configuration says nothing. */
  severity: Severity | 'off';
  category: RuleCategory;
  fixable?: boolean;
  /** Security findings carry a `security-severity` in SARIF (0–10). */
  securitySeverity?: number;
  /**
   * Findings of other rules (ShellCheck codes, typically) that a finding of
   * this rule makes redundant where their ranges overlap: the more specific
   * message wins, and the user is not told the same thing twice.
   */
  supersedes?: string[];
  /**
   * Where `checkScript` runs: hook scripts, and/or the ```bash / ```sh code
   * blocks of the Markdown body. Defaults to hooks only, so documentation
   * snippets are judged only by rules that opt in.
   */
  scope?: ('hooks' | 'body')[];
  /**
   * For rules with the `body` scope: words (literal text, one line each) of
   * which a code block must contain one for the rule to find anything in it.
   * Bodies hold hundreds of code blocks; only those that contain some rule's
   * word are parsed, and a body that contains none is not searched for code
   * blocks at all. Literal words, not patterns: a search for a word is cheap
   * over a whole body, a first run of a regular expression is not.
   */
  bodyTrigger?: readonly string[];
  /**
   * The runtimes whose hooks `checkScript` and `checkHooks` read. Defaults to
   * claude-flow only: a rule that knows one runtime's contract must not give
   * its advice about another's hooks; rules about shell itself list both.
   */
  runtimes?: RuntimeId[];
}

export interface Report {
  messageId: string;
  data?: Record<string, string | number>;
  range: Range;
  /** Overrides the rule's severity for this finding (e.g. a DROP in sqlite3 is an error). */
  severity?: Severity;
  fixes?: Fix[];
  related?: RelatedInformation[];
}

/** Context of rules that look at the profile as a whole; ranges are file ranges. */
export interface ProfileContext<Options> {
  profile: Profile;
  /** claude-flow's hook entries. */
  hooks: HookEntry[];
  /** Claude Code's hooks of the file (frontmatter, settings, plugin files), when it has any. */
  claudeCode?: CcConfig;
  options: Options;
  report(report: Report): void;
}

/** An analysed hook: its script, shell tree and simple commands. */
export interface AnalysedHook {
  hook: HookScript;
  tree: SyntaxTree;
  commands: ShellCommand[];
  /** Script range of script offsets [start, end). */
  range(start: number, end: number): Range;
  /** File range of a script range, for related information that points into another hook. */
  mapRange(range: Range): Range;
}

/**
 * Context of rules that read one hook script; ranges are script ranges, the engine maps them.
 * The rules of one hook may be handed the same object in turn: a rule reads it, never writes it.
 */
export interface ScriptContext<Options> extends Readonly<AnalysedHook> {
  readonly options: Options;
  report(report: Report): void;
}

/** Context of rules that compare the hooks of one profile with each other. */
export interface HooksContext<Options> {
  profile: Profile;
  hooks: AnalysedHook[];
  options: Options;
  report(report: Report & { hook: HookScript }): void;
}

/** A program in another language that Claude Code hooks run (`uv run .claude/hooks/guard.py`); ranges are file ranges. */
export interface ProgramContext<Options> {
  readonly program: {
    readonly file: string;
    readonly language: ProgramLanguage;
    readonly text: string;
    /** The events of the hooks that run it. */
    readonly callerEvents: readonly string[];
    /** The tools those hooks' exact matchers name, when each names some (absent: any tool may call it). */
    readonly callerTools?: readonly string[];
    /** Every hook that runs it runs it in the background (its exit code and output decide nothing). */
    readonly inBackground?: boolean;
  };
  readonly options: Options;
  /** File range of program offsets [start, end). */
  readonly range: (start: number, end: number) => Range;
  readonly report: (report: Report) => void;
}

export interface Rule<Options = Record<string, unknown>> {
  id: string;
  meta: RuleMeta;
  messages: Record<string, string>;
  /** JSON Schema of the rule's options in the configuration file. */
  optionsSchema?: Record<string, unknown>;
  defaultOptions?: Options;
  checkProfile?(context: ProfileContext<Options>): void;
  checkScript?(context: ScriptContext<Options>): void;
  checkHooks?(context: HooksContext<Options>): void;
  /** Programs in another language that Claude Code hooks run (read when `runtimes` includes claude-code). */
  checkProgram?(context: ProgramContext<Options>): void;
}

/** Whether a rule's script checks apply to hooks of this runtime. */
export function readsRuntime(rule: Rule<unknown>, runtime: RuntimeId): boolean {
  return (rule.meta.runtimes ?? ['claude-flow']).includes(runtime);
}

export function defineRule<Options = Record<string, unknown>>(rule: Rule<Options>): Rule<Options> {
  return rule;
}

export function formatMessage(template: string, data: Record<string, string | number> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in data ? String(data[key]) : whole));
}
