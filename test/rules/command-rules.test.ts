import commandCustom from '../../rules/command-custom/index.js';
import commandRmRf from '../../rules/command-rm-rf/index.js';
import commandSqlite3 from '../../rules/command-sqlite3/index.js';
import commandSudo from '../../rules/command-sudo/index.js';
import commandChmod777 from '../../rules/command-chmod-777/index.js';
import commandChownRoot from '../../rules/command-chown-root/index.js';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/engine/config.js';
import { lintInputs } from '../../src/engine/lint.js';
import { ruleTester, wrapScript } from '../helpers/rule-tester.js';

ruleTester(commandRmRf, {
  accept: [
    '# rm -rf is forbidden here\necho done',
    'echo "never run rm -rf /"',
    "echo 'rm -rf'",
    'rm -f ./out.log',
    'rm -r ./empty-dir',
    'rm --recursive --verbose ./empty-dir',
    'cat <<EOF\nrm -rf /\nEOF',
    "bash -c 'echo rm -rf'",
    'bash ./cleanup.sh <<EOF\nrm -rf /\nEOF',
    "find . -exec echo rm -rf {} ';'",
    "trap 'echo rm -rf' EXIT",
    'trap - EXIT',
    'trap -p EXIT',
    // An option whose value is optional takes it only after `=`: the next word is the command.
    'xargs --replace echo rm -rf',
    'sudo -u root -- echo rm -rf',
    { name: 'rm -rf in a container with no host path mounted', code: 'docker run --rm alpine rm -rf /tmp/x' },
    { name: 'rm -rf in a container with a named volume', code: 'docker run --rm -v cache:/c alpine rm -rf /c' },
    { name: 'rm -rf in a running container (its mounts are not written here)', code: 'docker exec app rm -rf /srv/tmp' },
    { name: 'a variable of options that do not force', code: 'F=-r\nrm $F ./x' },
    { name: 'a variable whose value the script does not know', code: 'F=-rf\nF=$(cat opts)\nrm $F ./x' },
    { name: 'a function given no options', code: 'del() { rm "$@"; }\ndel ./x' },
    { name: 'an inline program that prints the words', code: 'python3 -c \'print("use rmtree with care")\'' },
    { name: 'an inline program that removes one file', code: "node -e \"require('fs').rmSync('./out.json')\"" },
    { name: 'find -delete of the files a test picks', code: "find . -name '*.tmp' -delete" },
    { name: 'find -delete of old files', code: 'find /tmp/cache -type f -mmin +60 -delete' },
    { name: 'find -exec rm of the files a test picks', code: "find . -name '*.log' -exec rm -f {} +" },
    { name: 'find -exec of another command', code: 'find . -type f -exec grep -l rm {} +' },
    { name: 'rsync without --delete', code: 'rsync -a ./dist/ /tmp/out/' },
    { name: 'rsync --delete as a dry run', code: 'rsync -avn --delete ./dist/ /tmp/out/' },
    { name: 'a substitution printing more than one word', code: '$(echo rm -i) ./x' },
    {
      name: 'awk printing the words, and a system() string with an escape it does not read',
      code: 'awk \'{ print "rm -rf x" } END { system("echo \\"rm -rf\\"") }\' f',
    },
    { name: 'source <(a command that is not a writer)', code: 'source <(./gen-env.sh)' },
    { name: 'a substitution printing a word that is not the command', code: 'echo $(echo rm) -rf' },
  ],
  reject: [
    { code: 'rm -rf "$WORKDIR"', errors: [{ messageId: 'rmRf', line: 1, column: 1, endLine: 1, endColumn: 18 }] },
    { code: 'rm -r -f x', errors: [{ line: 1, column: 1 }] },
    { code: 'rm --recursive --force x', errors: [{ line: 1, column: 1 }] },
    { code: 'rm -fR x', errors: [{ line: 1, column: 1 }] },
    { name: 'long options abbreviated, as getopt_long takes them', code: 'rm --recur --forc x', errors: [{ line: 1, column: 1 }] },
    { name: 'shortest unambiguous long options', code: 'rm --r --f x', errors: [{ line: 1, column: 1 }] },
    { name: 'inside $(...)', code: 'echo "$(rm -rf /tmp/x)"', errors: [{ line: 1, column: 9, endColumn: 22 }] },
    { name: 'in a pipeline and && list', code: 'ls | rm -rf x && echo ok', errors: [{ line: 1, column: 6 }] },
    { name: 'in a subshell', code: '(cd /tmp && rm -rf build)', errors: [{ line: 1, column: 13 }] },
    { name: 'in a function', code: 'cleanup() {\n  rm -rf "$1"\n}\ncleanup x', errors: [{ line: 2, column: 3 }] },
    { name: 'behind sudo', code: 'sudo -u root rm -rf /var/x', errors: [{ line: 1, column: 14 }] },
    { name: 'behind sudo with a long option and its value', code: 'sudo --user root rm -rf /var/x', errors: [{ line: 1, column: 18 }] },
    { name: 'behind sudo with an abbreviated long option', code: 'sudo --us root rm -rf x', errors: [{ line: 1, column: 16 }] },
    { name: 'behind sudo with short options clustered before a value', code: 'sudo -Eu root rm -rf x', errors: [{ line: 1, column: 15 }] },
    { name: "in env -S's split string", code: "env -S 'rm -rf x'", errors: [{ line: 1, column: 9, endColumn: 17 }] },
    { name: 'behind env --chdir', code: 'env --chdir /tmp rm -rf x', errors: [{ line: 1, column: 18 }] },
    { name: 'behind nice --adjustment', code: 'nice --adjustment 5 rm -rf x', errors: [{ line: 1, column: 21 }] },
    { name: 'behind xargs --max-args', code: 'ls | xargs --max-args 1 rm -rf', errors: [{ line: 1, column: 25 }] },
    {
      name: 'behind the tree-sitter-bash misparse of a 3-stage pipeline',
      code: 'a | b | c\nrm -rf x && y',
      errors: [{ line: 2, column: 1, endColumn: 9 }],
    },
    {
      name: 'misparse inside a longer script',
      code: 'echo start\ncat f | grep x | sort\nrm -rf "$DIR" && echo gone\n',
      errors: [{ line: 3, column: 1 }],
    },
    { name: 'nested lifecycle hook', hook: 'lifecycle.cleanup', code: 'rm -rf ./tmp', errors: [{ line: 1, column: 1, endColumn: 13 }] },
    // Text handed to a shell is a script: the finding is where the command is written inside it.
    { name: 'inside bash -c', code: "bash -c 'rm -rf /tmp/x'", errors: [{ line: 1, column: 10, endColumn: 23 }] },
    {
      name: 'inside sh -c in double quotes',
      code: 'echo go\nsh -c "cd /w && rm -rf \\"$DIR\\""',
      errors: [{ line: 2, column: 17, endColumn: 32 }],
    },
    { name: 'inside eval', code: "eval 'rm -rf ./build'", errors: [{ line: 1, column: 7, endColumn: 21 }] },
    // What a process substitution prints, sourced or run; awk's system(); script -c.
    { name: 'source <(echo …)', code: "source <(echo 'rm -rf ./w')", errors: [{ line: 1, column: 16, endColumn: 26 }] },
    { name: 'bash <(printf …)', code: "bash <(printf 'rm -rf ./w\\n')", errors: [{ line: 1, column: 16, endColumn: 26 }] },
    { name: "awk's system()", code: 'awk \'BEGIN { system("rm -rf ./f") }\'', errors: [{ line: 1, column: 22, endColumn: 32 }] },
    { name: 'script -qc', code: "script -qc 'rm -rf ./i' /dev/null", errors: [{ line: 1, column: 13, endColumn: 23 }] },
    { name: "inside the user's $SHELL -lc", code: "$SHELL -lc 'rm -rf ./x'", errors: [{ line: 1, column: 13, endColumn: 23 }] },
    { name: 'in a here-document fed to bash', code: "bash <<'EOF'\n  rm -rf q\nEOF", errors: [{ line: 2, column: 3, endColumn: 11 }] },
    { name: 'run by find -exec', code: 'find . -name x -exec rm -rf {} +', errors: [{ line: 1, column: 22, endColumn: 31 }] },
    { name: 'behind busybox', code: 'busybox rm -rf z', errors: [{ line: 1, column: 9 }] },
    { name: 'named by a variable set once', code: 'RM="rm -rf"\n$RM "$DIR"', errors: [{ line: 2, column: 1, endColumn: 11 }] },
    { name: 'as a coprocess', code: 'coproc rm -rf z', errors: [{ line: 1, column: 8 }] },
    { name: 'behind watch', code: 'watch -n 1 rm -rf z', errors: [{ line: 1, column: 12 }] },
    { name: 'in the text watch runs with sh -c', code: "watch -n 5 'rm -rf z'", errors: [{ line: 1, column: 13, endColumn: 21 }] },
    { name: "in flock's -c command", code: "flock /tmp/lock -c 'rm -rf z'", errors: [{ line: 1, column: 21, endColumn: 29 }] },
    { name: 'behind flock and its lock file', code: 'flock -w 5 /tmp/lock rm -rf z', errors: [{ line: 1, column: 22 }] },
    // find -delete with no test that picks files deletes the whole tree, as rm -rf does.
    {
      name: 'find -delete of a tree',
      code: 'find ./build -delete',
      errors: [{ messageId: 'findDelete', line: 1, column: 1, endColumn: 21 }],
    },
    {
      name: 'find -mindepth 1 -delete',
      code: 'find "$DIR" -mindepth 1 -type f -delete',
      errors: [{ messageId: 'findDelete', line: 1, column: 1 }],
    },
    // A command run through a variable or a function is the command it runs, reported where it is written.
    { name: 'named by a default', code: '"${RM:-rm}" -rf ./x', errors: [{ line: 1, column: 1, endColumn: 20 }] },
    { name: 'options from a default', code: 'rm ${FLAGS:--rf} ./x', errors: [{ line: 1, column: 1, endColumn: 21 }] },
    // A substitution that prints one static word is that word: `$(echo rm)` runs rm.
    { name: 'named by $(echo rm)', code: '$(echo rm) -rf ./x', errors: [{ messageId: 'rmRf', line: 1, column: 1, endColumn: 19 }] },
    // A container that bind-mounts a host path deletes the host's files through the mount.
    {
      name: 'rm -rf in a container that mounts the workspace',
      code: 'docker run --rm -v "$PWD:/w" alpine rm -rf /w/build',
      errors: [{ messageId: 'rmRf', line: 1, column: 37, endColumn: 52 }],
    },
    {
      name: 'rm -rf under sudo in a container mounted with --volume=',
      code: 'podman run --volume="$(pwd)":/src node:20 sudo rm -rf /src/dist',
      errors: [{ messageId: 'rmRf', line: 1, column: 48, endColumn: 64 }],
    },
    {
      name: 'named by a quoted $(echo rm)',
      code: '"$(echo rm)" -rf /',
      errors: [{ messageId: 'rmRf', line: 1, column: 1, endColumn: 19 }],
    },
    {
      name: 'named by a quoted word joined with a substitution',
      code: '"r$(printf m)" -rf ./x',
      errors: [{ messageId: 'rmRf', line: 1, column: 1 }],
    },
    { name: 'named by backquoted printf', code: '`printf /bin/rm` -rf ./x', errors: [{ line: 1, column: 1 }] },
    { name: 'a variable set from $(echo rm)', code: 'X=$(echo rm)\n$X -rf ./build', errors: [{ line: 2, column: 1, endColumn: 15 }] },
    { name: 'options printed by $(echo -rf)', code: 'rm "$(printf -- -rf)" ./x', errors: [] },
    // find -exec rm with no test deletes every file below its start; `-exec rm -rf` is rmRf at the rm.
    {
      name: 'find -exec rm -f of every file',
      code: 'find . -type f -exec rm -f {} +',
      errors: [{ messageId: 'findExecRm', line: 1, column: 1, endColumn: 32 }],
    },
    { name: 'find -execdir /bin/rm', code: 'find "$D" -execdir /bin/rm {} \\;', errors: [{ messageId: 'findExecRm', line: 1, column: 1 }] },
    {
      name: 'find -exec rm -rf: one finding, at the rm',
      code: 'find . -exec rm -rf {} +',
      errors: [{ messageId: 'rmRf', line: 1, column: 14 }],
    },
    {
      name: 'rsync --delete, a warning',
      code: 'rsync -a --delete /tmp/empty/ ./',
      errors: [{ messageId: 'rsyncDelete', severity: 'warning', line: 1, column: 1, endColumn: 33 }],
    },
    { name: 'rsync --delete-after', code: 'rsync -r --delete-after a/ b/', errors: [{ messageId: 'rsyncDelete', line: 1, column: 1 }] },
    // An inline program that deletes a tree is rm -rf in another language.
    {
      name: 'python3 -c shutil.rmtree',
      code: 'python3 -c "import shutil; shutil.rmtree(\'./build\')"',
      errors: [{ messageId: 'inlineRmRf', line: 1, column: 1, endColumn: 53 }],
    },
    {
      name: 'node -e rmSync recursive',
      code: "node -e \"require('fs').rmSync('b', {recursive: true, force: true})\"",
      errors: [{ messageId: 'inlineRmRf', line: 1, column: 1 }],
    },
    {
      name: 'ruby FileUtils.rm_rf',
      code: 'ruby -e \'require "fileutils"; FileUtils.rm_rf("b")\'',
      errors: [{ messageId: 'inlineRmRf', line: 1, column: 1 }],
    },
    {
      name: 'perl remove_tree',
      code: 'perl -MFile::Path=remove_tree -e \'remove_tree("b")\'',
      errors: [{ messageId: 'inlineRmRf', line: 1, column: 1 }],
    },
    {
      name: 'rm -rf in os.system',
      code: 'python3 -c \'import os; os.system("rm -rf ./b")\'',
      errors: [{ messageId: 'inlineRmRf', line: 1, column: 1 }],
    },
    { name: 'named by a variable', code: 'RM="rm -rf"\n$RM ./build', errors: [{ line: 2, column: 1, endColumn: 12 }] },
    { name: 'named by an array', code: 'cmd=(rm -rf ./build)\n"${cmd[@]}"', errors: [{ line: 2, column: 1, endColumn: 12 }] },
    { name: 'options from a variable', code: 'OPTS="-r -f"\nrm $OPTS ./x', errors: [{ line: 2, column: 1, endColumn: 13 }] },
    {
      name: 'options from one of two values',
      code: 'if [ -n "$F" ]; then O=-rf; else O=-r; fi\nrm $O x',
      errors: [{ line: 2, column: 1 }],
    },
    {
      name: 'run by a function that runs its arguments',
      code: 'run() { "$@"; }\nrun rm -rf ./x',
      errors: [{ line: 2, column: 1, endColumn: 15 }],
    },
    {
      name: 'options given to a function that passes them on',
      code: 'del() { rm "$@"; }\ndel -rf ./x',
      errors: [{ line: 2, column: 1, endColumn: 12 }],
    },
    {
      name: 'behind xargs and a long option with its value in the next word',
      code: 'xargs --max-procs 4 rm -rf',
      errors: [{ line: 1, column: 21 }],
    },
    {
      name: 'behind sudo -Eu: the last letter of a cluster takes the next word',
      code: 'sudo -Eu root rm -rf z',
      errors: [{ line: 1, column: 15 }],
    },
    { name: 'behind xargs -0I {}', code: 'xargs -0I {} rm -rf {}', errors: [{ line: 1, column: 14 }] },
    { name: 'behind sudo --user root', code: 'sudo --user root rm -rf z', errors: [{ line: 1, column: 18 }] },
    { name: 'behind nice --adjustment 5', code: 'nice --adjustment 5 rm -rf z', errors: [{ line: 1, column: 21 }] },
    { name: 'behind GNU parallel', code: 'ls | parallel -j 4 rm -rf {}', errors: [{ line: 1, column: 20 }] },
    { name: 'behind chronic', code: 'chronic rm -rf z', errors: [{ line: 1, column: 9 }] },
    { name: 'behind gtimeout', code: 'gtimeout 5 rm -rf z', errors: [{ line: 1, column: 12 }] },
    { name: 'behind taskset and its CPU list', code: 'taskset -c 0 rm -rf z', errors: [{ line: 1, column: 14 }] },
    { name: 'behind strace -o', code: 'strace -fo /dev/null rm -rf z', errors: [{ line: 1, column: 22 }] },
    { name: 'behind fakeroot --', code: 'fakeroot -- rm -rf z', errors: [{ line: 1, column: 13 }] },
    { name: 'behind eatmydata', code: 'eatmydata rm -rf z', errors: [{ line: 1, column: 11 }] },
    { name: 'behind systemd-run', code: 'systemd-run --user --scope -p Nice=5 rm -rf z', errors: [{ line: 1, column: 38 }] },
    { name: "in a trap's action", code: "D=$(mktemp -d)\ntrap 'rm -rf ~/w' EXIT", errors: [{ line: 2, column: 7, endColumn: 17 }] },
    { name: 'named by ANSI-C escapes', code: "$'\\x72m' -rf z", errors: [{ line: 1, column: 1, endColumn: 15 }] },
    { name: 'named and flagged by octal ANSI-C escapes', code: "echo a; $'\\162\\155' $'-\\x72\\146' z", errors: [{ line: 1, column: 9 }] },
    {
      name: 'behind env named by its path, after an assignment',
      code: '/usr/bin/env -i PATH=/bin rm -rf z',
      errors: [{ line: 1, column: 27 }],
    },
    {
      name: 'a backslashed name on the line after a word (tree-sitter-bash starts that word at the line break)',
      code: 'echo a\n\\rm -rf x',
      errors: [{ line: 2, column: 1, endColumn: 10 }],
    },
  ],
});

ruleTester(commandSqlite3, {
  accept: ['/sqlite-memory retrieve --key k --level swarm', 'echo "sqlite3 is not used"'],
  reject: [
    { code: 'sqlite3 db.sqlite "SELECT 1"', errors: [{ messageId: 'direct', severity: 'warning', line: 1, column: 1 }] },
    { code: 'sqlite3 db.sqlite "drop table memory"', errors: [{ messageId: 'drop', severity: 'error', line: 1, column: 1 }] },
    { name: 'DROP in a here-document', code: 'sqlite3 db <<SQL\nDROP TABLE x;\nSQL', errors: [{ messageId: 'drop', line: 1, column: 1 }] },
  ],
});

ruleTester(commandSudo, {
  accept: [
    'echo sudo',
    'redis-cli ping',
    'command -v sudo >/dev/null && echo has-sudo',
    'command -V doas',
    'docker run --rm -v "$PWD:/w" alpine ls /',
    'docker exec c ls / /tmp',
    'docker run --mount type=bind,source=/tmp/x,target=/x alpine',
  ],
  reject: [
    { code: 'if true; then sudo apt-get install -y jq; fi', errors: [{ line: 1, column: 15 }] },
    { name: "systemd's run0", code: 'run0 systemctl restart x', errors: [{ line: 1, column: 1, endColumn: 25 }] },
    { name: 'sudoedit', code: 'sudoedit /etc/hosts', errors: [{ line: 1, column: 1 }] },
    { name: 'named by a variable', code: 'SUDO="sudo -E"\n$SUDO npm i -g x', errors: [{ line: 2, column: 1, endColumn: 17 }] },
    // A privileged container, or one given the host's root, is root on the host.
    {
      name: 'docker run --privileged',
      code: 'docker run --rm --privileged alpine sh',
      errors: [{ messageId: 'container', line: 1, column: 1, endColumn: 39 }],
    },
    {
      name: 'the host root mounted',
      code: 'podman run -v /:/host alpine cat /host/etc/shadow',
      errors: [{ messageId: 'container', line: 1, column: 1 }],
    },
    { name: '--volume=/:', code: 'docker run --volume=/:/h alpine', errors: [{ messageId: 'container', line: 1, column: 1 }] },
    {
      name: '--mount with source=/',
      code: 'docker run --mount type=bind,source=/,target=/h alpine',
      errors: [{ messageId: 'container', line: 1, column: 1 }],
    },
    { name: 'all capabilities', code: 'docker run --cap-add=ALL alpine', errors: [{ messageId: 'container', line: 1, column: 1 }] },
  ],
});

ruleTester(commandChmod777, {
  accept: [
    'chmod 755 x',
    'chmod u+x run.sh',
    'chmod 0644 f',
    'chmod 775 d',
    'chmod g+w f',
    'chmod o-w f',
    'chmod a-w f',
    'chmod +w f',
    'chmod u=rwx,go=rx f',
    'mkdir -m 755 d',
    'mkdir -p 777',
    'install -m 0755 a b',
  ],
  reject: [
    { code: 'chmod -R 777 ./shared', errors: [{ line: 1, column: 1 }] },
    { code: 'chmod a+rwx f', errors: [{ line: 1, column: 1 }] },
    // Any mode with the others' write bit is world-writable, whichever way it is spelt.
    { name: 'rw for everyone', code: 'chmod 666 f', errors: [{ line: 1, column: 1, endColumn: 12 }] },
    { name: 'sticky and world-writable', code: 'chmod 1777 d', errors: [{ line: 1, column: 1 }] },
    { name: 'leading zeros', code: 'chmod 00777 d', errors: [{ line: 1, column: 1 }] },
    { name: 'others write only', code: 'chmod 757 d', errors: [{ line: 1, column: 1 }] },
    { name: 'a=rwx', code: 'chmod a=rwx d', errors: [{ line: 1, column: 1 }] },
    { name: 'go+w', code: 'chmod go+w d', errors: [{ line: 1, column: 1 }] },
    { name: 'a+w', code: 'chmod a+w d', errors: [{ line: 1, column: 1 }] },
    { name: 'o+rw', code: 'chmod o+rw d', errors: [{ line: 1, column: 1 }] },
    { name: 'one clause of several', code: 'chmod u=rwx,g=rwx,o=rwx d', errors: [{ line: 1, column: 1 }] },
    { name: 'mkdir -m', code: 'mkdir -m 777 ./shared', errors: [{ messageId: 'modeOption', line: 1, column: 1, endColumn: 22 }] },
    { name: 'mkdir -pm attached', code: 'mkdir -pm777 ./shared', errors: [{ messageId: 'modeOption', line: 1, column: 1 }] },
    { name: 'install --mode=', code: 'install --mode=a+w a b', errors: [{ messageId: 'modeOption', line: 1, column: 1 }] },
  ],
});

ruleTester(commandChownRoot, {
  accept: ['chown "$USER" f', 'chown rooted f'],
  reject: [{ code: 'chown root:root f', errors: [{ line: 1, column: 1 }] }],
});

// A project's own forbidden commands are matched as the built-in ones are, in text handed to a shell too.
describe('command-custom', () => {
  const lint = async (script: string): Promise<string[]> => {
    const config = defaultConfig();
    config.forbiddenCommands = [{ commands: ['kubectl'], argument: '^delete$', message: 'no deletes.' }];
    const [result] = await lintInputs([{ filePath: '/virtual/case.md', text: wrapScript(script) }], { rules: [commandCustom], config });
    return result!.diagnostics.map((d) => `${d.line}:${d.column}-${d.endColumn} ${d.message}`);
  };
  it('finds the command in the hook and inside sh -c, at its place', async () => {
    expect(await lint('kubectl delete pod x')).toEqual(['6:5-25 Disallowed `kubectl`: no deletes.']);
    expect(await lint("sh -c 'kubectl delete pod x'")).toEqual(['6:12-32 Disallowed `kubectl`: no deletes.']);
    expect(await lint("bash -c 'kubectl get pods'")).toEqual([]);
  });
});

// An exec-form Claude Code handler runs its argv without a shell; the command it runs is still read.
describe('exec-form Claude Code handlers', () => {
  const lint = async (handler: string): Promise<string[]> => {
    const text = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [\n${handler}\n]}]}}\n`;
    const [result] = await lintInputs([{ filePath: '/virtual/project/.claude/settings.json', text }], {
      rules: [commandRmRf, commandSudo],
      config: defaultConfig(),
    });
    return result!.diagnostics.map((d) => `${d.ruleId} ${d.line}:${d.column}-${d.endLine}:${d.endColumn}`);
  };
  it('finds the command and its flags in command and args, spanning both', async () => {
    expect(await lint('{"type": "command", "command": "rm", "args": ["-rf", "/tmp/x"]}')).toEqual(['command-rm-rf 2:32-2:63']);
  });
  it('finds what a shell given the text with -c runs, at its place in the argument', async () => {
    expect(await lint('{"type": "command", "command": "bash", "args": ["-c", "sudo rm -rf ./x"]}')).toEqual([
      'command-sudo 2:56-2:71',
      'command-rm-rf 2:61-2:71',
    ]);
  });
  it('places a finding in an argument with JSON escapes, and one in an argument with a quote on the whole argv', async () => {
    expect(await lint('{"type": "command", "command": "sh", "args": ["-c", "echo \\"a\\" && rm -rf ./x"]}')).toEqual([
      'command-rm-rf 2:68-2:78',
    ]);
    expect(await lint(`{"type": "command", "command": "sh", "args": ["-c", "echo 'a' && rm -rf ./x"]}`)).toEqual([
      'command-rm-rf 2:32-2:78',
    ]);
  });
  it('reads a quote in an argument as part of it', async () => {
    expect(await lint(`{"type": "command", "command": "echo", "args": ["it's", "rm -rf x"]}`)).toEqual([]);
  });
});
