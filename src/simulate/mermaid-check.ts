/**
 * A grammar check for the subset of Mermaid's sequence-diagram language that
 * formatMermaid emits. The `mermaid` package needs a DOM to parse, and
 * `@mermaid-js/parser` has no sequence-diagram grammar, so the subset is
 * checked here against Mermaid's own rules for it (sequenceDiagram.jison):
 *
 *   diagram     := 'sequenceDiagram' NL statement*
 *   statement   := 'participant' ID ('as' TEXT)?
 *                | ID ARROW ID ':' TEXT            ARROW := ->> | -->> | -) | --) | -> | --> | -x | --x
 *                | 'Note' ('over' ID (',' ID)? | ('left of' | 'right of') ID) ':' TEXT
 *                | 'loop' TEXT | 'end'
 *   ID          := [A-Za-z][A-Za-z0-9_]*  (declared before use, not a keyword)
 *   TEXT        := one line without ';' (a statement separator), '#' (entity
 *                  codes), '<' or '>' (HTML), '%%' (comments)
 *
 * Returns the problems, each with its line; an empty list means the diagram parses.
 */
export function checkMermaidSequence(source: string): Array<{ line: number; message: string }> {
  const problems: Array<{ line: number; message: string }> = [];
  const lines = source.split('\n');
  const declared = new Set<string>();
  const keywords = new Set([
    'end',
    'loop',
    'alt',
    'else',
    'opt',
    'par',
    'and',
    'rect',
    'note',
    'participant',
    'actor',
    'as',
    'over',
    'autonumber',
    'activate',
    'deactivate',
    'critical',
    'break',
    'box',
  ]);
  const idPattern = /^[A-Za-z][A-Za-z0-9_]*$/;
  const checkText = (text: string, line: number, what: string): void => {
    if (text.trim() === '') problems.push({ line, message: `empty ${what}` });
    if (/[;#<>]|%%/.test(text))
      problems.push({ line, message: `${what} contains a character Mermaid reads as syntax: ${JSON.stringify(text)}` });
  };
  const checkId = (id: string, line: number): void => {
    if (!idPattern.test(id) || keywords.has(id.toLowerCase())) problems.push({ line, message: `invalid participant id '${id}'` });
    else if (!declared.has(id)) problems.push({ line, message: `participant '${id}' used before it is declared` });
  };
  let depth = 0;
  let sawHeader = false;
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const text = raw.trim();
    if (text === '') continue;
    if (!sawHeader) {
      if (text !== 'sequenceDiagram') problems.push({ line, message: `expected 'sequenceDiagram', found ${JSON.stringify(text)}` });
      sawHeader = true;
      continue;
    }
    let match: RegExpExecArray | null;
    if ((match = /^participant\s+(\S+)(?:\s+as\s+(.*))?$/.exec(text))) {
      const id = match[1]!;
      if (!idPattern.test(id) || keywords.has(id.toLowerCase())) problems.push({ line, message: `invalid participant id '${id}'` });
      if (declared.has(id)) problems.push({ line, message: `participant '${id}' declared twice` });
      declared.add(id);
      if (match[2] !== undefined) checkText(match[2], line, 'participant label');
    } else if ((match = /^([A-Za-z][A-Za-z0-9_]*)(->>|-->>|-\)|--\)|-x|--x|->|-->)([A-Za-z][A-Za-z0-9_]*)\s*:(.*)$/.exec(text))) {
      checkId(match[1]!, line);
      checkId(match[3]!, line);
      checkText(match[4]!, line, 'message text');
    } else if (
      (match = /^Note\s+(?:over\s+([A-Za-z0-9_]+)(?:\s*,\s*([A-Za-z0-9_]+))?|(?:left|right) of\s+([A-Za-z0-9_]+))\s*:(.*)$/.exec(text))
    ) {
      for (const id of [match[1], match[2], match[3]]) if (id !== undefined) checkId(id, line);
      checkText(match[4]!, line, 'note text');
    } else if ((match = /^loop\s+(.*)$/.exec(text))) {
      checkText(match[1]!, line, 'loop label');
      depth++;
    } else if (text === 'end') {
      if (depth === 0) problems.push({ line, message: "'end' without an open block" });
      else depth--;
    } else {
      problems.push({ line, message: `not a statement of the sequence-diagram subset: ${JSON.stringify(text)}` });
    }
  }
  if (!sawHeader) problems.push({ line: 1, message: "expected 'sequenceDiagram'" });
  if (depth > 0) problems.push({ line: lines.length, message: `${depth} block(s) not closed with 'end'` });
  return problems;
}
