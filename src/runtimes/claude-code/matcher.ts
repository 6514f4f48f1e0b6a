import { boundedRegExp, boundedTest } from '../../bounded-regex.js';
import { eventSpec, exactMatcherNames, matcherForm as contractMatcherForm } from './contract.js';

/**
 * How Claude Code reads a matcher group's `matcher` against the event's
 * value (../shared/runtimes/claude-code-hooks.md §2.3, current behaviour;
 * the forms themselves are the contract's): everything, a list of exact
 * names, or an unanchored JavaScript regular expression. On an event that
 * takes no matcher, a matcher is ignored.
 */

export type MatcherForm =
  | { kind: 'all'; why: 'absent' | 'empty' | 'star' | 'event-takes-no-matcher' }
  | { kind: 'exact'; names: string[] }
  | { kind: 'regex'; source: string; regex?: RegExp; error?: string };

export function matcherForm(matcher: string | undefined, event: string): MatcherForm {
  if (eventSpec(event)?.matcherField === undefined) return { kind: 'all', why: 'event-takes-no-matcher' };
  if (matcher === undefined) return { kind: 'all', why: 'absent' };
  const form = contractMatcherForm(matcher, event);
  if (form === 'all') return { kind: 'all', why: matcher === '' ? 'empty' : 'star' };
  if (form === 'exact') return { kind: 'exact', names: exactMatcherNames(matcher, event) };
  try {
    return { kind: 'regex', source: matcher, regex: boundedRegExp(matcher) };
  } catch (error) {
    return { kind: 'regex', source: matcher, error: (error as Error).message };
  }
}

/** Whether a group with this matcher runs for an event whose matched value is `value`. */
export function matcherMatches(matcher: string | undefined, event: string, value: string | undefined): boolean {
  const form = matcherForm(matcher, event);
  if (form.kind === 'all') return true;
  if (value === undefined) return false;
  if (form.kind === 'exact') return form.names.includes(value);
  // An invalid pattern cannot be tested, nor one stopped at its deadline: it matches nothing.
  return (form.regex && boundedTest(form.regex, value)) ?? false;
}

/** One line saying how a matcher was read, for reports ("exact: Edit, Write"). */
export function describeMatcher(form: MatcherForm): string {
  switch (form.kind) {
    case 'all':
      return form.why === 'event-takes-no-matcher' ? 'ignored (the event takes no matcher)' : 'matches everything';
    case 'exact':
      return form.names.length === 1 ? `exact: ${form.names[0] ?? ''}` : `exact, one of: ${form.names.join(', ')}`;
    case 'regex':
      return form.error
        ? `invalid regular expression (${form.error}): matches nothing`
        : `regular expression /${form.source}/ (unanchored)`;
  }
}
