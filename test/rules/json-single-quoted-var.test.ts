import { expect, it } from 'vitest';
import rule from '../../rules/json-single-quoted-var/index.js';
import { lintCase, ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    `/eventbus publish --type agent.done --data "$(jq -nc --arg agent "$AGENT_ID" '{agent: $agent}')" --priority 8`,
    `jq -n --arg a "$AGENT_ID" '{"agent": $a}'`,
    `echo '{"status":"ok"}'`,
    `# --data '{"agent":"\${AGENT_ID}"}' is the documented (broken) pattern\necho ok`,
    `echo "{\\"agent\\":\\"\${AGENT_ID}\\"}"`,
    `awk '{print $1}' file`,
    `envsubst '\${AGENT_ID}' < tpl.json`,
    `echo 'Costs $5 and \${HOME}'`,
    `xargs -I {} sh -c 'echo "{\\"f\\": \\"$1\\"}"' _ {}`,
  ],
  reject: [
    {
      name: 'the runtime documentation pattern',
      code: `/eventbus publish --type agent.timeout --data '{"agent":"\${AGENT_ID}","phase":"$PHASE"}' --priority 9`,
      errors: [
        {
          messageId: 'neverExpanded',
          severity: 'warning',
          line: 1,
          column: 58,
          endColumn: 69,
          message: /never expanded.*jq -n --arg agent_id "\$\{AGENT_ID\}"/,
        },
        { line: 1, column: 80, endColumn: 86 },
      ],
    },
    {
      name: 'inside a spliced word, on a continuation line',
      code: `/sqlite-memory store --key "agent:\${AGENT_ID}:ctx" \\\n  --level agent \\\n  --data '{"ts":"'$(date +%s)'","task":"\${TASK}"}'`,
      errors: [{ line: 3, column: 41, endColumn: 48 }],
    },
    { name: 'in an assignment', code: `PAYLOAD='{"swarm":"\${SWARM_ID}"}'`, errors: [{ line: 1, column: 20, endColumn: 31 }] },
    { name: 'an array', code: `echo '["$AGENT_ID"]'`, errors: [{ line: 1, column: 9, endColumn: 18 }] },
  ],
});

it('offers a jq rewrite as an unsafe fix, in file positions', async () => {
  const [finding] = await lintCase(rule, { code: `/eventbus publish --type a.b --data '{"agent":"\${AGENT_ID}","n":1}' --priority 8` });
  expect(finding!.fixes).toEqual([
    {
      title: 'Build the JSON with `jq -n --arg`',
      safe: false,
      edits: [
        {
          range: { line: 6, column: 41, endLine: 6, endColumn: 72 },
          text: `"$(jq -nc --arg agent_id "$AGENT_ID" '{"agent":$agent_id,"n":1}')"`,
        },
      ],
    },
  ]);
});
