import type { EsNode, NodeProgram } from './node-program.js';
import { isMember } from './node-program.js';
import { nodeOutputPrints, stringifyCall } from './node-output.js';
import { pythonOutputPrints } from './python-output.js';
import { pythonScopes } from './python-scopes.js';

/** A print of text to stdout that runs before a program's JSON output whenever that output is printed. */
export interface TextBeforeJson {
  start: number;
  end: number;
  /** Where the first JSON output is printed. */
  json: number;
}

/**
 * Python: a `print(…)` or `sys.stdout.write(…)` of anything but a JSON dump, standing as a statement of a
 * block that the first JSON print is in or below (`print("Checking")` then, further down the same
 * function, `print(json.dumps({"decision": "block", …}))`), before it: whenever the JSON is printed, the
 * text was printed first. A print in a branch of its own that ends before the JSON's block is not one.
 */
export function pythonTextBeforeJson(program: string): TextBeforeJson[] {
  const prints = pythonOutputPrints(program);
  if (prints.length === 0) return [];
  const json = Math.min(...prints.map((p) => p.at));
  const scopes = pythonScopes(program);
  const lines = linesBefore(program, json, (offset) => scopes.isCode(offset));
  const jsonLine = lines.pop();
  if (!jsonLine) return [];
  const found: TextBeforeJson[] = [];
  // Walk back from the JSON's line: a statement is on the JSON's way while no line between is less indented.
  let floor = jsonLine.indent;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.indent > floor) continue;
    floor = line.indent;
    // The whole statement, up to the next one (a print's arguments may go on over several lines).
    const statement = program.slice(line.start, (lines[i + 1] ?? jsonLine).start);
    const print = /^(?:print\s*\((?!\s*json\.dumps?\b)(?![^]*\bfile\s*=\s*sys\.stderr\b)|sys\.stdout\.write\s*\((?!\s*json\.dumps\b))/.test(
      statement,
    );
    if (print) found.unshift({ start: line.start, end: line.end, json });
  }
  return found;
}

/**
 * The statements' lines that start at or before `to` (first non-blank character in code, no bracket left
 * open by the code before: not a continuation of a call or a literal), with their indentation; the
 * statement holding `to` last.
 */
function linesBefore(program: string, to: number, isCode: (offset: number) => boolean): { start: number; end: number; indent: number }[] {
  const lines: { start: number; end: number; indent: number }[] = [];
  let depth = 0;
  let lineStart = 0;
  while (lineStart <= to) {
    const newline = program.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? program.length : newline;
    const indent = /^[ \t]*/.exec(program.slice(lineStart, lineEnd))![0].length;
    const first = lineStart + indent;
    if (depth === 0 && first < lineEnd && isCode(first)) lines.push({ start: first, end: lineEnd, indent });
    for (let i = lineStart; i < lineEnd; i++) {
      if (!isCode(i)) continue;
      const char = program[i];
      if (char === '(' || char === '[' || char === '{') depth++;
      else if ((char === ')' || char === ']' || char === '}') && depth > 0) depth--;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  return lines;
}

/**
 * Node: a `console.log(…)`, `console.info(…)` or `process.stdout.write(…)` statement of anything but
 * `JSON.stringify(…)`, in a block that holds the first JSON output's print, before it.
 */
export function nodeTextBeforeJson(program: NodeProgram): TextBeforeJson[] {
  const prints = nodeOutputPrints(program);
  if (prints.length === 0) return [];
  const json = Math.min(...prints.map((p) => p.at));
  const found: TextBeforeJson[] = [];
  for (const node of program.nodes) {
    if (node.type !== 'ExpressionStatement' || node.end > json) continue;
    const call = node.expression as EsNode;
    if (call.type !== 'CallExpression') continue;
    const callee = call.callee as EsNode;
    const stdout =
      isMember(callee, 'console', 'log') ||
      isMember(callee, 'console', 'info') ||
      (callee.type === 'MemberExpression' && isMember(callee.object as EsNode, 'process', 'stdout'));
    if (!stdout) continue;
    const isJson = stringifyCall((call.arguments as EsNode[])[0]) !== undefined;
    // Its block holds the JSON's print: the block runs on to it.
    const block = node.parent;
    if (isJson || !block || block.start > json || block.end < json) continue;
    found.push({ start: node.start, end: node.end, json });
  }
  return found;
}
