import { describe, expect, it } from 'vitest';
import { pythonExits } from '../../src/shell/python-exits.js';

/** Each exit as `status decides-or-reports text-of-the-call`. */
function exits(program: string): string[] {
  return pythonExits(program).map(
    (exit) => `${exit.status} ${exit.decides ? 'decides' : 'reports'} ${program.slice(exit.start, exit.end)}`,
  );
}

describe('exits a Python hook program spells out', () => {
  it('reads every spelling of an exit with a literal status, and a message as status 1', () => {
    const program = [
      'import os, sys',
      "if 'rm -rf' in command:",
      '    sys.exit(1)',
      'elif dangerous(command):',
      '    exit( 3 )',
      'elif blocked:',
      '    quit(1)',
      'elif denied:',
      '    os._exit(1)',
      'elif forbidden:',
      '    raise SystemExit(1)',
      'elif protected_path(path):',
      "    sys.exit(f'Blocked: {path} is protected')",
      'sys.exit(main())',
      'sys.exit(code)',
      "sys.exit('a' if ok else 'b')",
      "sys.exit(f'{reason}' + suffix)",
    ].join('\n');
    expect(exits(program)).toEqual([
      '1 decides sys.exit(1)',
      '3 decides exit( 3 )',
      '1 decides quit(1)',
      '1 decides os._exit(1)',
      '1 decides raise SystemExit(1)',
      "1 decides sys.exit(f'Blocked: {path} is protected')",
    ]);
    const literal = pythonExits(program)[1]!.literal!;
    expect(program.slice(literal.start, literal.end)).toBe('3');
  });

  it('takes a conditional exit for a decision unless its branch reads as an error report', () => {
    const program = [
      'def deny(reason):',
      '    print(reason, file=sys.stderr)',
      '    sys.exit(1)',
      'def load():',
      '    try:',
      '        return json.load(sys.stdin)',
      '    except json.JSONDecodeError:',
      "        print('Error: invalid JSON input (blocked?)', file=sys.stderr)",
      '        sys.exit(1)',
      'if not api_key:',
      "    print('No API key', file=sys.stderr)",
      '    sys.exit(1)',
      'for pattern in PATTERNS:',
      '    if re.search(pattern, command):',
      '        print(f"Dangerous command: {pattern}", file=sys.stderr)',
      '        sys.exit(1)',
      'if is_safe(command): sys.exit(0)',
      'else:',
      "    print('Not allowed', file=sys.stderr)",
      '    sys.exit(1)',
      'if violations: sys.exit(1)',
      'if not flags: sys.exit(1)',
      'if args.config is None:',
      '    sys.exit(1)',
      'if not is_safe: sys.exit(1)',
      'if len(sys.argv) < 2:',
      "    print('usage: guard.py FILE')",
      '    sys.exit(1)',
      "if 'rm -rf' in command:",
      '    sys.exit(1)',
      'if __name__ == "__main__":',
      '    # blocks nothing: the entry point',
      '    sys.exit(1)',
      'sys.exit(1)',
    ].join('\n');
    expect(exits(program)).toEqual([
      '1 decides sys.exit(1)',
      '1 reports sys.exit(1)',
      '1 reports sys.exit(1)',
      '1 decides sys.exit(1)',
      '0 decides sys.exit(0)',
      '1 decides sys.exit(1)',
      '1 decides sys.exit(1)',
      '1 reports sys.exit(1)',
      '1 reports sys.exit(1)',
      '1 decides sys.exit(1)',
      '1 reports sys.exit(1)',
      '1 decides sys.exit(1)',
      '1 reports sys.exit(1)',
      '1 reports sys.exit(1)',
    ]);
  });

  it('reads a branch with the branches before it and its own line, and without its comments', () => {
    const program = [
      'if len(sys.argv) > 1:',
      '    speak(sys.argv[1])',
      'else:',
      '    sys.exit(1)',
      'if rules is None:',
      '    # a missing file: nothing to block',
      '    sys.exit(0) if not RULES.is_file() else sys.exit(1)',
      'if matches(command):',
      "    print('#no entry', file=sys.stderr)  # an error? no: a refusal",
      '    sys.exit(1)',
      'elif risky(command):',
      '    sys.exit(3)',
    ].join('\n');
    expect(exits(program)).toEqual([
      '1 reports sys.exit(1)',
      '0 reports sys.exit(0)',
      '1 reports sys.exit(1)',
      '1 decides sys.exit(1)',
      '3 decides sys.exit(3)',
    ]);
  });

  it('reads no exit in a comment or a string, nor a method or a function of the program named exit', () => {
    const program = [
      '# if blocked: sys.exit(1)',
      "msg = 'if blocked: sys.exit(1)'",
      'if blocked:',
      '    self.exit(1)',
      '    runner.sys.exit(1)',
    ].join('\n');
    expect(exits(program)).toEqual([]);
    expect(exits('def exit(code):\n    pass\nif blocked:\n    exit(1)')).toEqual([]);
  });

  it('finds the block of an exit past a bracket continued at a lesser indentation', () => {
    const program = ['if dangerous:', '    result = {', "'decision': 'block',", '}', '    sys.exit(1)'].join('\n');
    expect(exits(program)).toEqual(['1 decides sys.exit(1)']);
  });
});
