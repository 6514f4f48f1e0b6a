import rule from '../../rules/injection-eval/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    '# eval "$TASK" would be dangerous\necho done',
    'echo "never eval $TASK"',
    'echo \'bash -c "$X"\'',
    'eval "set -- a b"',
    'bash -c \'echo "$1"\' _ "$TASK"',
    'bash ./scripts/check.sh "$TASK"',
    'source ./lib/env.sh',
    'source <(printf "%s\\n" "export A=1")',
    'bash <(printf "%s\\n" "echo hi")',
    'ssh -o ConnectTimeout=5 ci@build uptime',
    // The piped text is not the script: arguments to it (xargs), a script file, an inline script.
    'ls ./scripts | xargs bash',
    'printf "%s" "$TASK" | bash ./process.sh',
    'echo "$TASK" | bash -c \'cat > task.txt\'',
    'echo "$TASK" | source ./env.sh',
    'ssh ci@build "cat >> log" < "$REPORT"',
    'docker exec app sh -c \'echo "$1"\' _ "$TASK"',
    'docker ps --filter "name=$APP"',
    'diff <(curl -s https://example.com/a) ./a',
    'printf "%s" "$TASK" | grep -q foo',
    'find . -name "*.yml" | xargs -I {} echo {}',
    "timeout 3 bash -c 'redis-cli ping'",
    // Text handed to a shell that evaluates only what is written in it.
    'bash -c \'eval "set -- a b"; echo "$1"\' _ x',
    'sudo sh -c \'bash -c "ls -la"\'',
    // An interpreter given a program of its own, or the author's own text on stdin.
    "echo 'print(1)' | python3",
    'echo "$TASK" | python3 ./summarize.py',
    'echo "$TASK" | python3 -c "import sys; print(len(sys.stdin.read()))"',
    'curl -s https://x.example/data.json | node ./parse.js',
    'echo "$TASK" | python3 -m json.tool',
  ],
  reject: [
    {
      name: "the user's shell with an expanded script",
      code: '"${SHELL}" -c "grep $TASK f"',
      errors: [{ messageId: 'shellC', line: 1, column: 15, endColumn: 29, message: /`\$SHELL -c`/ }],
    },
    // A download or expanded text piped into an interpreter that reads its program from stdin runs it.
    {
      name: 'a download piped into python3',
      code: 'curl -s https://x.example/a.py | python3',
      errors: [
        { messageId: 'pipeRemoteProgram', severity: 'error', line: 1, column: 1, endColumn: 41, message: /`curl` output into `python3`/ },
      ],
    },
    {
      name: 'wget into perl -w',
      code: 'wget -qO- https://x/a.pl | perl -w',
      errors: [{ messageId: 'pipeRemoteProgram', line: 1, column: 1 }],
    },
    {
      name: 'expanded text into node',
      code: 'echo "$SIGNAL_DATA" | node',
      errors: [{ messageId: 'pipeProgram', line: 1, column: 7, endColumn: 19 }],
    },
    {
      name: 'expanded text into python3 -',
      code: 'printf %s "$X" | python3 -',
      errors: [{ messageId: 'pipeProgram', line: 1, column: 12 }],
    },
    {
      name: 'a download piped into a shell, with no expansion',
      code: 'curl -fsSL https://get.example.com/i.sh | bash',
      errors: [{ messageId: 'pipeRemote', severity: 'error', line: 1, column: 1, endColumn: 47 }],
    },
    {
      name: 'wget -O- into sh with arguments',
      code: 'wget -qO- https://x/i.sh | sh -s -- --yes',
      errors: [{ messageId: 'pipeRemote', line: 1, column: 1, endColumn: 30 }],
    },
    {
      name: 'a download piped into a shell under sudo, as /dev/stdin, into source and into bash -',
      code: 'curl -s https://x/i.sh | sudo bash\ncurl -s https://x/i.sh | bash /dev/stdin\ncurl -s https://x/i.sh | source /dev/stdin\ncurl -s https://x/i.sh | sh - --yes',
      errors: [
        { messageId: 'pipeRemote', line: 1, column: 1, endColumn: 35, message: /into `bash`/ },
        { messageId: 'pipeRemote', line: 2, column: 1, message: /into `bash`/ },
        { messageId: 'pipeRemote', line: 3, column: 1, message: /into `source`/ },
        { messageId: 'pipeRemote', line: 4, column: 1, message: /into `sh`/ },
      ],
    },
    { name: 'any text piped into a shell', code: "printf 'ls\\n' | bash", errors: [{ messageId: 'pipeText', line: 1, column: 1 }] },
    {
      name: 'eval of a variable',
      code: 'eval "$TASK"',
      errors: [{ messageId: 'eval', severity: 'error', line: 1, column: 6, endColumn: 13 }],
    },
    { name: 'eval of a built string', code: 'CMD="ls"\neval $CMD -la', errors: [{ messageId: 'eval', line: 2, column: 6, endColumn: 10 }] },
    {
      name: 'eval of a command substitution',
      code: 'eval "$(redis-cli get cmd:${AGENT_ID})"',
      errors: [{ messageId: 'eval', line: 1, column: 6, endColumn: 40 }],
    },
    {
      name: 'bash -c',
      code: 'bash -c "echo $TASK"',
      errors: [{ messageId: 'shellC', line: 1, column: 9, endColumn: 21, message: /`bash -c`/ }],
    },
    {
      name: 'sh -ec behind timeout',
      code: 'timeout 3 sh -ec "grep ${PATTERN} f"',
      errors: [{ messageId: 'shellC', line: 1, column: 18, endColumn: 37 }],
    },
    {
      name: 'zsh -c inside $(...)',
      code: 'OUT=$(zsh -c "echo ${SIGNAL_DATA}")',
      errors: [{ messageId: 'shellC', line: 1, column: 14, endColumn: 35 }],
    },
    {
      name: 'eval of an argument inside text handed to a shell',
      code: 'bash -c \'eval "$1"\' _ "$TASK"',
      errors: [{ messageId: 'eval', line: 1, column: 15, endColumn: 19 }],
    },
    {
      name: 'bash -c with an expanded script, two levels down, at its place in the hook',
      code: 'timeout 5 sh -c "cd /w && bash -c \\"run \\$CMD\\""',
      errors: [{ messageId: 'shellC', line: 1, column: 35, endColumn: 48, message: /`bash -c`/ }],
    },
    {
      name: 'eval inside text piped into a shell',
      code: 'printf \'eval "$X"\\n\' | sh',
      errors: [
        { messageId: 'pipeText', line: 1, column: 1 },
        { messageId: 'eval', line: 1, column: 14, endColumn: 18 },
      ],
    },
    {
      name: 'one finding when the outer text is already expanded',
      code: 'bash -c "eval $TASK"',
      errors: [{ messageId: 'shellC', line: 1, column: 9, endColumn: 21 }],
    },
    {
      name: 'source <(...) with an expansion',
      code: 'source <(echo "export X=$SIGNAL_DATA")',
      errors: [{ messageId: 'source', line: 1, column: 8, endColumn: 39 }],
    },
    { name: '. <(redis-cli …)', code: '. <(redis-cli get env)', errors: [{ messageId: 'source', line: 1, column: 3, endColumn: 23 }] },
    {
      name: 'an expansion in the command ssh sends',
      code: 'ssh -i ~/.ssh/ci -o BatchMode=yes ci@build "cd $DIR && make"',
      errors: [{ messageId: 'ssh', line: 1, column: 44, endColumn: 61 }],
    },
    {
      name: 'sh -c of an expansion in a container',
      code: 'docker run --rm -v "$PWD:/w" -w /w node:20 sh -c "npm run $TASK"',
      errors: [{ messageId: 'shellC', line: 1, column: 50, endColumn: 65, message: /`sh -c`/ }],
    },
    {
      name: 'bash given a download as its script file',
      code: 'bash -x <(curl -fsSL https://example.com/install.sh)',
      errors: [{ messageId: 'source', line: 1, column: 9, endColumn: 53, message: /`bash <\(\.\.\.\)` .* output of `curl` runs as code/ }],
    },
    {
      name: 'python3 given a download as its program, under sudo',
      code: 'sudo python3 <(wget -qO- https://example.com/x.py)',
      errors: [{ messageId: 'source', line: 1, column: 14, endColumn: 51 }],
    },
    { name: 'pipe into bash', code: 'echo "$TASK" | bash', errors: [{ messageId: 'pipeShell', line: 1, column: 7, endColumn: 12 }] },
    {
      name: 'xargs -I into sh -c',
      code: "ls | xargs -I {} sh -c 'cat {}'",
      errors: [{ messageId: 'xargsReplace', line: 1, column: 24, endColumn: 32 }],
    },
    {
      name: 'after the tree-sitter misparse of a 3-stage pipeline',
      code: 'a | b | c\neval "$X" && y',
      errors: [{ messageId: 'eval', line: 2, column: 6, endColumn: 10 }],
    },
  ],
});

// An inline program of another language whose text holds an expansion: the value becomes code of that language.
ruleTester(rule, {
  accept: [
    { name: 'python given the value as an argument', code: 'python3 -c \'import sys; print(sys.argv[1])\' "$TASK"' },
    { name: 'awk given the value with -v', code: 'awk -v c="$COVERAGE" \'BEGIN { print c / 100 }\'' },
    { name: 'node reading the environment', code: "node -e 'console.log(process.env.TASK)'" },
    { name: 'awk with a program file', code: 'awk -f report.awk "$LOG"' },
    { name: 'a double-quoted program with no expansion', code: 'python3 -c "print(1)"' },
  ],
  reject: [
    { name: 'python -c', code: 'python3 -c "print(\'$TASK\')"', errors: [{ messageId: 'program', line: 1, column: 12, endColumn: 28 }] },
    { name: 'node -e', code: 'node -e "console.log(\'${TASK}\')"', errors: [{ messageId: 'program', line: 1, column: 9, endColumn: 33 }] },
    {
      name: 'awk arithmetic on a value',
      code: 'R=$(awk "BEGIN {print ($COVERAGE / 100)}")',
      errors: [{ messageId: 'program', line: 1, column: 9, endColumn: 42 }],
    },
    {
      name: 'perl -e after an option',
      code: 'perl -n -e "print if /$PATTERN/" log.txt',
      errors: [{ messageId: 'program', line: 1, column: 12, endColumn: 33 }],
    },
  ],
});
