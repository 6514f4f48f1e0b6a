import { type Comment, type Node, type Options, parse, Parser } from 'acorn';
import { tsPlugin } from '@sveltejs/acorn-typescript';

/**
 * A Node program that Claude Code hooks run (`node .claude/hooks/guard.js`),
 * parsed with acorn (ESTree with offsets): its syntax tree, each node with its
 * parent, and its comments. A program acorn cannot parse (TypeScript, a syntax
 * error) has none, and the rules that read programs find nothing in it. The
 * last parse is kept: the three rules that read a program ask for the same one.
 */
export interface NodeProgram {
  readonly text: string;
  readonly root: EsNode;
  /** Every node, in source order of their starts, parents before children. */
  readonly nodes: readonly EsNode[];
  readonly comments: readonly Comment[];
}

/** An ESTree node as acorn makes it, with its parent. */
export interface EsNode extends Node {
  parent?: EsNode;
  [key: string]: unknown;
}

let last: { text: string; typescript: boolean; program: NodeProgram | undefined } | undefined;

/**
 * A program file a hook runs, read as TypeScript when its name says so (`.ts`, `.mts`, `.cts`), as
 * JavaScript when it says that, and otherwise (a file run by its `#!` line, `bun x`) as JavaScript or,
 * failing that, as TypeScript, which bun, deno, tsx and ts-node run whatever the name.
 */
export function parseProgramFile(program: { readonly file: string; readonly text: string }): NodeProgram | undefined {
  const extension = /\.([mc]?[jt]s)$/i.exec(program.file)?.[1]?.toLowerCase();
  if (extension !== undefined) return parseNodeProgram(program.text, extension.endsWith('ts'));
  return parseNodeProgram(program.text) ?? parseNodeProgram(program.text, true);
}

export function parseNodeProgram(text: string, typescript = false): NodeProgram | undefined {
  if (last?.text === text && last.typescript === typescript) return last.program;
  if (typescript) {
    const program = typeScriptProgram(text);
    last = { text, typescript, program };
    return program;
  }
  let program: NodeProgram | undefined;
  // An ES module first (`import`, top-level `await`), then a script (`with`, legacy octal), both with a #! line.
  for (const sourceType of ['module', 'script'] as const) {
    const comments: Comment[] = [];
    const options: Options = {
      ecmaVersion: 'latest',
      sourceType,
      allowHashBang: true,
      allowReturnOutsideFunction: sourceType === 'script',
      allowAwaitOutsideFunction: true,
      onComment: comments,
    };
    try {
      const root = parse(text, options) as unknown as EsNode;
      program = { text, root, nodes: linkParents(root), comments };
      break;
    } catch {
      // not this kind of source
    }
  }
  last = { text, typescript, program };
  return program;
}

let typeScriptParser: typeof Parser | undefined;

/**
 * TypeScript (`bun x.ts`, `tsx`, `deno run`, Node's type stripping), parsed as a module by acorn with
 * the Svelte team's TypeScript plugin: the types are nodes of their own (`TSTypeAnnotation`,
 * `TSAsExpression`, …) around the same code, at the same offsets.
 */
function typeScriptProgram(text: string): NodeProgram | undefined {
  typeScriptParser ??= Parser.extend(tsPlugin());
  const comments: Comment[] = [];
  try {
    const options: Options = {
      ecmaVersion: 'latest',
      sourceType: 'module',
      allowHashBang: true,
      allowAwaitOutsideFunction: true,
      // The plugin needs them.
      locations: true,
      onComment: comments,
    };
    const root = typeScriptParser.parse(text, options) as unknown as EsNode;
    return { text, root, nodes: linkParents(root), comments };
  } catch {
    return undefined;
  }
}

/** Sets each node's parent and lists the nodes, parents first. */
function linkParents(root: EsNode): EsNode[] {
  const nodes: EsNode[] = [];
  const stack: EsNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes.push(node);
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) {
      children[i]!.parent = node;
      stack.push(children[i]!);
    }
  }
  return nodes;
}

export function childrenOf(node: EsNode): EsNode[] {
  const children: EsNode[] = [];
  for (const key of Object.keys(node)) {
    if (key === 'parent') continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) children.push(item);
    } else if (isNode(value)) children.push(value);
  }
  return children.sort((a, b) => a.start - b.start);
}

function isNode(value: unknown): value is EsNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** `object.name` (or `object['name']`) with `object` an identifier: `process.exit`, `console.log`. */
export function isMember(node: EsNode | undefined, object: string, name: string): boolean {
  if (node?.type !== 'MemberExpression') return false;
  const target = node.object as EsNode;
  const property = node.property as EsNode;
  if (target.type !== 'Identifier' || target.name !== object) return false;
  return node.computed ? property.type === 'Literal' && property.value === name : property.type === 'Identifier' && property.name === name;
}

/** The name a function is known by: its own, or that of the variable, property or method it is assigned to. */
export function functionName(fn: EsNode): string | undefined {
  const own = fn.id as EsNode | null | undefined;
  if (own?.type === 'Identifier') return own.name as string;
  const holder = fn.parent;
  if (holder?.type === 'VariableDeclarator' && (holder.id as EsNode).type === 'Identifier') return (holder.id as EsNode).name as string;
  if (holder?.type === 'MethodDefinition' || holder?.type === 'Property') {
    const key = holder.key as EsNode;
    if (key.type === 'Identifier') return key.name as string;
  }
  return undefined;
}

export const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The program's text from `from` to `to` without its comments (a `// nothing to block here` says nothing of a branch). */
export function withoutComments(program: NodeProgram, from: number, to: number): string {
  let text = '';
  let at = from;
  for (const comment of program.comments) {
    if (comment.end <= at || comment.start >= to) continue;
    text += program.text.slice(at, Math.max(at, comment.start));
    at = comment.end;
  }
  return text + program.text.slice(at, Math.max(at, to));
}

const codeTests = new WeakMap<NodeProgram, (offset: number) => boolean>();

/** Whether an offset is code: not in a comment, string or template text. Made once a program (two rules ask). */
export function codeTest(program: NodeProgram): (offset: number) => boolean {
  let test = codeTests.get(program);
  if (!test) codeTests.set(program, (test = makeCodeTest(program)));
  return test;
}

function makeCodeTest(program: NodeProgram): (offset: number) => boolean {
  const spans: Array<[number, number]> = program.comments.map((comment) => [comment.start, comment.end]);
  for (const node of program.nodes)
    if ((node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateElement') spans.push([node.start, node.end]);
  spans.sort((a, b) => a[0] - b[0]);
  return (offset) => {
    let low = 0;
    let high = spans.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [start, end] = spans[middle]!;
      if (offset < start) high = middle - 1;
      else if (offset >= end) low = middle + 1;
      else return false;
    }
    return true;
  };
}

/** A property's key as written, when it is one: `a`, `'a'` or `1`, not a computed `[a]`. */
export function keyName(property: EsNode): string | undefined {
  const key = property.key as EsNode;
  if (!property.computed && key.type === 'Identifier') return key.name as string;
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number')) return String(key.value);
  return undefined;
}
