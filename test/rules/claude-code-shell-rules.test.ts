// Shell rules that know no runtime read Claude Code hooks too. They were claude-flow's only (a rule's
// runtimes default to it), so on real Claude Code hooks they said nothing: sethdf/lifemaestro's
// PreToolUse guard splices a regex (`rm\s+-rf`) into its JSON decision, which is then invalid JSON;
// yurukusa/claude-code-hooks' error-gate.sh counts with `grep -c … || echo 0`, which gives `0\n0`.
import exitStatusMasked from '../../rules/exit-status-masked/index.js';
import grepCountFallback from '../../rules/grep-count-fallback/index.js';
import jsonSplicedValue from '../../rules/json-spliced-value/index.js';
import substitutionInvalid from '../../rules/substitution-invalid/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** A Claude Code subagent whose PreToolUse handler runs `lines` (the first on line 10, from column 13). */
function agent(lines: string[]): string {
  return [
    '---',
    'name: guard',
    'description: Guards Bash.',
    'hooks:',
    '  PreToolUse:',
    '    - matcher: Bash',
    '      hooks:',
    '        - type: command',
    '          command: |',
    ...lines.map((line) => `            ${line}`),
    '---',
    'Body.',
    '',
  ].join('\n');
}

ruleTester(jsonSplicedValue, {
  accept: [{ name: 'jq builds the decision', profile: agent(['jq -n --arg r "$1" \'{decision: "block", reason: $r}\'']) }],
  reject: [
    {
      name: 'a pattern spliced into the JSON decision (lifemaestro pre-bash.sh)',
      profile: agent([
        "for pattern in 'rm\\s+-rf' '--force'; do",
        '  echo "{\\"decision\\": \\"block\\", \\"reason\\": \\"Pattern matched: $pattern\\"}"',
        'done',
      ]),
      errors: [{ messageId: 'spliced', line: 11, column: 78, endColumn: 86 }],
    },
  ],
});

ruleTester(grepCountFallback, {
  accept: [{ name: 'grep -c || true', profile: agent(['n=$(grep -c ERROR log || true)']) }],
  reject: [
    {
      name: 'grep -c || echo 0 (error-gate.sh)',
      profile: agent(['n=$(grep -c ERROR log 2>/dev/null || echo 0)', '(( n == 0 )) && exit 0', 'exit 2']),
      errors: [{ messageId: 'twoLines', line: 10, column: 47, endColumn: 56 }],
    },
  ],
});

ruleTester(exitStatusMasked, {
  accept: [{ name: '$? of the command itself', profile: agent(['npm test >/dev/null', 'code=$?']) }],
  reject: [
    {
      name: '$? after || true',
      profile: agent(['npm test >/dev/null || true', 'code=$?', '[ "$code" -eq 0 ] || exit 2']),
      errors: [{ messageId: 'masked', line: 11, column: 18, endColumn: 20 }],
    },
  ],
});

ruleTester(substitutionInvalid, {
  accept: [{ name: 'a length', profile: agent(['cmd=$(jq -r .tool_input.command)', 'echo "${#cmd}" >&2']) }],
  reject: [
    {
      name: 'a length with a default',
      profile: agent(['cmd=$(jq -r .tool_input.command)', '[ "${#cmd:-0}" -gt 500 ] && exit 2']),
      errors: [{ messageId: 'lengthWithOperator', line: 11, column: 16, endColumn: 26 }],
    },
  ],
});
