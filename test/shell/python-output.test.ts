import { describe, expect, it } from 'vitest';
import { ANY_VALUE_MARK } from '../../src/shell/printed-text.js';
import { pythonOutputs } from '../../src/shell/python-output.js';

const json = (program: string): unknown[] => pythonOutputs(program).map((p) => JSON.parse(p.text));

describe('pythonOutputs', () => {
  it('reads a dict literal with a hookSpecificOutput as the JSON it prints', () => {
    const program = [
      'out = {',
      '    "hookSpecificOutput": {',
      "        'hookEventName': 'PreToolUse',  # the event",
      '        "permissionDecision": "deny",',
      '        "permissionDecisionReason": f"no {cmd}",',
      "        'updatedInput': {'n': 1, 'ok': True, 'x': None, 'l': [1.5, -2, 'a' \"b\"]},",
      '    },',
      '    "suppressOutput": False,',
      '    "systemMessage": reason or "blocked",',
      '}',
      'print(json.dumps(out))',
    ].join('\n');
    expect(json(program)).toEqual([
      {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: ANY_VALUE_MARK,
          updatedInput: { n: 1, ok: true, x: null, l: [1.5, -2, 'ab'] },
        },
        suppressOutput: false,
        systemMessage: ANY_VALUE_MARK,
      },
    ]);
  });

  it('leaves out what goes to stderr, which Claude Code does not read as the output', () => {
    const program = [
      'print(json.dumps({"decision": "block", "reason": "a (b)"}, indent=2), file=sys.stderr)',
      'sys.stderr.write(json.dumps({"decision": "block"}))',
      'json.dump({"decision": "block"}, sys.stderr)',
      'print(json.dumps({"decision": "approve"}), file=log)  # file=sys.stderr in a comment',
      'json.dump({"decision": "deny"}, sys.stdout)',
    ].join('\n');
    expect(json(program)).toEqual([{ decision: 'approve' }, { decision: 'deny' }]);
  });

  it('each character of the JSON knows the literal it comes from', () => {
    const program = "print(json.dumps({'decision': 'block', 'reason': r'a\\b'}))";
    const [printed] = pythonOutputs(program);
    const at = (text: string): string => {
      const i = printed!.text.indexOf(text);
      return program.slice(printed!.offsets[i], printed!.ends[i + text.length - 1]);
    };
    expect(at('"decision"')).toBe("'decision'");
    expect(at('"block"')).toBe("'block'");
    expect(printed!.text).toContain('"a\\\\b"');
  });

  it('takes a `decision` only when it is one of Claude Code’s words, and leaves other dicts alone', () => {
    expect(json("x = {'decision': 'approve'}\ny = {'decision': 1, 'fact': 2}\nz = {'decision': 'maybe'}")).toEqual([
      { decision: 'approve' },
    ]);
    expect(json('n = {"a": 1}')).toEqual([]);
  });

  it('does not read a dict with a computed key, a spread, a set, a comprehension, or one in a string or comment', () => {
    expect(json('o = {key: 1, "hookSpecificOutput": {}}')).toEqual([]);
    expect(json('o = {**base, "hookSpecificOutput": {}}')).toEqual([]);
    expect(json('o = {"hookSpecificOutput", "x"}')).toEqual([]);
    expect(json('o = {k: v for k, v in d.items() if k == "hookSpecificOutput"}')).toEqual([]);
    expect(json('"""\nprint({"hookSpecificOutput": {}})\n"""\n# {"decision": "block"}')).toEqual([]);
    // Inside an output, a nested dict is part of it; a dict holding one is not an output, the nested one is.
    expect(json('wrap = {"log": {"decision": "block"}}')).toEqual([{ decision: 'block' }]);
  });
});
