import { closingBracket, type PythonScopes, pythonScopes } from './python-scopes.js';
import { REFUSING, REPORTING, VERDICT_NAME } from './refusal-words.js';

/**
 * The exits a Python hook program spells out: `sys.exit(N)`, `exit(N)`, `quit(N)`, `os._exit(N)` and
 * `raise SystemExit(N)` with an integer literal, and the same with a string literal, which Python prints
 * to stderr before it exits with status 1 (`sys.exit("Blocked: …")`). An exit whose status is computed
 * (`sys.exit(main())`, `sys.exit(code)`) is not one of them.
 */
export interface PythonExit {
  /** Offsets of the call, from its name to its closing parenthesis. */
  start: number;
  end: number;
  status: number;
  /** The integer literal's offsets, when the status is written as one. */
  literal?: { start: number; end: number };
  /**
   * Whether the exit is a guard's decision (with a status other than 0, a refusal): it answers a condition (its block is an `if`, `elif`, `else`,
   * a loop or a `match` case, not an `except`, the entry point's `if __name__ == …` or the module's end)
   * and that branch does not read as an error report (a missing API key, a file that does not exist, a
   * usage message, a failure), unless it also says it refuses (a block, a denial, a danger, a
   * violation…); or it is in a function named for refusing (`def deny(reason):`).
   */
  decides: boolean;
  /** Where the exit's own block starts (its header's line; the exit's line when the header is on it), for what the block does before the exit. */
  blockStart: number;
}

const EXIT_CALL = /(?<![\w.])(?:(?:sys\.|os\._)exit|exit|quit|raise[ \t]+SystemExit)[ \t]*\(/g;
const INTEGER = /^[ \t]*(\d+)[ \t]*$/;
const CONDITIONAL_HEADERS = new Set(['if', 'elif', 'else', 'for', 'while', 'case']);
// A keyword, not a name that happens to be one (`match = re.search(…)`).
const HEADER = /^[ \t]*(?:async[ \t]+)?(if|elif|else|for|while|case|def|try|except|finally|with|class|match)\b(?![ \t]*(?:=(?!=)|\.))/;

export function pythonExits(program: string): PythonExit[] {
  const scopes = pythonScopes(program);
  const isCode = (offset: number): boolean => scopes.isCode(offset);
  const isComment = (offset: number): boolean => scopes.isComment(offset);
  const exits: PythonExit[] = [];
  for (const call of program.matchAll(EXIT_CALL)) {
    if (!isCode(call.index)) continue;
    // A program that defines its own exit() or quit() means that one.
    const bare = /^(?:exit|quit)\b/.exec(call[0]);
    if (bare && scopes.functionNamed(bare[0])) continue;
    const open = call.index + call[0].length;
    const close = closingBracket(program, open, isCode);
    if (close === undefined) continue;
    const argument = program.slice(open, close);
    const integer = INTEGER.exec(argument);
    let status: number;
    let literal: PythonExit['literal'];
    if (integer) {
      status = Number(integer[1]);
      const at = open + argument.indexOf(integer[1]!);
      literal = { start: at, end: at + integer[1]!.length };
    } else if (isOneString(program, open, close, scopes)) status = 1;
    else continue;
    exits.push({
      start: call.index,
      end: close + 1,
      status,
      ...(literal ? { literal } : {}),
      ...decides(program, call.index, isCode, isComment),
    });
  }
  return exits;
}

/** Whether the text between the brackets is one string literal (with its prefix; an f-string too), whitespace aside. */
function isOneString(program: string, from: number, to: number, scopes: PythonScopes): boolean {
  const opening = /^\s*[rRbBfFuU]{0,2}(?=["'])/.exec(program.slice(from, to));
  const end = opening ? scopes.stringEnd(from + opening[0].length) : undefined;
  return end !== undefined && end <= to && /^\s*$/.test(program.slice(end, to));
}

/** Whether the exit at `offset` is a decision (see PythonExit.decides), and where its block starts. */
function decides(
  program: string,
  offset: number,
  isCode: (offset: number) => boolean,
  isComment: (offset: number) => boolean,
): Pick<PythonExit, 'decides' | 'blockStart'> {
  const lineStart = program.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = program.indexOf('\n', offset);
  const before = program.slice(lineStart, offset);
  // `if dangerous: sys.exit(1)`: the header is on the exit's own line.
  const own = HEADER.exec(before);
  let header = own && before.includes(':') ? { keyword: own[1]!, start: lineStart, width: indentation(program, lineStart) } : undefined;
  header ??= enclosingHeader(program, lineStart, indentation(program, lineStart), isCode);
  if (!header) return { decides: false, blockStart: 0 };
  const blockStart = header.start;
  const keyword = header.keyword;
  // An `else` or `elif` is read with the branches before it (`if len(sys.argv) > 1: … else: sys.exit(1)`).
  let from = header.start;
  for (let branch = header; branch.keyword === 'else' || branch.keyword === 'elif'; ) {
    const previous = enclosingHeader(program, branch.start, branch.width + 1, isCode);
    if (!previous || previous.width !== branch.width) break;
    from = previous.start;
    branch = previous;
  }
  return {
    decides: branchDecides(keyword, withoutComments(program, from, lineEnd === -1 ? program.length : lineEnd, isComment)),
    blockStart,
  };
}

function branchDecides(keyword: string, text: string): boolean {
  if (keyword === 'def') return REFUSING.test(/def[ \t]+(\w+)/.exec(text)?.[1] ?? '');
  if (!CONDITIONAL_HEADERS.has(keyword)) return false;
  // The program's entry point is not a decision.
  if (/^[ \t]*if[ \t]+__name__[ \t]*==/.test(text)) return false;
  if (REFUSING.test(text)) return true;
  // `if not flags: sys.exit(1)`, `if config is None:`: a value the program needs is missing.
  const absent = /^[ \t]*if[ \t]+(?:not[ \t]+([A-Za-z_][\w.]*)|([A-Za-z_][\w.]*)[ \t]+is[ \t]+None)[ \t]*:/.exec(text);
  if (absent && !VERDICT_NAME.test(absent[1] ?? absent[2]!)) return false;
  return !REPORTING.test(text);
}

/** The text from `from` to `to` without its comments (a `# nothing to block here` says nothing of the branch). */
function withoutComments(program: string, from: number, to: number, isComment: (offset: number) => boolean): string {
  const text = program.slice(from, to);
  return text.includes('#')
    ? text
        .split('')
        .filter((_, i) => !isComment(from + i))
        .join('')
    : text;
}

/**
 * The header line of the block the line at `lineStart` belongs to: the nearest code line above it that
 * is indented less than `below` and opens a block (a line indented less that opens none continues a
 * bracket: skipped).
 */
function enclosingHeader(
  program: string,
  lineStart: number,
  below: number,
  isCode: (offset: number) => boolean,
): { keyword: string; start: number; width: number } | undefined {
  let end = lineStart - 1;
  while (end > 0) {
    const start = program.lastIndexOf('\n', end - 1) + 1;
    const width = indentation(program, start);
    const first = start + width;
    if (first < end && isCode(first) && width < below) {
      const header = HEADER.exec(program.slice(start, end));
      if (header) return { keyword: header[1]!, start, width };
    }
    end = start - 1;
  }
  return undefined;
}

function indentation(program: string, lineStart: number): number {
  let i = lineStart;
  while (program[i] === ' ' || program[i] === '\t') i++;
  return i - lineStart;
}
