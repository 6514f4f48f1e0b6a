import rule from '../../rules/cc-exit-implicit/index.js';
import { claudeCodeAgent } from '../helpers/claude-code-agent.js';
import { ruleTester } from '../helpers/rule-tester.js';

const hook = (script: string, event = 'PreToolUse'): string => claudeCodeAgent(script, event);

ruleTester(rule, {
  accept: [
    { name: 'a guard that exits 2', profile: hook('if jq -r .tool_input.command | grep -q rm; then exit 2; fi') },
    { name: 'a test then exit 0', profile: hook('[[ "$(jq -r .tool_input.command)" == *rm* ]] && exit 2\nexit 0') },
    { name: 'A || exit 2 at the end', profile: hook('[[ "$(jq -r .tool_input.command)" != *rm* ]] || exit 2') },
    { name: 'an if without else at the end (status 0 when no branch runs)', profile: hook('if grep -q rm; then echo no >&2; exit 2; fi') },
    { name: 'a function returning 2', profile: hook('check() { grep -q rm && return 2; return 0; }\ncheck') },
    { name: 'return 1 in a function the end does not call', profile: hook('check() { return 1; }\ncheck || exit 2\nexit 0') },
    { name: 'an event that cannot block', profile: hook('[ -f .env ] && echo found', 'SessionStart') },
    {
      name: 'a background hook',
      profile: claudeCodeAgent('grep -q rm && false', 'PreToolUse', 'async: true'),
    },
    { name: 'a negated test at the end', profile: hook('! grep -q rm') },
    { name: 'a pipeline whose last stage is no test', profile: hook('jq -r .tool_name | grep rm | tee -a log') },
    { name: 'a test inside a command substitution', profile: hook('R=$([ -f x ] && echo y)\nexit 0') },
    {
      name: 'tests under set -e in a condition, a list or after !',
      profile: hook('set -e\nif [ -n "$X" ]; then :; fi\n[ -n "$Y" ] || exit 2\n! grep -q rm f\nexit 0'),
    },
    { name: 'a test after set +o errexit', profile: hook('set -o errexit\nset +o errexit\n[ -n "$X" ]\nexit 0') },
    { name: 'a test after set +e', profile: hook('set -e\nset +e\n[ -n "$X" ]\nexit 0') },
    { name: 'a test with no set -e', profile: hook('[ -n "$X" ]\nexit 0') },
    { name: 'a test in a loop', profile: hook('for f in a b; do [ -f "$f" ] && echo "$f"; done\nexit 0') },
  ],
  reject: [
    {
      name: 'a test as the whole hook',
      profile: hook('[[ "$(jq -r .tool_input.command)" != *sudo* ]]'),
      errors: [{ messageId: 'test', line: 10, column: 13, endColumn: 59 }],
    },
    {
      name: 'grep -q && block at the end: exit 1 on every call it lets through',
      profile: hook("jq -r .tool_input.command | grep -q 'rm -rf' && { echo no >&2; exit 2; }"),
      errors: [{ messageId: 'testFails', line: 10, column: 41, endColumn: 57 }],
    },
    {
      name: '[ ] && [ ] && action: both tests',
      profile: hook('[ -n "$C" ] && [ "$C" != ls ] && echo "$C" >> log'),
      errors: [
        { messageId: 'testFails', line: 10, column: 13, endColumn: 24 },
        { messageId: 'testFails', line: 10, column: 28, endColumn: 42 },
      ],
    },
    {
      name: 'a test before a pipeline that is no test',
      profile: hook('[ -n "$X" ] && jq -r .tool_name | tee -a log'),
      errors: [{ messageId: 'testFails', line: 10, column: 13, endColumn: 24 }],
    },
    {
      name: 'false at the end of a refusing branch',
      profile: hook('if grep -q rm; then\n  echo "no rm" >&2\n  false\nfi'),
      errors: [{ messageId: 'refusal', line: 12, column: 15, endColumn: 20, message: /exits 1 here/ }],
    },
    {
      name: 'return 1 in the function the hook ends by calling',
      profile: hook('check() {\n  if grep -q curl; then return 1; fi\n}\ncheck\nexit $?'),
      errors: [{ messageId: 'refusal', line: 11, column: 37, endColumn: 45 }],
    },
    {
      name: 'return 3 in a case item of a main function, through a pipeline and a group',
      profile: hook('main() {\n  case "$1" in\n    rm) return 3 ;;\n  esac\n}\n{ main "$@"; }'),
      errors: [{ messageId: 'refusal', line: 12, column: 21, endColumn: 29, message: /exits 3 here/ }],
    },
    {
      name: 'a test in an else branch at the end',
      profile: hook('if [ -z "$X" ]; then exit 0; else grep -qv rm; fi'),
      errors: [{ messageId: 'test', line: 10, column: 47, endColumn: 58 }],
    },
    {
      name: 'a test standing alone under set -euo pipefail, and a grep -q at the end of a pipeline',
      profile: hook(
        'set -euo pipefail\nC=$(jq -r .tool_input.command)\n[[ "$C" != *sudo* ]]\nprintf \'%s\' "$C" | grep -qv \'rm -rf\'\necho ok',
      ),
      errors: [
        { messageId: 'errexit', line: 12, column: 13, endColumn: 33, message: /under `set -e`/ },
        { messageId: 'errexit', line: 13, column: 32, endColumn: 49 },
      ],
    },
    {
      name: 'one finding for a test under set -e before exit $?',
      profile: hook('set -e\n[ -n "$X" ]\nexit $?'),
      errors: [{ messageId: 'test', line: 11, column: 13, endColumn: 24 }],
    },
    {
      name: 'set -o errexit',
      profile: hook('set -o errexit\ntest -f ./allowed\nexit 0'),
      errors: [{ messageId: 'errexit', line: 11, column: 13, endColumn: 30 }],
    },
    {
      name: '-e on the #! line',
      profile: hook('#!/bin/bash -e\n[ -n "$X" ]\necho ok'),
      errors: [{ messageId: 'errexit', line: 11, column: 13, endColumn: 24 }],
    },
    {
      name: 'jq -e as the last command of a UserPromptSubmit hook',
      profile: hook('jq -e \'.prompt | test("secret") | not\' >/dev/null', 'UserPromptSubmit'),
      errors: [{ messageId: 'test', line: 10, column: 13, endColumn: 51, message: /decision: "block"/ }],
    },
  ],
});
