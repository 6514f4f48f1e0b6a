// Scripts a hook hands to a shell as text are read as scripts: each command found in one must carry
// the words the inner shell would run and the place in the hook's own script where they are written,
// through single quotes, double quotes with escapes, `eval`'s joined words and nested levels.
import { beforeAll, describe, expect, it } from 'vitest';
import { collectCommands } from '../../src/shell/commands.js';
import { nestedCommands } from '../../src/shell/nested.js';
import { loadShellParser, parseShell } from '../../src/shell/parser.js';
import type { Parser } from 'web-tree-sitter';

let parser: Parser;
beforeAll(async () => {
  parser = await loadShellParser();
});

/** Each nested command: how it is run, its words' values, and the script's text at its range and at each word's. */
function nested(script: string): { via: string; words: (string | undefined)[]; at: string; written: string[] }[] {
  const tree = parseShell(parser, script);
  try {
    return nestedCommands(tree, collectCommands(tree.rootNode, script), script).map((c) => ({
      via: c.via,
      words: [c.name, ...c.args].map((w) => w.value),
      at: script.slice(c.start, c.end),
      written: [c.name, ...c.args].map((w) => script.slice(w.start, w.end)),
    }));
  } finally {
    tree.delete();
  }
}

describe('scripts inside a script', () => {
  it('reads bash -c and sh -c with single quotes, at the place inside the quotes', () => {
    expect(nested("bash -c 'rm -rf /tmp/x'")).toEqual([
      { via: 'bash -c', words: ['rm', '-rf', '/tmp/x'], at: 'rm -rf /tmp/x', written: ['rm', '-rf', '/tmp/x'] },
    ]);
    expect(nested("timeout 5 sh -ec 'cd /w && sudo reboot'").map(({ via, words, at }) => ({ via, words, at }))).toEqual([
      { via: 'sh -c', words: ['cd', '/w'], at: 'cd /w' },
      { via: 'sh -c', words: ['sudo', 'reboot'], at: 'sudo reboot' },
      { via: 'sh -c', words: ['reboot'], at: 'reboot' },
    ]);
  });

  it('reads double quotes after their escapes, and maps every word past them', () => {
    const script = 'bash -c "echo \\"done\\" && rm -rf \\$HOME/cache $DIR"';
    const found = nested(script);
    expect(found.map((c) => c.words)).toEqual([
      ['echo', 'done'],
      // `\$HOME` is `$HOME` to the inner shell, which expands it.
      ['rm', '-rf', undefined, undefined],
    ]);
    // The range of `rm …` and of each word is the written text, backslashes included.
    expect(found[1]!.at).toBe('rm -rf \\$HOME/cache $DIR');
    expect(found[1]!.written).toEqual(['rm', '-rf', '\\$HOME/cache', '$DIR']);
  });

  it("joins eval's words with spaces, as eval does", () => {
    expect(nested("eval 'rm -rf' ./build")).toEqual([
      { via: 'eval', words: ['rm', '-rf', './build'], at: "rm -rf' ./build", written: ['rm', '-rf', './build'] },
    ]);
  });

  it('reads su -c and runuser -c', () => {
    expect(nested("su - deploy -c 'rm -rf ~/app'").map((c) => c.words)).toEqual([['rm', '-rf', '~/app']]);
    expect(nested("runuser -u app --command 'shred x'").map((c) => c.words)).toEqual([['shred', 'x']]);
  });

  it('reads a here-document or here-string fed to a shell, not to another command', () => {
    expect(nested("bash <<'EOF'\nrm -rf q\nEOF\n")).toEqual([
      { via: 'a here-document fed to bash', words: ['rm', '-rf', 'q'], at: 'rm -rf q', written: ['rm', '-rf', 'q'] },
    ]);
    expect(nested("sudo sh -s <<< 'mkfs.ext4 /dev/sdb'").map((c) => c.words)).toEqual([['mkfs.ext4', '/dev/sdb']]);
    expect(nested('cat <<EOF\nrm -rf /\nEOF\n')).toEqual([]);
    expect(nested('bash ./setup.sh <<EOF\nrm -rf /\nEOF\n')).toEqual([]);
  });

  it('reads text piped into a shell by echo, printf or cat, when the text is written in the hook', () => {
    expect(nested("echo 'rm -rf /tmp/x' | sh")).toEqual([
      { via: 'echo piped into sh', words: ['rm', '-rf', '/tmp/x'], at: 'rm -rf /tmp/x', written: ['rm', '-rf', '/tmp/x'] },
    ]);
    // echo joins its words with spaces; its options are not text; a shell behind sudo reads the pipe too.
    expect(nested('echo -n rm "-rf /srv" | sudo bash -s')).toEqual([
      { via: 'echo piped into bash', words: ['rm', '-rf', '/srv'], at: 'rm "-rf /srv', written: ['rm', '-rf', '/srv'] },
    ]);
    // printf's escapes map each character back to its place; `%%` is a percent sign.
    const script = "printf 'cd /w\\nshred -u f\\n' | bash";
    expect(nested(script)).toEqual([
      { via: 'printf piped into bash', words: ['cd', '/w'], at: 'cd /w', written: ['cd', '/w'] },
      { via: 'printf piped into bash', words: ['shred', '-u', 'f'], at: 'shred -u f', written: ['shred', '-u', 'f'] },
    ]);
    expect(nested("printf '%s\\n' 'rm -rf a' 'mkfs /dev/sdb' | sh").map((c) => [c.words, c.at])).toEqual([
      [['rm', '-rf', 'a'], 'rm -rf a'],
      [['mkfs', '/dev/sdb'], 'mkfs /dev/sdb'],
    ]);
    expect(nested("cat <<'EOF' | sh\nrm -rf q\nEOF\n")).toEqual([
      { via: 'cat piped into sh', words: ['rm', '-rf', 'q'], at: 'rm -rf q', written: ['rm', '-rf', 'q'] },
    ]);
    expect(nested("cat <<< 'reboot' | sh 2>&1").map((c) => c.words)).toEqual([['reboot']]);
    // Not read: text built at run time, escapes echo reads differently in bash and dash, other printf formats,
    // a writer that is not the stage just before the shell, a cat of files, a shell that runs a file.
    expect(nested('echo "$CMD" | sh')).toEqual([]);
    expect(nested("echo 'rm\\tx' | sh")).toEqual([]);
    expect(nested("printf '%d' 5 | sh")).toEqual([]);
    expect(nested("printf 'rm %s' x | sh")).toEqual([]);
    expect(nested("echo 'rm -rf x' | tee log | sh")).toEqual([]);
    expect(nested('cat cmds.txt | sh')).toEqual([]);
    expect(nested("echo 'rm -rf x' | sh ./run.sh")).toEqual([]);
    expect(nested("echo 'rm -rf x' | grep rm")).toEqual([]);
  });

  it("reads env -S's string of plain words, which env splits as the shell does, then its other arguments", () => {
    expect(nested("env -S 'rm -rf x'")).toEqual([
      { via: 'env -S', words: ['rm', '-rf', 'x'], at: 'rm -rf x', written: ['rm', '-rf', 'x'] },
    ]);
    expect(nested('env -i -S"rm -rf" ./build')).toEqual([
      { via: 'env -S', words: ['rm', '-rf', './build'], at: 'rm -rf" ./build', written: ['rm', '-rf', './build'] },
    ]);
    expect(nested("env -u HOME --split-string='sudo reboot'").map((c) => c.words)).toEqual([['sudo', 'reboot'], ['reboot']]);
    expect(nested("env -iS 'shred f'").map((c) => c.words)).toEqual([['shred', 'f']]);
    // The string's own options are env's: `env -S '-i rm -rf x'` runs `rm -rf x` in an empty environment.
    expect(nested("env -S '-i rm -rf x'").map((c) => [c.words, c.at])).toEqual([
      [['env', '-i', 'rm', '-rf', 'x'], "'-i rm -rf x"],
      [['rm', '-rf', 'x'], 'rm -rf x'],
    ]);
    // Quotes, escapes, `${VAR}`, `#` and operators are env's own syntax, not the shell's; a text built at run time is unknown.
    expect(nested("env -S 'echo a; rm -rf /'")).toEqual([]);
    expect(nested('env -S "$CMD" x')).toEqual([]);
    expect(nested("env FOO=1 -S 'rm -rf x'")).toEqual([]);
  });

  it("reads watch's command, which it runs with sh -c, and flock's -c command", () => {
    expect(nested("watch 'rm -rf x'")).toEqual([{ via: 'watch', words: ['rm', '-rf', 'x'], at: 'rm -rf x', written: ['rm', '-rf', 'x'] }]);
    // watch joins its words with spaces: `;` in a quoted word is an operator to sh.
    expect(nested("watch -n 1 df -h ';' shred f").map((c) => c.words)).toEqual([
      ['df', '-h'],
      ['shred', 'f'],
    ]);
    // Unquoted words are the hook's own command already; with -x (--exec) watch runs the words as they are.
    expect(nested('watch -n 1 rm -rf z')).toEqual([]);
    expect(nested("watch -x 'rm -rf x'")).toEqual([]);
    expect(nested("watch --exec 'rm -rf x'")).toEqual([]);
    expect(nested("flock -w 5 /tmp/lock -c 'rm -rf x'")).toEqual([
      { via: 'flock -c', words: ['rm', '-rf', 'x'], at: 'rm -rf x', written: ['rm', '-rf', 'x'] },
    ]);
    expect(nested("flock -n /tmp/lock --command 'shred f'").map((c) => c.words)).toEqual([['shred', 'f']]);
    // `-c` must follow the file, with exactly one word after it; otherwise flock runs nothing or a command `-c`… does not exist.
    expect(nested("flock /tmp/lock -c 'rm -rf x' y")).toEqual([]);
    expect(nested("flock /tmp/lock echo -c 'rm -rf x'")).toEqual([]);
  });

  it('reads scripts inside scripts, to a depth', () => {
    expect(nested(`bash -c "sh -c 'rm -rf x'"`).map((c) => [c.via, c.at])).toEqual([
      ['bash -c', "sh -c 'rm -rf x'"],
      ['sh -c', 'rm -rf x'],
    ]);
    // `eval 'eval '"'"'…'"'"''`, n levels deep.
    const deep = (levels: number): string => {
      let script = 'rm -rf x';
      for (let i = 0; i < levels; i++) script = `eval '${script.replaceAll("'", `'"'"'`)}'`;
      return script;
    };
    expect(nested(deep(4)).filter((c) => c.words[0] === 'rm')).toEqual([expect.objectContaining({ via: 'eval', at: 'rm -rf x' })]);
    expect(nested(deep(5)).some((c) => c.words[0] === 'rm')).toBe(false);
  });

  it('reads a command named by a variable the script sets once, to plain words, before it', () => {
    expect(nested('RM="rm -rf"\n$RM ./build')).toEqual([
      { via: 'the value of $RM', words: ['rm', '-rf', './build'], at: '$RM ./build', written: ['$RM', '$RM', './build'] },
    ]);
    expect(nested('cmd=sudo; "${cmd}" reboot').map((c) => c.words)).toEqual([['sudo', 'reboot'], ['reboot']]);
    // Not a constant: set twice, by a loop or by read, after the use, or to more than plain words.
    expect(nested('RM=rm; RM=ls; $RM -rf x')).toEqual([]);
    expect(nested('for RM in rm ls; do $RM -rf x; done')).toEqual([]);
    expect(nested('RM=rm; read -r RM; $RM -rf x')).toEqual([]);
    expect(nested('$RM -rf x; RM=rm')).toEqual([]);
    expect(nested("X='echo a; rm -rf /'; $X")).toEqual([]);
    // Quoted, the value is one word: "rm -rf" is no command.
    expect(nested('RM="rm -rf"; "$RM" x')).toEqual([]);
  });

  it("reads $'…' text with its escapes decoded, each character at its escape", () => {
    expect(nested("bash -c $'cd /w\\n\\x72m -rf \\'x y\\''")).toEqual([
      { via: 'bash -c', words: ['cd', '/w'], at: 'cd /w', written: ['cd', '/w'] },
      { via: 'bash -c', words: ['rm', '-rf', 'x y'], at: "\\x72m -rf \\'x y\\'", written: ['\\x72m', '-rf', "\\'x y\\'"] },
    ]);
    expect(nested("eval $'sudo\\treboot'").map((c) => c.words)).toEqual([['sudo', 'reboot'], ['reboot']]);
  });

  it('leaves what is built at run time, what does not parse, and what the hook already runs itself', () => {
    expect(nested('bash -c "$CMD"')).toEqual([]);
    expect(nested('bash -c $CMD')).toEqual([]);
    expect(nested("bash -c 'if then rm -rf x'")).toEqual([]);
    // The substitution runs in the hook's own shell: its commands are the hook's, not found twice.
    expect(nested('eval "$(ssh-agent -s)"')).toEqual([]);
  });
});
