/**
 * The paths a jq filter reads from its own input (`.tool_input.command` in
 * `jq -r '.tool_input.command // empty'`), with their offsets in the filter.
 *
 * Only paths certain to apply to the filter's input are given: those before
 * the first `|` of the filter (after it, `.` is what the stage before gave),
 * in grouping parentheses, `if`, object and array constructions, alternatives
 * (`//`), comparisons and `,`, and not in the arguments of a function
 * (`map(.x)`, `select(.x)`: many take each element). A filter that defines
 * functions or reduces (`def`, `reduce`, `foreach`) is not read.
 */
export interface JqPath {
  /** The field names, outermost first (`['tool_input', 'command']`). */
  path: string[];
  start: number;
  end: number;
  /** The right side of `//` (`.tool_name // .tool`): read only when what is before it is null or false. */
  fallback: boolean;
}

const IDENT = /[A-Za-z0-9_]/;
/** Keywords after which `(` groups (`.a and (.b or .c)`) rather than calls. */
const KEYWORDS = /(?:^|[^A-Za-z0-9_$])(?:and|or|not|if|then|elif|else|try|catch)$/;
/** Characters after which a `.` continues a term (`$x.y`, `a[0].b`, `1.5`, `"s".x`, `.a?.b`) instead of starting a path. */
const CONTINUES = /[A-Za-z0-9_\])"?.$]/;

export function jqInputPaths(filter: string): JqPath[] {
  if (/\b(?:def|reduce|foreach|label)\b/.test(filter)) return [];
  const found: JqPath[] = [];
  // For each level of nesting: whether `.` there is still the filter's input.
  const input: boolean[] = [true];
  for (let i = 0; i < filter.length; ) {
    const c = filter[i]!;
    const here = input[input.length - 1]!;
    if (c === '"') i = afterString(filter, i);
    else if (c === '#') i = newlineAfter(filter, i);
    else if (c === '|') {
      // After a pipe `.` is the previous stage's output (after `|=`, the value updated): at the top, nothing later is the input.
      if (input.length === 1) break;
      input[input.length - 1] = false;
      i++;
    } else if (c === '(' || c === '[' || c === '{') {
      input.push(here && !readsOther(filter, i));
      i++;
    } else if (c === ')' || c === ']' || c === '}') {
      if (input.length > 1) input.pop();
      i++;
    } else if (c === '.' && (i === 0 || !CONTINUES.test(filter[i - 1]!)) && filter[i + 1] !== '.') {
      const read = pathAt(filter, i);
      if (here && read.path.length > 0)
        found.push({ path: read.path, start: i, end: read.end, fallback: filter.slice(0, i).trimEnd().endsWith('//') });
      i = Math.max(read.end, i + 1);
    } else i++;
  }
  return found;
}

/** The field names of the path starting with the `.` at `start`, and where it ends; an index or slice ends it. */
function pathAt(filter: string, start: number): { path: string[]; end: number } {
  const path: string[] = [];
  let i = start;
  let end = start + 1;
  while (filter[i] === '.') {
    const rest = filter.slice(i + 1);
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest) ?? /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(rest);
    const match = name ?? quoted;
    if (!match) break;
    path.push(name ? name[0] : match[1]!.replace(/\\(.)/g, '$1'));
    i += 1 + match[0].length;
    end = i;
    // `.a?`, `.a["b"]`: the same path goes on.
    if (filter[i] === '?') end = ++i;
    while (filter[i] === '[') {
      const key = /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]\??/.exec(filter.slice(i));
      if (!key) return { path, end };
      path.push(key[1]!.replace(/\\(.)/g, '$1'));
      i += key[0].length;
      end = i;
    }
  }
  return { path, end };
}

function afterString(filter: string, start: number): number {
  let depth = 0;
  for (let i = start + 1; i < filter.length; i++) {
    const c = filter[i]!;
    if (c === '\\' && filter[i + 1] === '(') {
      // `"\(.x)"`: an interpolation, read as part of the string (not as the input's path).
      depth++;
      i++;
    } else if (c === '\\') i++;
    else if (c === ')' && depth > 0) depth--;
    else if (c === '"' && depth === 0) return i + 1;
  }
  return filter.length;
}

function newlineAfter(filter: string, start: number): number {
  const newline = filter.indexOf('\n', start);
  return newline === -1 ? filter.length : newline + 1;
}

/** Whether the bracket at `index` opens a function's arguments (`map(`), an index (`.a[`, `$x[`) or a slice, which read something else than the input. */
function readsOther(filter: string, index: number): boolean {
  const before = previousChar(filter, index);
  if (before === undefined) return false;
  const c = filter[index];
  if (c === '(' && IDENT.test(before)) return !KEYWORDS.test(filter.slice(0, index).trimEnd());
  return c === '[' && CONTINUES.test(before);
}

function previousChar(filter: string, index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) if (!/\s/.test(filter[i]!)) return filter[i];
  return undefined;
}
