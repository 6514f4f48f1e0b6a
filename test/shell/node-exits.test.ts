import { describe, expect, it } from 'vitest';
import { nodeExits } from '../../src/shell/node-exits.js';
import { nodeOutputPrints, nodeOutputs } from '../../src/shell/node-output.js';
import { codeTest, parseNodeProgram } from '../../src/shell/node-program.js';
import { ANY_VALUE_MARK } from '../../src/shell/printed-text.js';

/** Each exit as `status decides-or-reports text-of-the-exit`. */
function exits(text: string): string[] {
  const program = parseNodeProgram(text);
  if (!program) throw new Error('did not parse');
  return nodeExits(program).map((exit) => `${exit.status} ${exit.decides ? 'decides' : 'reports'} ${text.slice(exit.start, exit.end)}`);
}

describe('exits a Node hook program spells out', () => {
  it('reads process.exit(N) and process.exitCode = N with an integer literal, nothing computed', () => {
    const text = [
      "if (command.includes('rm -rf')) process.exit(1);",
      "else if (command.includes('sudo')) { process.exitCode = 3; return; }",
      "if (blocked) process['exit'](1);",
      'process.exit(code);',
      'process.exit();',
      'process.exit(1.5);',
      'process.exitCode += 1;',
      'other.exit(1);',
    ].join('\n');
    expect(exits(text)).toEqual(['1 decides process.exit(1)', '3 decides process.exitCode = 3', "1 decides process['exit'](1)"]);
    const program = parseNodeProgram(text)!;
    const literal = nodeExits(program)[1]!.literal!;
    expect(text.slice(literal.start, literal.end)).toBe('3');
  });

  it('takes a conditional exit for a decision unless its branch reads as an error report', () => {
    const text = [
      'function deny(reason) {',
      '  console.error(reason);',
      '  process.exit(1);',
      '}',
      'const block = (why) => { console.error(why); process.exit(1); };',
      'function load() {',
      '  try {',
      '    return JSON.parse(input);',
      '  } catch (error) {',
      "    console.error('invalid JSON (blocked?)');",
      '    process.exit(1);',
      '  }',
      '}',
      'if (!process.env.API_KEY) {',
      "  console.error('No API key');",
      '  process.exit(1);',
      '}',
      'for (const pattern of PATTERNS) {',
      '  if (pattern.test(command)) {',
      '    console.error(`Dangerous command: ${pattern}`);',
      '    process.exit(1);',
      '  }',
      '}',
      'if (!fs.existsSync(file)) process.exit(1); // a missing file: an error, not a refusal',
      "if (!fs.existsSync(file)) { console.error('not allowed here'); process.exit(1); }",
      "if (command.includes('git push --force')) { console.error('No force pushes'); process.exit(1); }",
      "if (!input) { process.stderr.write('Error: no input'); process.exit(1); }",
      'dangerous(command) && process.exit(1);',
      'if (!flags) {',
      '  process.exit(1);',
      '}',
      'if (opts.config == null) process.exit(1);',
      'if (!allowed) process.exit(1);',
      'if (!isSafe(command)) process.exit(1);',
      'const code = risky ? process.exit(1) : 0;',
      'switch (tool) {',
      "  case 'Bash':",
      '    process.exit(1);',
      '}',
      'if (require.main === module) {',
      '  process.exit(1);',
      '}',
      'try {',
      '  process.exit(1);',
      '} finally {',
      '  process.exit(1);',
      '}',
      'function main() {',
      '  process.exit(1);',
      '}',
      'process.exit(1);',
    ].join('\n');
    expect(exits(text)).toEqual([
      '1 decides process.exit(1)', // deny()
      '1 decides process.exit(1)', // block = () => …
      '1 reports process.exit(1)', // catch
      '1 reports process.exit(1)', // API key
      '1 decides process.exit(1)', // a pattern matched
      '1 reports process.exit(1)', // existsSync
      '1 decides process.exit(1)', // … says it refuses
      '1 decides process.exit(1)', // console.error is only where the reason goes
      '1 reports process.exit(1)', // … but an error it writes there is one
      '1 decides process.exit(1)', // &&
      '1 reports process.exit(1)', // a value the program needs is missing
      '1 reports process.exit(1)', // … or null
      '1 decides process.exit(1)', // a verdict's name
      '1 decides process.exit(1)', // a test of the command
      '1 decides process.exit(1)', // ? :
      '1 decides process.exit(1)', // switch case
      '1 reports process.exit(1)', // entry point
      '1 reports process.exit(1)', // try
      '1 reports process.exit(1)', // finally
      '1 reports process.exit(1)', // main()
      '1 reports process.exit(1)', // top level
    ]);
  });

  it('parses ES modules, CommonJS and #! lines, and gives up on what acorn cannot parse', () => {
    expect(
      exits("#!/usr/bin/env node\nimport fs from 'node:fs';\nconst d = JSON.parse(await read());\nif (d.x) process.exit(1);\n"),
    ).toEqual(['1 decides process.exit(1)']);
    // A script: `with` and a top-level `return` are not module code.
    expect(exits('with (o) { x; }\nif (bad) process.exit(3);\nreturn;\n')).toEqual(['3 decides process.exit(3)']);
    expect(parseNodeProgram('const x: number = 1;\nif (bad) process.exit(1);\n')).toBeUndefined();
    expect(parseNodeProgram('if (bad {')).toBeUndefined();
  });
});

describe('outputs a Node hook program spells out', () => {
  it('reads an object literal as the JSON it prints, each part placed at its source, computed values marked', () => {
    const text = [
      'const reason = `no ${what}`;',
      'console.log(JSON.stringify({',
      "  hookSpecificOutput: { hookEventName: 'PreToolUse', 'permissionDecision': \"deny\", permissionDecisionReason: reason },",
      '  suppressOutput: true, n: -1, list: [1, null], t: `plain`,',
      '}));',
      'const other = { decision: "maybe" };',
      'const spread = { ...base, decision: "block" };',
      // stderr, which Claude Code does not read as the output.
      "console.error(JSON.stringify({ decision: 'deny', reason: 'no' }));",
      "process.stderr.write(JSON.stringify({ decision: 'deny' }) + '\\n');",
    ].join('\n');
    const program = parseNodeProgram(text)!;
    const outputs = nodeOutputs(program);
    expect(outputs.map((o) => o.text)).toEqual([
      `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":${JSON.stringify(ANY_VALUE_MARK)}},"suppressOutput":true,"n":-1,"list":[1,null],"t":"plain"}`,
    ]);
    const printed = outputs[0]!;
    const at = printed.text.indexOf('"deny"');
    expect(text.slice(printed.offsets[at], printed.ends[at])).toBe('"deny"');
  });

  it('finds where an output is printed: the literal itself, or a variable set to it before the print', () => {
    const text = [
      "const out = { decision: 'block', reason: 'no' };",
      'if (bad) {',
      '  process.stdout.write(JSON.stringify(out));',
      '  process.exit(1);',
      '}',
      "console.info(JSON.stringify({ hookSpecificOutput: { hookEventName: 'Stop' } }, null, 2));",
      'console.log(JSON.stringify(unknown));',
      'console.error(JSON.stringify(out));',
    ].join('\n');
    const program = parseNodeProgram(text)!;
    expect(nodeOutputPrints(program).map((p) => `${text.slice(p.at, p.at + 20)} ${p.printed.text}`)).toEqual([
      'process.stdout.write {"decision":"block","reason":"no"}',
      'console.info(JSON.st {"hookSpecificOutput":{"hookEventName":"Stop"}}',
    ]);
  });

  it('reads hostile programs in linear time: many prints of one name, objects nested deep, nesting past the parser', () => {
    const prints = "const out = { decision: 'block', reason: 'x' };\n" + 'console.log(JSON.stringify(out));\n'.repeat(30_000);
    expect(nodeOutputPrints(parseNodeProgram(prints)!)).toHaveLength(30_000);
    const deep = `const o = ${'{ a: '.repeat(300)}{ decision: 'block' }${' }'.repeat(300)};`;
    expect(nodeOutputs(parseNodeProgram(deep)!).map((o) => o.text)).toEqual(['{"decision":"block"}']);
    // Past what acorn's recursion takes: no program, no throw.
    expect(parseNodeProgram(`x = ${'['.repeat(100_000)}${']'.repeat(100_000)};`)).toBeUndefined();
  });

  it('tells code from comments and strings', () => {
    const text = "// d.a\nconst s = 'd.b';\nconst t = `d.c ${d.e}`;\nd.f;\n";
    const isCode = codeTest(parseNodeProgram(text)!);
    expect(['d.a', 'd.b', 'd.c', 'd.e', 'd.f'].map((needle) => isCode(text.indexOf(needle)))).toEqual([false, false, false, true, true]);
  });
});
