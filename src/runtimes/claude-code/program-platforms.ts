import { FUNCTIONS, functionName, type EsNode, type NodeProgram } from '../../shell/node-program.js';
import { pythonScopes } from '../../shell/python-scopes.js';
import { eventSpec } from './events.js';

/** Fields of Claude Code's hook input that no other agent's input has under these names. */
const CLAUDE_CODE_FIELDS =
  /\b(?:tool_name|tool_input|tool_response|tool_use_id|hook_event_name|session_id|transcript_path|stop_hook_active|permission_mode)\b/;
const NODE_STDIN = /\bprocess\.stdin\b|readFileSync\(\s*(?:0|['"]\/dev\/stdin['"])|\bBun\.stdin\b|\bDeno\.stdin\b/;
const PYTHON_STDIN = /\bsys\.stdin\b/;

export interface Span {
  start: number;
  end: number;
}

interface Fn extends Span {
  name: string | undefined;
}

/**
 * The parts of a program that serve another agent's hooks. One program may be the hook of several
 * agents, picked by an argument (kenryu42's safety net: `--claude-code`, `--copilot-cli`,
 * `--gemini-cli`), each with a function that reads its agent's input from stdin: the one that reads
 * Claude Code's reads its fields (`tool_input`, `tool_name`, …); one that reads none of them
 * (`input.toolName`, `input.toolArgs`), or asks for an event Claude Code has not, reads another agent's, and its fields, outputs and exits are not
 * Claude Code's to judge, nor those of the functions only it calls. Nothing is set apart unless the
 * program has both kinds of reader.
 */
export function foreignSpans(
  program: { readonly language: 'python' | 'node'; readonly text: string },
  node: NodeProgram | undefined,
): Span[] {
  const text = program.text;
  const stdin = program.language === 'node' ? NODE_STDIN : PYTHON_STDIN;
  if (!stdin.test(text) || !CLAUDE_CODE_FIELDS.test(text)) return [];
  const functions = program.language === 'node' ? (node ? nodeFunctions(node) : []) : pythonFunctions(text);
  const reads = functions.filter((fn) => stdin.test(text.slice(fn.start, fn.end)));
  // The innermost readers: a `main` that holds them all is not one of them.
  const readers = reads.filter((fn) => !reads.some((other) => other !== fn && other.start >= fn.start && other.end <= fn.end));
  // Another agent's reader: none of Claude Code's fields, or an event name Claude Code has not
  // (Gemini CLI's input has `hook_event_name` and `tool_name` too, and its reader asks for `BeforeTool`).
  const foreign = readers.filter((fn) => {
    const body = text.slice(fn.start, fn.end);
    if (!CLAUDE_CODE_FIELDS.test(body)) return true;
    const events = [...body.matchAll(/\bhook_event_name['"\]]?\s*[!=]==?\s*['"](\w+)['"]/g)].map((match) => match[1]!);
    return events.length > 0 && !events.some((name) => eventSpec(name) !== undefined);
  });
  if (foreign.length === 0 || foreign.length === readers.length) return [];
  const spans: Span[] = [...foreign];
  const covered = (at: number): boolean => inSpans(spans, at);
  // The helpers only foreign readers call (`outputGeminiDeny`), and theirs, two levels down.
  for (let pass = 0; pass < 2; pass++)
    for (const fn of functions) {
      if (!fn.name || covered(fn.start) || readers.includes(fn)) continue;
      const calls = callSites(program.language, text, fn.name, node).filter((at) => at < fn.start || at >= fn.end);
      if (calls.length > 0 && calls.every(covered)) spans.push(fn);
    }
  return spans;
}

export function inSpans(spans: readonly Span[], at: number): boolean {
  return spans.some((span) => at >= span.start && at < span.end);
}

function nodeFunctions(program: NodeProgram): Fn[] {
  return program.nodes.filter((n) => FUNCTIONS.has(n.type)).map((fn) => ({ start: fn.start, end: fn.end, name: functionName(fn) }));
}

function pythonFunctions(text: string): Fn[] {
  return pythonScopes(text)
    .functions()
    .map((fn) => ({ start: fn.from, end: fn.to, name: fn.name }));
}

/** Where a function of the program is called by its name. */
function callSites(language: 'python' | 'node', text: string, name: string, node: NodeProgram | undefined): number[] {
  if (language === 'node')
    return (node?.nodes ?? [])
      .filter((n) => n.type === 'CallExpression' && (n.callee as EsNode).type === 'Identifier' && (n.callee as EsNode).name === name)
      .map((n) => n.start);
  const scopes = pythonScopes(text);
  return [...text.matchAll(new RegExp(`(?<![\\w.])${name}[ \\t]*\\(`, 'g'))]
    .map((match) => match.index)
    .filter((at) => scopes.isCode(at) && !/def[ \t]+$/.test(text.slice(Math.max(0, at - 8), at)));
}
