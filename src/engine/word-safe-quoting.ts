import type { Diagnostic, Range } from '../diagnostics.js';
import { NUMERIC_ENV } from '../runtime/contract.js';
import { isSplitInCommand, nodesOfType, shellScriptArgument } from '../shell/analysis.js';
import { shapeWithin, wordSafety } from '../shell/word-safety.js';
import type { AnalysedHook } from './rule.js';

/** ShellCheck's "expressions don't expand in single quotes". */
const SINGLE_QUOTE_CODE = 'shellcheck/SC2016';

/** ShellCheck's "quote this to prevent word splitting / globbing" findings. */
const QUOTING_CODES = new Set(['shellcheck/SC2086', 'shellcheck/SC2046']);
const EXPANSIONS = ['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion'];

/** An unquoted expansion that cannot split or glob, in file positions, and why. */
export interface WordSafeExpansion {
  hook: string;
  range: Range;
  reason: string;
  /** The ShellCheck finding it answers (default: the quoting ones). */
  code?: string;
}

/**
 * The unquoted expansions of a hook that the word-safety analysis (the one
 * json-spliced-value uses) shows cannot split or glob: `$(date +%s)`,
 * `$((n + 1))`, `$(wc -l < f)`, a variable only ever assigned such values.
 */
export function wordSafeExpansions(item: AnalysedHook): WordSafeExpansion[] {
  const root = item.tree.rootNode;
  const candidates = nodesOfType(root, EXPANSIONS).filter(isSplitInCommand);
  if (candidates.length === 0) return [];
  const safety = wordSafety(root, NUMERIC_ENV);
  const found: WordSafeExpansion[] = [];
  for (const expansion of candidates) {
    if (!shapeWithin(safety.shapeOf(expansion), 'word')) continue;
    found.push({
      hook: item.hook.name,
      range: item.mapRange(item.range(expansion.startIndex, expansion.endIndex)),
      reason: safety.reasonOf(expansion),
    });
  }
  return found;
}

/**
 * The single-quoted scripts a hook hands to a shell's `-c` (`$SHELL -lc 'echo $PATH'`,
 * `xargs -I F sh -c '… "$1" …'`): their `$` is meant for that shell, which expands
 * it. ShellCheck's SC2016 knows `sh -c` written plainly, not a shell named by
 * `$SHELL` or run by a wrapper; there it is kept as an `info` finding.
 */
export function shellScriptTexts(item: AnalysedHook): WordSafeExpansion[] {
  const found: WordSafeExpansion[] = [];
  for (const command of item.commands) {
    // A shell by name or the user's `$SHELL` (shellName), and the script its `-c` takes.
    const script = shellScriptArgument(command);
    if (script?.node.type !== 'raw_string') continue;
    const option = command.args.indexOf(script) - 1;
    found.push({
      hook: item.hook.name,
      range: item.mapRange(item.range(script.start, script.end)),
      reason: `the single-quoted text is the script \`${command.name.text} ${command.args[option]!.text}\` runs, which expands it`,
      code: SINGLE_QUOTE_CODE,
    });
  }
  return found;
}

/**
 * A ShellCheck quoting finding on an expansion that cannot split or glob is
 * noise; it is kept as an `info` finding (shown with `--verbose`) that says
 * why it is not reported, so the suppression is visible, never silent.
 */
export function suppressWordSafeQuoting(diagnostic: Diagnostic, safe: readonly WordSafeExpansion[]): Diagnostic | undefined {
  const quoting = QUOTING_CODES.has(diagnostic.ruleId);
  if (!quoting && diagnostic.ruleId !== SINGLE_QUOTE_CODE) return undefined;
  const match = safe.find(
    (s) =>
      (s.code ?? (quoting ? diagnostic.ruleId : undefined)) === diagnostic.ruleId &&
      s.hook === diagnostic.hook &&
      contains(s.range, diagnostic),
  );
  if (!match) return undefined;
  return {
    ...diagnostic,
    severity: 'info',
    message: `${diagnostic.message.replace(/\.$/, '')} — not reported: ${match.reason}${quoting ? ', so it cannot split or glob' : ''}.`,
  };
}

function contains(outer: Range, inner: Range): boolean {
  const before = (l1: number, c1: number, l2: number, c2: number): boolean => l1 < l2 || (l1 === l2 && c1 <= c2);
  return (
    before(outer.line, outer.column, inner.line, inner.column) && before(inner.endLine, inner.endColumn, outer.endLine, outer.endColumn)
  );
}
