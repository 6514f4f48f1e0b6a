import { describe, expect, it } from 'vitest';
import { programInputFields } from '../../src/shell/program-fields.js';
import { pythonShellSinks } from '../../src/shell/python-shell-sinks.js';

/** Each sink as `call:text` (the tainted text it points at). */
const sinks = (program: string): string[] => pythonShellSinks(program).map((s) => `${s.call}:${program.slice(s.start, s.end)}`);

const PARSE = 'import json, os, subprocess, sys\ndata = json.load(sys.stdin)\n';

describe('pythonShellSinks', () => {
  it('text from the stdin JSON in a command a shell parses, however it is spliced in', () => {
    const program = [
      PARSE,
      "cmd = data['tool_input']['command']",
      "path = data.get('tool_input', {}).get('file_path', '')",
      'os.system(f"git add {path}")',
      "subprocess.run('echo ' + cmd, shell=True)",
      'subprocess.check_output("wc -l %s" % path, shell = True, text=True)',
      'os.popen("cat {}".format(path))',
      'subprocess.getoutput(f"ls {data[\'cwd\']}")',
      "subprocess.Popen(args=f'grep x {path}', shell=True)",
      'subprocess.run([f"rm {path}"], shell=True)',
      "os.system('ls ' + json.load(sys.stdin)['cwd'])",
      "subprocess.run(['bash', '-c', f'git add {path}'])",
      "subprocess.check_call(args=['/bin/sh', '-ec', 'echo ' + path])",
      "subprocess.run(['bash', '-c', 'git add \"$1\"', '_', path])",
      'import asyncio',
      'proc = await asyncio.create_subprocess_shell(f"cat {path}")',
      "safe = await asyncio.create_subprocess_exec('cat', path)",
    ].join('\n');
    expect(sinks(program)).toEqual([
      'os.system:path',
      'subprocess.run:cmd',
      'subprocess.check_output:path',
      'os.popen:path',
      'subprocess.getoutput:data',
      'subprocess.Popen:path',
      'subprocess.run:path',
      'os.system:json.load(sys.stdin)',
      'subprocess.run:path',
      'subprocess.check_call:path',
      'asyncio.create_subprocess_shell:path',
    ]);
  });

  it('names from imports, aliases and loops; names reassigned from the input later in the file', () => {
    const program = [
      'import json, sys',
      'import subprocess as sp',
      'from os import system as run_shell',
      'from subprocess import (check_call, getoutput)',
      'def main():',
      '    payload = json.loads(sys.stdin.read())',
      "    for f in payload['tool_input']['paths']:",
      '        sp.call(f"touch {f}", shell=True)',
      '    target = payload["cwd"]',
      '    run_shell("cd " + target)',
      '    check_call(f"ls {target}", shell=True)',
      '    getoutput(target)',
    ].join('\n');
    expect(sinks(program)).toEqual(['sp.call:f', 'run_shell:target', 'check_call:target', 'getoutput:target']);
  });

  it("one level through the file's own functions: an argument that reaches a shell in them, by position or keyword", () => {
    const program = [
      PARSE,
      'def sh(cmd, check=True):',
      '    full = "set -e; " + cmd',
      '    return subprocess.run(full, shell=True, check=check)',
      'def quiet(cmd):',
      "    subprocess.run(['echo', cmd])",
      "path = data['tool_input']['file_path']",
      'sh(f"git add {path}")',
      'sh(cmd=f"ls {path}")',
      'sh("git status")',
      'quiet(path)',
      'sh("git status", check=path)',
    ].join('\n');
    // Inside `sh`, `full` holds a parameter, not the input: the calls that hand it the input are the sinks.
    expect(sinks(program)).toEqual(['sh:path', 'sh:path']);
  });

  it('no shell, a quoted value, a constant, argv, or a name of another function are not sinks', () => {
    const program = [
      PARSE,
      "path = data['tool_input']['file_path']",
      "subprocess.run(['git', 'add', '--', path])",
      "subprocess.run(f'git add {path}', shell=False)",
      "subprocess.run(f'git add {shlex.quote(path)}', shell=True)",
      "os.system('git status')",
      "subprocess.run(['sh', '-c', 'echo \"$1\"', '_', path], shell=False)",
      'subprocess.run(["echo", path], shell=True)',
      "subprocess.run(['bash', 'x.sh', '-c', path])",
      "subprocess.run(['bash', '-o', 'pipefail', 'x.sh', path])",
      '# os.system(f"rm {path}")',
      'print(f"os.system({path})")',
      'def helper(path):',
      '    os.system(f"cat {path}")',
      'other.system(f"cat {path}")',
    ].join('\n');
    expect(sinks(program)).toEqual([]);
  });

  it('a program that never reads its stdin, or never imports os or subprocess, has no sinks', () => {
    expect(sinks("import os\npath = open('f').read()\nos.system(f'cat {path}')")).toEqual([]);
    expect(sinks(`${PARSE.replace('import json, os, subprocess, sys', 'import json, sys')}system(data['cwd'])`)).toEqual([]);
  });

  it('reads a hostile program in bounded time: a name of a megabyte, calls and comprehensions nested deep', () => {
    // Each pattern starts only where a name starts: one tried at every offset of a long name took time quadratic in it.
    const long = 'a'.repeat(1_000_000);
    expect(sinks(`${PARSE}os.system(${long})\nos.system(x + ${'a.'.repeat(500_000)}b)\n`)).toEqual([]);
    expect(programInputFields('node', `process.stdin;\n${long}\n${long}.push(\n`)).toEqual([]);
    // Calls nested a hundred thousand deep, and comprehensions: brackets are paired once, each search is bounded.
    const deep = 100_000;
    const nested = `${PARSE}x = ${'os.system('.repeat(deep)}data${')'.repeat(deep)}\ny = [${'a for a in ['.repeat(deep)}data${']'.repeat(deep)}]\n`;
    // Past the caps the file is read in part: the thousand outermost calls, whose commands hold no input in their first 2 KB.
    expect(sinks(nested)).toEqual([]);
  });
});
