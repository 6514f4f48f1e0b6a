import { MATCHER_FIELD, NARROW_EXACT_MATCHER_EVENTS } from './contract-pending.js';

/**
 * How Claude Code reads a matcher group's `matcher` (../shared/runtimes/
 * claude-code-hooks.md §2.3, current behaviour): the characters decide.
 * `*`, empty or absent match everything; only letters, digits, `_`, `-`,
 * space, `,` and `|` make a list of exact names split on `|` or `,`
 * (surrounding whitespace tolerated); anything else is an unanchored
 * JavaScript regular expression tested against the value. FileChanged and
 * StopFailure have a narrower exact set (letters, digits, `_`, `|`).
 */

export type MatcherForm =
  | { kind: 'all'; why: 'absent' | 'empty' | 'star' | 'event-takes-no-matcher' }
  | { kind: 'exact'; names: string[] }
  | { kind: 'regex'; source: string; regex?: RegExp; error?: string };

const EXACT = /^[A-Za-z0-9_\- ,|]*$/;
const NARROW_EXACT = /^[A-Za-z0-9_|]*$/;

export function matcherForm(matcher: string | undefined, event: string): MatcherForm {
  if (MATCHER_FIELD[event] === undefined) return { kind: 'all', why: 'event-takes-no-matcher' };
  if (matcher === undefined) return { kind: 'all', why: 'absent' };
  if (matcher === '') return { kind: 'all', why: 'empty' };
  if (matcher === '*') return { kind: 'all', why: 'star' };
  const narrow = NARROW_EXACT_MATCHER_EVENTS.has(event);
  if ((narrow ? NARROW_EXACT : EXACT).test(matcher)) {
    const names = matcher
      .split(narrow ? /\|/ : /[|,]/)
      .map((name) => name.trim())
      .filter((name) => name !== '');
    return { kind: 'exact', names };
  }
  try {
    return { kind: 'regex', source: matcher, regex: new RegExp(matcher) };
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
  // An invalid pattern matches nothing: it cannot be tested.
  return form.regex?.test(value) ?? false;
}

/** One line saying how a matcher was read, for reports ("exact: Edit, Write"). */
export function describeMatcher(form: MatcherForm): string {
  switch (form.kind) {
    case 'all':
      return form.why === 'event-takes-no-matcher' ? 'ignored (the event takes no matcher)' : 'matches everything';
    case 'exact':
      return form.names.length === 1 ? `exact: ${form.names[0]}` : `exact, one of: ${form.names.join(', ')}`;
    case 'regex':
      return form.error
        ? `invalid regular expression (${form.error}): matches nothing`
        : `regular expression /${form.source}/ (unanchored)`;
  }
}
