import { childrenOf, codeTest, type EsNode, FUNCTIONS, functionName, isMember, keyName, type NodeProgram } from './node-program.js';
import { isShellProgram, shellScriptIndex } from './analysis.js';
import { stdinParses } from './program-fields.js';

/**
 * Where a Node hook program hands text from its stdin JSON to a shell: the
 * command string of `child_process.exec`/`execSync` (or of `spawn`,
 * `spawnSync`, `execFile`, `execFileSync` with a `shell` option that names
 * one: `true`, a shell's path, `process.env.SHELL`) holding a value
 * that comes from the parse of its stdin (`JSON.parse(fs.readFileSync(0))`,
 * a streamed string) or from a name set from it (`const file =
 * data.tool_input.file_path`, destructuring included), whatever the
 * expression around it (a template, `+`, a method call): the shell parses
 * it, so a `;`, `$(…)` or quote the model wrote runs as code. A call of a
 * function named for quoting (`shellQuote(file)`, `escape(…)`) gives a
 * value taken as safe. The script of an argv that runs a shell on it
 * (`spawnSync('bash', ['-c', script])`) is a command too. Names are followed
 * across the program, and one level
 * into its own named functions: `function sh(cmd) { execSync(cmd); }` makes
 * ``sh(`git add ${file}`)`` the sink.
 */
export interface ShellSink {
  /** The tainted expression inside the command: its offsets. */
  start: number;
  end: number;
  /** The function called (`execSync`). */
  call: string;
}

const SHELL_CALLS = new Set(['exec', 'execSync']);
const SHELL_OPTION_CALLS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync']);
const MODULES = new Set(['child_process', 'node:child_process']);
/** A function named for quoting (`shellQuote`, `shlex.quote`, `escape`): what it returns is taken as safe for a shell. */
export const QUOTING = /quote|escape|sanitize/i;

export function nodeShellSinks(program: NodeProgram): ShellSink[] {
  if (!/child_process/.test(program.text)) return [];
  const parses = new Set(stdinParses('node', program.text, codeTest(program)).map((m) => m.index));
  if (parses.size === 0) return [];
  const { namespaces, functions } = childProcessBindings(program);
  const tainted = taintedNames(program.nodes, parses);
  const sinks: ShellSink[] = [];
  const calls = shellCalls(program, namespaces, functions);
  for (const { call, command } of calls) {
    const at = firstTaintOf(command, parses, tainted);
    if (at) sinks.push({ start: at.start, end: at.end, call });
  }
  // One level through the program's own functions: `function sh(cmd) { execSync(cmd); }`, then ``sh(`git add ${file}`)``.
  const helpers = shellHelpers(program, calls);
  for (const node of helpers.size ? program.nodes : []) {
    const callee = node.callee as EsNode | undefined;
    if (node.type !== 'CallExpression' || callee?.type !== 'Identifier') continue;
    const args = node.arguments as EsNode[];
    for (const index of helpers.get(callee.name as string) ?? []) {
      if (args.slice(0, index + 1).some((arg) => arg.type === 'SpreadElement')) continue;
      const at = args[index] && firstTaint(args[index], parses, tainted);
      if (at) sinks.push({ start: at.start, end: at.end, call: callee.name as string });
    }
  }
  return sinks.sort((a, b) => a.start - b.start);
}

/** A call that runs a shell, and the arguments the shell parses. */
interface ShellCall {
  node: EsNode;
  call: string;
  command: EsNode[];
}

function shellCalls(program: NodeProgram, namespaces: ReadonlySet<string>, functions: ReadonlyMap<string, string>): ShellCall[] {
  const calls: ShellCall[] = [];
  for (const node of program.nodes) {
    if (node.type !== 'CallExpression') continue;
    const call = calledFunction(node.callee as EsNode, namespaces, functions);
    if (!call) continue;
    const args = node.arguments as EsNode[];
    if (SHELL_CALLS.has(call) || (SHELL_OPTION_CALLS.has(call) && args.some(runsInShell)))
      // The command; with a shell option the arguments are joined into it too.
      calls.push({ node, call, command: SHELL_CALLS.has(call) ? args.slice(0, 1) : args.filter((arg) => !runsInShell(arg)) });
    else if (SHELL_OPTION_CALLS.has(call)) {
      // Without one, an argv that starts a shell on a script (`spawnSync('bash', ['-c', script])`): the script is the command.
      const script = shellScriptArgument(args);
      if (script) calls.push({ node, call, command: [script] });
    }
  }
  return calls;
}

/** The script of `spawnSync('bash', ['-c', script])`: the shell's options read as a shell command's are. */
function shellScriptArgument(args: readonly EsNode[]): EsNode | undefined {
  const [file, argv] = args;
  if (file?.type !== 'Literal' || typeof file.value !== 'string' || !isShellProgram(file.value)) return undefined;
  if (argv?.type !== 'ArrayExpression') return undefined;
  const items = argv.elements as Array<EsNode | null>;
  const index = shellScriptIndex(items.length, (i) => {
    const item = items[i];
    return item?.type === 'Literal' && typeof item.value === 'string' ? item.value : undefined;
  });
  return index === undefined ? undefined : (items[index] ?? undefined);
}

function firstTaintOf(expressions: readonly EsNode[], parses: ReadonlySet<number>, tainted: ReadonlySet<string>): EsNode | undefined {
  for (const expression of expressions) {
    const at = firstTaint(expression, parses, tainted);
    if (at) return at;
  }
  return undefined;
}

const MAX_HELPERS = 20;
const MAX_HELPER_PARAMETERS = 8;

/**
 * The program's named functions (`function sh(…)`, `const sh = (…) =>`) and
 * the indexes of their parameters that reach the command of a shell call in
 * them, through names set from them there.
 */
function shellHelpers(program: NodeProgram, calls: readonly ShellCall[]): Map<string, number[]> {
  const helpers = new Map<string, number[]>();
  const taintsOf = new Map<EsNode, (Set<string> | undefined)[]>();
  for (const { node, command } of calls) {
    let fn = node.parent;
    while (fn && !FUNCTIONS.has(fn.type)) fn = fn.parent;
    const holder = fn?.parent;
    const named =
      fn?.type === 'FunctionDeclaration' || (holder?.type === 'VariableDeclarator' && (holder.id as EsNode).type === 'Identifier');
    const name = fn && named ? functionName(fn) : undefined;
    if (!fn || name === undefined) continue;
    // What each parameter taints in the function, worked out once however many shell calls it makes.
    let taints = taintsOf.get(fn);
    if (!taints) {
      if (taintsOf.size === MAX_HELPERS) continue;
      const body = nodesWithin(program, fn);
      taints = (fn.params as EsNode[]).slice(0, MAX_HELPER_PARAMETERS).map((param) => {
        const own = param.type === 'AssignmentPattern' ? (param.left as EsNode) : param;
        return own.type === 'Identifier' ? taintedNames(body, new Set(), new Set([own.name as string])) : undefined;
      });
      taintsOf.set(fn, taints);
    }
    const reaching = helpers.get(name) ?? [];
    taints.forEach((tainted, index) => {
      if (tainted && !reaching.includes(index) && firstTaintOf(command, new Set(), tainted)) reaching.push(index);
    });
    if (reaching.length) helpers.set(name, reaching);
  }
  return helpers;
}

/** A node's descendants: the nodes are listed parents first, so they follow it until one starts past its end. */
function nodesWithin(program: NodeProgram, ancestor: EsNode): EsNode[] {
  const from = program.nodes.indexOf(ancestor);
  const within: EsNode[] = [];
  for (let i = from + 1; i < program.nodes.length && program.nodes[i]!.start < ancestor.end; i++) within.push(program.nodes[i]!);
  return within;
}

/** The names bound to `child_process` (`const cp = require('child_process')`, `import * as cp`) and to its functions. */
function childProcessBindings(program: NodeProgram): { namespaces: Set<string>; functions: Map<string, string> } {
  const namespaces = new Set<string>();
  const functions = new Map<string, string>();
  for (const node of program.nodes) {
    if (node.type === 'ImportDeclaration' && MODULES.has((node.source as EsNode).value as string)) {
      for (const specifier of node.specifiers as EsNode[]) {
        const local = (specifier.local as EsNode).name as string;
        if (specifier.type === 'ImportSpecifier') functions.set(local, importedName(specifier.imported as EsNode));
        else namespaces.add(local);
      }
    }
    if (node.type === 'VariableDeclarator' && isRequireOfChildProcess(node.init as EsNode | null)) {
      const id = node.id as EsNode;
      if (id.type === 'Identifier') namespaces.add(id.name as string);
      if (id.type === 'ObjectPattern')
        for (const property of id.properties as EsNode[]) {
          const value = property.value as EsNode | undefined;
          const name = property.type === 'Property' ? keyName(property) : undefined;
          if (name !== undefined && value?.type === 'Identifier') functions.set(value.name as string, name);
        }
    }
  }
  return { namespaces, functions };
}

function importedName(imported: EsNode): string {
  return imported.type === 'Identifier' ? (imported.name as string) : String(imported.value);
}

/** `require('child_process')`, or `await import('node:child_process')`. */
function isRequireOfChildProcess(init: EsNode | null | undefined): boolean {
  if (init?.type === 'AwaitExpression' && (init.argument as EsNode).type === 'ImportExpression') {
    const source = (init.argument as EsNode).source as EsNode;
    return source.type === 'Literal' && MODULES.has(source.value as string);
  }
  if (init?.type !== 'CallExpression' || (init.callee as EsNode).type !== 'Identifier' || (init.callee as EsNode).name !== 'require')
    return false;
  const first = (init.arguments as EsNode[])[0];
  return first?.type === 'Literal' && MODULES.has(first.value as string);
}

/** The child_process function a callee names: `execSync` imported so, or `cp.execSync`, `cp['execSync']`, `require('child_process').execSync`. */
function calledFunction(callee: EsNode, namespaces: ReadonlySet<string>, functions: ReadonlyMap<string, string>): string | undefined {
  if (callee.type === 'Identifier') return functions.get(callee.name as string);
  if (callee.type !== 'MemberExpression') return undefined;
  const property = callee.property as EsNode;
  const name = callee.computed ? (property.type === 'Literal' ? property.value : undefined) : property.name;
  if (typeof name !== 'string') return undefined;
  const object = callee.object as EsNode;
  if (object.type === 'Identifier' && namespaces.has(object.name as string)) return name;
  return isRequireOfChildProcess(object) ? name : undefined;
}

/**
 * Whether an options object runs the command in a shell: Node does for a
 * `shell` that is `true` or a shell's path (a non-empty string, a template,
 * `process.env.SHELL`, or `a || b` of those), not for `false` or `''`. A
 * value known only at run time (a variable) is not taken for one.
 */
function runsInShell(arg: EsNode): boolean {
  if (arg.type !== 'ObjectExpression') return false;
  return (arg.properties as EsNode[]).some(
    (property) => property.type === 'Property' && keyName(property) === 'shell' && namesShell(property.value as EsNode),
  );
}

function namesShell(value: EsNode): boolean {
  if (value.type === 'Literal') return value.value === true || (typeof value.value === 'string' && value.value !== '');
  if (value.type === 'TemplateLiteral') return true;
  if (value.type === 'MemberExpression') return isMember(value.object as EsNode, 'process', 'env');
  if (value.type === 'LogicalExpression' && value.operator !== '&&')
    return namesShell(value.left as EsNode) || namesShell(value.right as EsNode);
  return false;
}

/** The names a declaration's pattern binds (`x`, `{ a, b: c }`, `[d, ...e]`). */
function boundNames(pattern: EsNode): string[] {
  if (pattern.type === 'Identifier') return [pattern.name as string];
  if (pattern.type === 'ObjectPattern')
    return (pattern.properties as EsNode[]).flatMap((p) => boundNames((p.type === 'RestElement' ? p.argument : p.value) as EsNode));
  if (pattern.type === 'ArrayPattern') return (pattern.elements as Array<EsNode | null>).flatMap((e) => (e ? boundNames(e) : []));
  if (pattern.type === 'RestElement') return boundNames(pattern.argument as EsNode);
  if (pattern.type === 'AssignmentPattern') return boundNames(pattern.left as EsNode);
  return [];
}

/** The names set from the input (the parses, or `seeds`), or from a name set so: two passes take assignments written before their source. */
function taintedNames(nodes: readonly EsNode[], parses: ReadonlySet<number>, seeds: ReadonlySet<string> = new Set()): Set<string> {
  const tainted = new Set(seeds);
  for (let pass = 0; pass < 2; pass++) {
    for (const node of nodes) {
      if (node.type === 'VariableDeclarator' && node.init && taintIn(node.init as EsNode, parses, tainted))
        for (const name of boundNames(node.id as EsNode)) tainted.add(name);
      if (
        node.type === 'AssignmentExpression' &&
        (node.left as EsNode).type === 'Identifier' &&
        taintIn(node.right as EsNode, parses, tainted)
      )
        tainted.add((node.left as EsNode).name as string);
    }
  }
  return tainted;
}

function taintIn(expression: EsNode, parses: ReadonlySet<number>, tainted: ReadonlySet<string>): boolean {
  return firstTaint(expression, parses, tainted) !== undefined;
}

/** The first part of an expression that holds text from the input: a parse of stdin, or a tainted name read as a value. */
function firstTaint(expression: EsNode, parses: ReadonlySet<number>, tainted: ReadonlySet<string>): EsNode | undefined {
  const stack = [expression];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (parses.has(node.start) && node.type === 'CallExpression') return node;
    if (node.type === 'Identifier' && tainted.has(node.name as string) && readsValue(node)) return node;
    // What a quoting function returns is safe for a shell; a function defined here is not entered.
    if (node.type === 'CallExpression' && QUOTING.test(calleeName(node.callee as EsNode))) continue;
    if (FUNCTIONS.has(node.type)) continue;
    stack.push(...childrenOf(node).reverse());
  }
  return undefined;
}

function calleeName(callee: EsNode): string {
  if (callee.type === 'Identifier') return callee.name as string;
  if (callee.type === 'MemberExpression' && !callee.computed) return String((callee.property as EsNode).name);
  return '';
}

/** Whether an identifier is read as a value: not a property name (`x.name`), an object key or a declaration's own name. */
function readsValue(identifier: EsNode): boolean {
  const parent = identifier.parent;
  if (!parent) return true;
  if (parent.type === 'MemberExpression' && parent.property === identifier && !parent.computed) return false;
  return !(parent.type === 'Property' && parent.key === identifier && !parent.computed && !parent.shorthand);
}
