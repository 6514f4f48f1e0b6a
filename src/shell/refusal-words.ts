/**
 * What the branch around a hook program's non-zero exit says of itself,
 * read by src/shell/python-exits.ts and src/shell/node-exits.ts to tell a
 * guard refusing (`if dangerous: sys.exit(1)`) from a program reporting that
 * it could not run (`if not api_key: sys.exit(1)`).
 */

/** What a branch that refuses says of itself. */
export const REFUSING =
  /\b(?:block|deny|denie|denial|refus|reject|forbid|prohibit|disallow|not[ _]allowed|danger|unsafe|prevent|violat|protect|restrict|security|malicious|destructive)/i;
/** What a branch that reports an error rather than refusing says of itself. */
export const REPORTING =
  /\b(?:error|fail|not[ _]found|missing|invalid|cannot|can't|unable|no[ _]such|not[ _]set|not[ _]in[ _]a[ _]|unknown|api[ _]?key|token|exception|traceback|timeout|not[ _]installed|sys\.argv|process\.argv|args\.|help\b)|usage|\b(?:exists|existsSync|is_?file|is_?dir)\(/i;

/**
 * A name whose absence is a verdict rather than a missing value: `if (!allowed)`, `if not is_safe:`. A
 * branch that only tests a value for absence (`if (!flags) process.exit(1)`, `if not config:`) reports
 * that something the program needs is missing, unless the name reads as one of these.
 */
export const VERDICT_NAME =
  /allow|safe|\bok\b|okay|permit|approv|pass|valid|trust|clean|match|deny|denied|block|refus|reject|forbid|danger/i;
