import rule from '../../rules/env-var-unavailable/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    'echo "$AGENT_ID $TASK $SWARM_ID $ITERATION $PHASE $BLOCKING_TYPE $TIMEOUT_THRESHOLD $HOOK_NAME"',
    { name: 'signal variables in on_signal_received', hook: 'on_signal_received', code: 'echo "$SIGNAL_DATA after ${WAIT_DURATION}ms"' },
    { name: 'timeout variables in on_blocking_timeout', hook: 'on_blocking_timeout', code: 'echo "$TIMEOUT_DURATION $EXCEEDED_BY"' },
    { name: 'legacy hooks are not judged (their environment is not documented)', hook: 'pre', code: 'echo "$TASK_ID"' },
    'echo "$HOME $PATH $RANDOM $PWD"',
    'RESULT=$(date)\necho "$RESULT"',
    'export STATE=ready\necho "$STATE"',
    'f() { local COUNT=1; echo "$COUNT"; }',
    'read -r LINE < file\necho "$LINE"',
    'read -r -p "x" -a PARTS\necho "${PARTS[0]}"',
    'for ITEM in a b; do echo "$ITEM"; done',
    'echo "${TASK_ID:-none}"',
    '[[ -n "$TASK_ID" ]] && echo "$TASK_ID"',
    '[ -z "$REDIS_URL" ] || echo "$REDIS_URL"',
    'echo "$lowercase_is_shellcheck_sc2154"',
    '# $TASK_ID is not set\necho ok',
    "echo '$TASK_ID'",
    { name: 'a sourced file may set anything', code: 'source ./.env.sh\necho "$REDIS_URL"' },
    { name: 'an option allows a variable', code: 'echo "$REDIS_URL"', options: { allow: ['REDIS_URL'] } },
  ],
  reject: [
    {
      name: 'TASK_ID in a blocking hook',
      code: 'echo "task $TASK_ID"',
      errors: [
        { messageId: 'unavailable', severity: 'warning', line: 1, column: 12, endColumn: 20, message: /Provided: `AGENT_ID`, `TASK`/ },
      ],
    },
    {
      name: 'SIGNAL_DATA outside on_signal_received',
      hook: 'on_blocking_timeout',
      code: 'echo "${SIGNAL_DATA}"',
      errors: [{ line: 1, column: 7, endColumn: 21, message: /`TIMEOUT_DURATION`, `EXCEEDED_BY`/ }],
    },
    { name: 'reported once per variable', code: 'echo "$TASK_ID"\necho "$TASK_ID"', errors: [{ line: 1, column: 7 }] },
    {
      name: 'in a nested lifecycle key that is not a blocking hook is ignored, but in on_signal_received the timeout variables are not set',
      hook: 'on_signal_received',
      code: 'echo "$EXCEEDED_BY"',
      errors: [{ line: 1, column: 7, endColumn: 19 }],
    },
  ],
});
