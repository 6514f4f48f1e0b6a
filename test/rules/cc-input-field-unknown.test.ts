import rule from '../../rules/cc-input-field-unknown/index.js';
import { describe, expect, it } from 'vitest';
import { jqInputPaths } from '../../src/shell/jq-paths.js';
import { programInputFields } from '../../src/shell/program-fields.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** Agent frontmatter with one Claude Code handler of `event` (matcher `matcher`) whose command starts on line 10, column 13. */
function hook(event: string, matcher: string | undefined, script: string): string {
  const lines = [
    '---',
    'name: gate',
    'description: Checks commands.',
    'hooks:',
    `  ${event}:`,
    matcher === undefined ? '    - hooks:' : `    - matcher: ${matcher}`,
  ];
  lines.push(matcher === undefined ? '        - type: command' : '      hooks:');
  if (matcher !== undefined) lines.push('        - type: command');
  else lines.push('          timeout: 5');
  lines.push('          command: |', ...script.split('\n').map((line) => `            ${line}`));
  return [...lines, '---', 'Body.', ''].join('\n');
}

ruleTester(rule, {
  accept: [
    { name: 'the documented field of a Bash call', profile: hook('PreToolUse', 'Bash', "jq -r '.tool_input.command // empty'") },
    { name: 'common and event fields', profile: hook('PreToolUse', 'Bash', "jq -r '.session_id, .cwd, .tool_name, .tool_use_id'") },
    {
      name: 'Edit and Write fields',
      profile: hook('PostToolUse', 'Edit|Write', "jq -r '.tool_input.file_path, .tool_input.content, .tool_response'"),
    },
    { name: 'any tool: tool_input unchecked', profile: hook('PreToolUse', undefined, "jq -r '.tool_input.query'") },
    { name: 'a pattern matcher: tool_input unchecked', profile: hook('PreToolUse', "'mcp__.*'", "jq -r '.tool_input.repo'") },
    { name: 'a tool the table does not list', profile: hook('PreToolUse', 'NotebookEdit', "jq -r '.tool_input.notebook_path'") },
    { name: 'a fallback after //', profile: hook('PreToolUse', 'Bash', "jq -r '.tool_name // .tool // empty'") },
    { name: 'after a pipe, . is the field', profile: hook('PreToolUse', 'Bash', "jq -r '.tool_input | .cmd'") },
    { name: "a function's argument", profile: hook('UserPromptSubmit', undefined, "jq -r 'select(.x) | .prompt'") },
    { name: 'jq on a file of its own', profile: hook('UserPromptSubmit', undefined, "jq -r '.user_prompt' ./state.json") },
    { name: 'jq -n', profile: hook('UserPromptSubmit', undefined, "jq -n '.user_prompt'") },
    {
      name: 'a line read in a loop fed by something else',
      profile: hook(
        'Stop',
        undefined,
        "while IFS= read -r entry; do\n  printf '%s' \"$entry\" | jq -r '.doc'\ndone < <(jq -c '.[]' ./sweep.json)",
      ),
    },
    {
      name: 'a variable holding one field, not the input',
      profile: hook('PreToolUse', 'Bash', 'C=$(jq -r .tool_input.command)\necho "$C" | jq -R .cmd'),
    },
  ],
  reject: [
    {
      name: 'a field Bash calls do not have',
      profile: hook('PreToolUse', 'Bash', "CMD=$(jq -r '.tool_input.cmd // empty')"),
      errors: [{ messageId: 'toolField', line: 10, column: 26, endColumn: 41 }],
    },
    {
      name: 'camelCase, from a variable holding the input',
      profile: hook('PreToolUse', 'Bash', 'INPUT=$(cat)\nT=$(echo "$INPUT" | jq -r .toolName)'),
      errors: [{ messageId: 'field', line: 11, column: 39, endColumn: 48 }],
    },
    {
      name: 'a here-string of the input, in an object construction',
      profile: hook('PostToolUse', 'Edit|Write', 'read -r J\njq -c \'{f: .tool_input.filePath}\' <<< "$J"'),
      errors: [{ messageId: 'toolField', line: 11, column: 24, endColumn: 44 }],
    },
    {
      name: 'a field another event has',
      profile: hook('UserPromptSubmit', undefined, "jq -e '.tool_input.command' >/dev/null && exit 2"),
      errors: [{ messageId: 'field', line: 10, column: 20, endColumn: 39 }],
    },
    {
      name: 'a grouped comparison',
      profile: hook('Stop', undefined, "jq -e '.stop_hook_active and (.last_message != null)'"),
      errors: [{ messageId: 'field', line: 10, column: 43, endColumn: 56 }],
    },
  ],
});

describe('jqInputPaths', () => {
  it('reads the paths applied to the input, with their offsets', () => {
    const read = (filter: string): string[] =>
      jqInputPaths(filter).map((p) => `${p.path.join('.')}@${p.start}-${p.end}${p.fallback ? '?' : ''}`);
    expect(read('.tool_input.cmd // empty')).toEqual(['tool_input.cmd@0-15']);
    expect(read('.a // .b')).toEqual(['a@0-2', 'b@6-8?']);
    expect(read('.a | .b')).toEqual(['a@0-2']);
    expect(read('.["tool_input"]["cmd"]?')).toEqual(['tool_input.cmd@0-23']);
    expect(read('{c: .a.b, d: [.x, (.y)]}')).toEqual(['a.b@4-8', 'x@14-16', 'y@19-21']);
    expect(read('if .a then .b elif .c then .d else .e end')).toEqual(['a@3-5', 'b@11-13', 'c@19-21', 'd@27-29', 'e@35-37']);
    expect(read('.a and (.b or not)')).toEqual(['a@0-2', 'b@8-10']);
    expect(read('select(.a) | map(.b) | .c')).toEqual([]);
    expect(read('"\\(.x).y" + .z # .w')).toEqual(['z@12-14']);
    expect(read('$ENV.HOME, env.X, 1.5, .[0].a, .. | .z')).toEqual([]);
    expect(read('(.a | .b), .c')).toEqual(['a@1-3', 'c@11-13']);
    expect(read('reduce .[] as $x (0; . + $x.n)')).toEqual([]);
  });
});

// Inline Python and Node programs that parse the hook's stdin JSON read its fields as jq does: a field
// the event does not have is a KeyError, a `.get` default or undefined, and the guard never matches.
ruleTester(rule, {
  accept: [
    {
      name: 'python reading the documented fields',
      profile: hook(
        'PreToolUse',
        'Bash',
        `python3 -c "import json,sys; d=json.load(sys.stdin); print(d['tool_input']['command'], d.get('cwd'))"`,
      ),
    },
    {
      name: 'node reading a field and calling a method on it',
      profile: hook(
        'PreToolUse',
        'Bash',
        "node -e \"const d = JSON.parse(require('fs').readFileSync(0, 'utf8')); if (d.tool_input.command.includes('rm')) process.exit(2)\"",
      ),
    },
    {
      name: 'python parsing a file of its own',
      profile: hook('PreToolUse', 'Bash', `python3 -c "import json; d=json.load(open('x.json')); print(d['cmd'])"`),
    },
    { name: 'python given a script file', profile: hook('PreToolUse', 'Bash', 'python3 ./guard.py') },
    {
      name: 'a fallback after or, || and ??, as after jq’s //',
      profile: hook(
        'PostToolUse',
        'Write',
        `python3 -c "import json,sys; d=json.load(sys.stdin)['tool_input']; print(d.get('file_path') or d.get('path'))"\nnode -e "const d = JSON.parse(fs.readFileSync(0)); d.tool_input.file_path || d.tool_input.path; d.tool_name ?? d.tool"`,
      ),
    },
    {
      name: 'python reading a variable that holds one field',
      profile: hook(
        'PreToolUse',
        'Bash',
        `C=$(jq -r .tool_input.command)\necho "$C" | python3 -c "import json,sys; print(json.load(sys.stdin)['cmd'])"`,
      ),
    },
  ],
  reject: [
    {
      name: 'python: a field Bash calls do not have, through a name bound to tool_input',
      profile: hook(
        'PreToolUse',
        'Bash',
        `python3 -c "import json,sys\nd = json.load(sys.stdin)\nti = d.get('tool_input', {})\nif 'rm' in ti.get('cmd', ''): sys.exit(2)"`,
      ),
      errors: [{ messageId: 'toolField', line: 13, column: 32, endColumn: 35, message: /`\.tool_input\.cmd`.*Python raises KeyError/ }],
    },
    {
      name: 'python: camelCase, from the input echoed into it',
      profile: hook(
        'PreToolUse',
        'Bash',
        `INPUT=$(cat)\nT=$(echo "$INPUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["toolName"])')`,
      ),
      errors: [{ messageId: 'field', line: 11, column: 90, endColumn: 98, message: /did you mean `tool_name`/ }],
    },
    {
      name: 'node: stdin read in chunks, then parsed',
      profile: hook(
        'PreToolUse',
        'Bash',
        "node -e \"let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const d=JSON.parse(s);if(/rm/.test(d.tool_input.cmd))process.exit(2)})\"",
      ),
      errors: [{ messageId: 'toolField', line: 10, column: 126, endColumn: 129, message: /Node reads undefined/ }],
    },
    {
      name: 'jq on a variable that took the input by /dev/fd/0',
      profile: hook('PreToolUse', 'Bash', 'IN=$(cat /dev/fd/0)\necho "$IN" | jq -r .toolName'),
      errors: [{ messageId: 'field', line: 11, column: 32, endColumn: 41 }],
    },
    {
      name: 'node: a field of another event, with ?. and a subscript',
      profile: hook(
        'UserPromptSubmit',
        undefined,
        "node -e \"const d = JSON.parse(require('fs').readFileSync('/dev/stdin', 'utf8')); if (d?.['user_prompt']) process.exit(2)\"",
      ),
      errors: [{ messageId: 'field', line: 10, column: 103, endColumn: 114, message: /Node reads undefined/ }],
    },
  ],
});

describe('programInputFields', () => {
  const read = (language: 'python' | 'node', program: string): string[] =>
    programInputFields(language, program).map((f) => `${f.path.join('.')}=${program.slice(f.start, f.end)}`);
  it('follows subscripts from the parse and from the names bound to it or to a part of it', () => {
    expect(read('python', "print(json.load(sys.stdin)['a']['b'])")).toEqual(['a=a', 'a.b=b']);
    expect(read('python', "d = json.loads(sys.stdin.read())\nx = d.get('a', {}).get('b')\ny = x['c']")).toEqual([
      'a=a',
      'a.b=b',
      'a.b.c=c',
    ]);
    expect(read('node', "const d = JSON.parse(fs.readFileSync(0)); d.a?.b.startsWith('x'); d['c']")).toEqual(['a=a', 'a.b=b', 'c=c']);
    // Node's streaming idiom: the chunks of process.stdin added up, then parsed.
    expect(
      read(
        'node',
        "let s = ''; process.stdin.on('data', (c) => (s += c)).on('end', () => { const d = JSON.parse(s); d.tool_input.cmd; });",
      ),
    ).toEqual(['tool_input=tool_input', 'tool_input.cmd=cmd']);
    expect(read('node', "let s = '{}'; const d = JSON.parse(s); d.a")).toEqual([]);
    // …or pushed to an array and joined (Buffer.concat, join), in the parse or through a name first.
    expect(
      read(
        'node',
        "const chunks = []; for await (const c of process.stdin) chunks.push(c); const d = JSON.parse(Buffer.concat(chunks).toString('utf8')); d.tool_input.cmd",
      ),
    ).toEqual(['tool_input=tool_input', 'tool_input.cmd=cmd']);
    expect(
      read(
        'node',
        "const parts = []; process.stdin.on('data', (c) => parts.push(c)); process.stdin.on('end', () => { const raw = parts.join(''); const d = JSON.parse(raw); d.cwd; });",
      ),
    ).toEqual(['cwd=cwd']);
    // An array nothing was pushed to is not the stdin's chunks.
    expect(
      read('node', "const chunks = []; process.stdin.on('data', (c) => chunks.push(c)); const d = JSON.parse(Buffer.concat(other)); d.a"),
    ).toEqual([]);
  });
  it('reads nothing of JSON from elsewhere, nor method calls, nor names bound before the parse', () => {
    expect(read('python', "d = json.load(open('f'))\nprint(d['a'])")).toEqual([]);
    expect(read('node', "const d = JSON.parse(fs.readFileSync(0)); d.hasOwnProperty('a'); d.keys()")).toEqual([]);
    expect(read('python', "print(d['a'])\nd = json.load(sys.stdin)")).toEqual([]);
  });
  it('follows a name assigned anew: to a part of the JSON, or to something else', () => {
    expect(read('python', "d = json.load(sys.stdin)\nd = d.get('tool_input', {})\nprint(d['command'])")).toEqual([
      'tool_input=tool_input',
      'tool_input.command=command',
    ]);
    expect(read('python', "d = json.load(sys.stdin)\nd = open('x').read()\nprint(d['a'])")).toEqual([]);
    expect(read('python', "d = json.load(sys.stdin)\nif d == 1: print(d['a'])")).toEqual(['a=a']);
  });
  it('leaves out what the program writes, and its reads of it after', () => {
    expect(read('python', "d = json.load(sys.stdin)\nd['logged_at'] = now()\nprint(d['logged_at'], d['tool_name'])")).toEqual([
      'tool_name=tool_name',
    ]);
    expect(read('python', "d = json.load(sys.stdin)\nif d['a'] == 1: pass\nd['b']['c'] = 2")).toEqual(['a=a', 'b=b']);
  });
  it("a `.get`'s default is a fallback, as after `or`", () => {
    const fields = programInputFields('python', "d = json.load(sys.stdin)\nx = d.get('tool_response', d.get('tool_result'))");
    expect(fields.map((f) => [f.path.join('.'), f.fallback])).toEqual([
      ['tool_response', false],
      ['tool_result', true],
    ]);
  });
  it("in Python, a bracket in a `.get`'s default string or in a call's string argument ends nothing", () => {
    expect(read('python', "d = json.load(sys.stdin)\nx = d.get('tool_input', ')').get('comand')")).toEqual([
      'tool_input=tool_input',
      'tool_input.comand=comand',
    ]);
    expect(
      read(
        'python',
        "def check(ti, note):\n    return ti['pattern']\nd = json.load(sys.stdin)\ncheck(d['tool_input'], '(')\nprint(d['cwd'])",
      ),
    ).toEqual(['tool_input.pattern=pattern', 'tool_input=tool_input', 'cwd=cwd']);
  });
  it('in Python, a comma or a bracket in a comment or a triple-quoted string inside a call splits nothing', () => {
    const program = [
      'def check(ti, note):',
      "    return ti['pattern']",
      'd = json.load(sys.stdin)',
      'check(  # first, the input (as sent)',
      "    d['tool_input'], '''a,",
      "(b''')",
      "print(d['cwd'])",
    ].join('\n');
    expect(read('python', program)).toEqual(['tool_input.pattern=pattern', 'tool_input=tool_input', 'cwd=cwd']);
  });
  it("in Python, reads an f-string's replacement fields, and nothing else of it", () => {
    const program = [
      'd = json.load(sys.stdin)',
      "print(f\"running {d['tool_input']['comand']!r:>10} in {d.get('cwd')}\")",
      "log(rf'''{{d['literal']}} {d[\"tool_name\"]}",
      "  {d['session_id']}''')",
      'print("{d[\'not_a_field\']}", f\'{{d["x"]}}\')',
      // A quote as a format spec's fill character ends nothing beyond its line.
      "print(f\"{d['cwd']:'>20}\")",
      "# d['after'] was renamed",
    ].join('\n');
    expect(read('python', program)).toEqual([
      'tool_input=tool_input',
      'tool_input.comand=comand',
      'cwd=cwd',
      'tool_name=tool_name',
      'session_id=session_id',
      'cwd=cwd',
    ]);
  });
  it('in Python, reads nothing in comments and strings', () => {
    expect(
      read('python', "d = json.load(sys.stdin)\n# d['old_field'] was renamed\nprint(\"d['x']\", '''\nd['y']\n''', d['tool_name'])"),
    ).toEqual(['tool_name=tool_name']);
    expect(read('python', "# d = json.load(sys.stdin)\nd = {}\nprint(d['x'])")).toEqual([]);
  });
  it("in Python, follows a name in its function's scope", () => {
    const program = [
      'def check(tool_input):',
      "    return tool_input.get('pattern')",
      '',
      'def main():',
      '    data = json.load(sys.stdin)',
      "    tool_input = data.get('tool_input', {})",
      "    if check(tool_input) or tool_input.get('command'):",
      '        sys.exit(2)',
      '',
      'def log(data):',
      "    print(data['entry'], tool_input['x'])",
      '',
      'def local():',
      "    data = {'a': 1}",
      "    return data['a']",
      '',
      'main()',
    ].join('\n');
    // check() is handed the input's tool_input: its parameter holds it there.
    expect(read('python', program)).toEqual(['tool_input.pattern=pattern', 'tool_input=tool_input', 'tool_input.command=command']);
    // A module-level name is seen in a function that does not bind it, or declares it global.
    const globals = [
      'data = json.load(sys.stdin)',
      'def a():',
      "    return data['x']",
      'def b(data):',
      "    return data['y']",
      'def c():',
      '    global data',
      '    data = data',
      "    return data['z']",
    ].join('\n');
    expect(read('python', globals)).toEqual(['x=x', 'z=z']);
    // A docstring's text at column 0 does not end its function.
    const doc = [
      'def main():',
      '    data = json.load(sys.stdin)',
      '    """',
      'Usage:',
      '    """',
      "    print(data['a'])",
      "print(data['b'])",
    ];
    expect(read('python', doc.join('\n'))).toEqual(['a=a']);
  });
  it('in Python, follows the input into the functions of the file it is handed to, and only there', () => {
    const program = (calls: string): string =>
      [
        'def log(entry, extra=None):',
        "    print(entry['session_id'])",
        'def inner(ti):',
        "    return ti['command']",
        'def outer(d):',
        "    return inner(d['tool_input'])",
        'def main():',
        '    data = json.load(sys.stdin)',
        calls,
        'main()',
      ].join('\n');
    // Handed on through two functions, by position or by keyword.
    expect(read('python', program('    log(data)\n    outer(d=data)'))).toEqual([
      'session_id=session_id',
      'tool_input.command=command',
      'tool_input=tool_input',
    ]);
    // A function also handed something else, or called without it, is not followed.
    expect(read('python', program("    log(data)\n    log({'session_id': 1})"))).toEqual([]);
    expect(read('python', program('    log(data)\n    log(extra=data)'))).toEqual([]);
    expect(read('python', program('    log(*[data])'))).toEqual([]);
  });
});
