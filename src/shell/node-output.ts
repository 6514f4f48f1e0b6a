import { type EsNode, isMember, keyName, type NodeProgram } from './node-program.js';
import { ANY_VALUE_MARK, type PrintedText } from './printed-text.js';
import { isHookOutput } from './python-output.js';

/**
 * The hook outputs a Node program spells out as object literals
 * (`console.log(JSON.stringify({ hookSpecificOutput: { permissionDecision: 'deny', … } }))`),
 * each as the JSON it prints, placed as python-output.ts places Python's: a
 * key or a value knows the literal it comes from, and a value the program
 * computes (a name, a call, a template with `${…}`) is a string holding
 * ANY_VALUE_MARK. An object is taken for an output as a Python dict is (a
 * `hookSpecificOutput` key, or a `decision` that is one of Claude Code's
 * words); one with a computed key or a `...spread` is not read.
 */
export function nodeOutputs(program: NodeProgram): PrintedText[] {
  return outputObjects(program).map(({ printed }) => printed);
}

const outputsOf = new WeakMap<NodeProgram, Array<{ node: EsNode; printed: PrintedText }>>();

/** Each output object with its literal; read once a program (cc-output-invalid and cc-exit-not-blocking both ask). */
function outputObjects(program: NodeProgram): Array<{ node: EsNode; printed: PrintedText }> {
  let outputs = outputsOf.get(program);
  if (!outputs) outputsOf.set(program, (outputs = readOutputObjects(program)));
  return outputs;
}

function readOutputObjects(program: NodeProgram): Array<{ node: EsNode; printed: PrintedText }> {
  if (!/hookSpecificOutput|decision/.test(program.text)) return [];
  const outputs: Array<{ node: EsNode; printed: PrintedText }> = [];
  let after = -1;
  for (const node of program.nodes) {
    // Objects inside an output are part of it; an object is read only when a key of its own may make it one.
    if (node.type !== 'ObjectExpression' || node.start < after || !mayBeOutput(node) || printedToStderr(node)) continue;
    const printed = readLiteral(node);
    if (!printed || !isHookOutput(printed.text)) continue;
    outputs.push({ node, printed });
    after = node.end;
  }
  return outputs;
}

/**
 * `console.error(JSON.stringify({…}))`, `process.stderr.write(JSON.stringify({…}))`: text on stderr, which
 * Claude Code shows (as a blocking exit's reason) but does not read as the hook's output.
 */
function printedToStderr(object: EsNode): boolean {
  const stringify = object.parent;
  if (stringify?.type !== 'CallExpression' || !isMember(stringify.callee as EsNode, 'JSON', 'stringify')) return false;
  if ((stringify.arguments as EsNode[])[0] !== object) return false;
  // `JSON.stringify(…) + '\n'` is the same text on the same stream.
  let argument: EsNode = stringify;
  while (argument.parent?.type === 'BinaryExpression' && argument.parent.operator === '+') argument = argument.parent;
  const print = argument.parent;
  if (print?.type !== 'CallExpression' || (print.arguments as EsNode[])[0] !== argument) return false;
  const callee = print.callee as EsNode;
  return (
    isMember(callee, 'console', 'error') ||
    isMember(callee, 'console', 'warn') ||
    (callee.type === 'MemberExpression' && isMember(callee.object as EsNode, 'process', 'stderr'))
  );
}

function mayBeOutput(object: EsNode): boolean {
  return (object.properties as EsNode[]).some((property) => {
    const key = property.type === 'Property' ? keyName(property) : undefined;
    return key === 'hookSpecificOutput' || key === 'decision';
  });
}

/**
 * Where the program prints an output object: `console.log(JSON.stringify(X))`
 * or `process.stdout.write(JSON.stringify(X))`, X the object or a `const`,
 * `let` or `var` the program set to it. Each with the offset of the print.
 */
export function nodeOutputPrints(program: NodeProgram): Array<{ at: number; printed: PrintedText }> {
  const outputs = outputObjects(program);
  if (outputs.length === 0) return [];
  const byNode = new Map(outputs.map(({ node, printed }) => [node, printed]));
  const declared = declaredObjects(program);
  const prints: Array<{ at: number; printed: PrintedText }> = [];
  for (const node of program.nodes) {
    if (node.type !== 'CallExpression' || !isPrint(node.callee as EsNode)) continue;
    const argument = stringifyCall((node.arguments as EsNode[])[0]);
    if (!argument) continue;
    const value = (argument.arguments as EsNode[])[0];
    const object = value?.type === 'Identifier' ? lastBefore(declared.get(value.name as string), node.start) : value;
    const printed = object && byNode.get(object);
    if (printed) prints.push({ at: node.start, printed });
  }
  return prints;
}

/** The `JSON.stringify(…)` call a print's argument is, with what `+` adds after it (`JSON.stringify(x) + '\n'`); undefined for anything else. */
export function stringifyCall(argument: EsNode | undefined): EsNode | undefined {
  let at = argument;
  while (at?.type === 'BinaryExpression' && at.operator === '+') at = at.left as EsNode;
  return at?.type === 'CallExpression' && isMember(at.callee as EsNode, 'JSON', 'stringify') ? at : undefined;
}

function isPrint(callee: EsNode): boolean {
  if (isMember(callee, 'console', 'log') || isMember(callee, 'console', 'info')) return true;
  return (
    callee.type === 'MemberExpression' &&
    isMember(callee.object as EsNode, 'process', 'stdout') &&
    !callee.computed &&
    (callee.property as EsNode).name === 'write'
  );
}

/** The object literals given to each name by a declaration (`const out = {…}`), in source order. */
function declaredObjects(program: NodeProgram): Map<string, EsNode[]> {
  const declared = new Map<string, EsNode[]>();
  for (const node of program.nodes) {
    const id = node.id as EsNode | undefined;
    const init = node.init as EsNode | null | undefined;
    if (node.type !== 'VariableDeclarator' || id?.type !== 'Identifier' || init?.type !== 'ObjectExpression') continue;
    const list = declared.get(id.name as string);
    if (list) list.push(init);
    else declared.set(id.name as string, [init]);
  }
  return declared;
}

/** The last of `objects` (in source order) that starts before `before`. */
function lastBefore(objects: readonly EsNode[] | undefined, before: number): EsNode | undefined {
  let found: EsNode | undefined;
  for (const object of objects ?? []) if (object.start < before) found = object;
  return found;
}

/** An object or array literal as JSON text, each character placed at its source; undefined when a key is computed or spread. */
function readLiteral(node: EsNode): PrintedText | undefined {
  const out: PrintedText = { text: '', offsets: [], ends: [] };
  const emit = (text: string, start: number, end: number): void => {
    out.text += text;
    for (let i = 0; i < text.length; i++) {
      out.offsets.push(start);
      out.ends.push(end);
    }
  };
  const value = (item: EsNode): boolean => {
    if (item.type === 'ObjectExpression') {
      emit('{', item.start, item.start + 1);
      const properties = item.properties as EsNode[];
      for (const [index, property] of properties.entries()) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method) return false;
        const key = keyName(property);
        if (key === undefined) return false;
        if (index > 0) emit(',', property.start, property.start);
        const keyNode = property.key as EsNode;
        emit(JSON.stringify(key), keyNode.start, keyNode.end);
        emit(':', keyNode.end, keyNode.end);
        if (!value(property.value as EsNode)) return false;
      }
      emit('}', item.end - 1, item.end);
      return true;
    }
    if (item.type === 'ArrayExpression') {
      emit('[', item.start, item.start + 1);
      for (const [index, element] of (item.elements as Array<EsNode | null>).entries()) {
        if (!element || element.type === 'SpreadElement') return false;
        if (index > 0) emit(',', element.start, element.start);
        if (!value(element)) return false;
      }
      emit(']', item.end - 1, item.end);
      return true;
    }
    emit(scalar(item), item.start, item.end);
    return true;
  };
  return value(node) ? out : undefined;
}

/** A scalar's JSON: a literal's own, a template without `${…}` as its string, anything computed as ANY_VALUE_MARK. */
function scalar(item: EsNode): string {
  if (item.type === 'Literal' && (item.value === null || ['string', 'number', 'boolean'].includes(typeof item.value)) && !('regex' in item))
    return JSON.stringify(item.value);
  if (item.type === 'TemplateLiteral' && (item.expressions as EsNode[]).length === 0)
    return JSON.stringify(((item.quasis as EsNode[])[0]?.value as { cooked?: string } | undefined)?.cooked ?? '');
  if (item.type === 'UnaryExpression' && item.operator === '-' && (item.argument as EsNode).type === 'Literal') {
    const number = (item.argument as EsNode).value;
    if (typeof number === 'number') return JSON.stringify(-number);
  }
  return JSON.stringify(ANY_VALUE_MARK);
}
