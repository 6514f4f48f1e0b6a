/**
 * Glob matching: a port of Redis's `stringmatchlen` (util.c), used by KEYS,
 * SCAN MATCH, PSUBSCRIBE and CONFIG GET.
 */

import { HOST_LIMITS } from '../host-limits.js';
import { fail } from './errors.js';

/** What one command may still spend on matching; shared by every match the command makes. */
export interface GlobBudget {
  steps: number;
}

export function globBudget(): GlobBudget {
  return { steps: HOST_LIMITS.redisGlobSteps };
}

/**
 * Redis glob semantics: `*`, `?`, `[abc]`, `[^a]`, `[a-z]`, `\` escapes; malformed classes as Redis reads them.
 * A match is O(pattern × subject) at worst, on the host's event loop: past the budget the command is refused.
 */
export function globMatch(pattern: string, subject: string, budget: GlobBudget = globBudget()): boolean {
  const state = { skipLongerMatches: false, budget };
  return globMatchFrom(pattern, 0, subject, 0, state);
}

function globMatchFrom(
  pattern: string,
  patternIndex: number,
  subject: string,
  subjectIndex: number,
  state: { skipLongerMatches: boolean; budget: GlobBudget },
): boolean {
  // C reads a NUL terminator past the end; char code 0 plays that part.
  const p = (i: number): number => (i < pattern.length ? pattern.charCodeAt(i) : 0);
  let pi = patternIndex;
  let si = subjectIndex;
  let patternLength = pattern.length - pi;
  let subjectLength = subject.length - si;
  while (patternLength > 0 && subjectLength > 0) {
    if (--state.budget.steps < 0) {
      fail(
        `pattern too costly to match (the executor's Redis takes at most ${HOST_LIMITS.redisGlobSteps} steps of glob matching a command)`,
      );
    }
    switch (p(pi)) {
      case 0x2a /* * */:
        {
          while (patternLength > 0 && p(pi + 1) === 0x2a) {
            pi++;
            patternLength--;
          }
          if (patternLength === 1) return true;
          while (subjectLength > 0) {
            if (globMatchFrom(pattern, pi + 1, subject, si, state)) return true;
            // The rest failed from every later position already: a longer `*` cannot help.
            if (state.skipLongerMatches) return false;
            si++;
            subjectLength--;
          }
          state.skipLongerMatches = true;
          return false;
        }
      case 0x3f /* ? */:
        si++;
        subjectLength--;
        break;
      case 0x5b /* [ */:
        {
          pi++;
          patternLength--;
          const negated = p(pi) === 0x5e; /* ^ */
          if (negated) {
            pi++;
            patternLength--;
          }
          const c = subject.charCodeAt(si);
          let matched = false;
          for (;;) {
            if (p(pi) === 0x5c /* \ */ && patternLength >= 2) {
              pi++;
              patternLength--;
              if (p(pi) === c) matched = true;
            } else if (p(pi) === 0x5d /* ] */) {
              break;
            } else if (patternLength === 0) {
              pi--;
              patternLength++;
              break;
            } else if (patternLength >= 3 && p(pi + 1) === 0x2d /* - */) {
              let start = p(pi);
              let end = p(pi + 2);
              if (start > end) [start, end] = [end, start];
              pi += 2;
              patternLength -= 2;
              if (c >= start && c <= end) matched = true;
            } else if (p(pi) === c) {
              matched = true;
            }
            pi++;
            patternLength--;
          }
          if (negated) matched = !matched;
          if (!matched) return false;
          si++;
          subjectLength--;
          break;
        }
      case 0x5c /* \ */:
        if (patternLength >= 2) {
          pi++;
          patternLength--;
        }
        if (p(pi) !== subject.charCodeAt(si)) return false;
        si++;
        subjectLength--;
        break;
      default:
        if (p(pi) !== subject.charCodeAt(si)) return false;
        si++;
        subjectLength--;
        break;
    }
    pi++;
    patternLength--;
    if (subjectLength === 0) {
      while (p(pi) === 0x2a) {
        pi++;
        patternLength--;
      }
      break;
    }
  }
  return patternLength === 0 && subjectLength === 0;
}
