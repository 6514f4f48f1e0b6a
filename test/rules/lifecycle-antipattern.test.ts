import { expect, it } from 'vitest';
import rule from '../../rules/lifecycle-antipattern/index.js';
import { lintCase, ruleTester } from '../helpers/rule-tester.js';

const body = (markdown: string): string =>
  `---\nname: body-case\ndescription: A profile whose body holds code blocks.\nhooks:\n  on_blocking_start: |\n    echo start\n---\n\n${markdown}`;

ruleTester(rule, {
  accept: [
    '# invoke-waiting-mode.sh enter was v1\necho ok',
    'echo "invoke-waiting-mode.sh enter"',
    'invoke-waiting-mode.sh status',
    'cfn-fork list',
    { name: 'a body block in another language', profile: body('```js\ncfn-fork resume\n```\n') },
    { name: 'prose in the body', profile: body('Do not run `invoke-waiting-mode.sh enter` any more.\n') },
  ],
  reject: [
    {
      code: './.claude/skills/invoke-waiting-mode.sh enter --agent "$AGENT_ID"',
      errors: [{ messageId: 'waitingMode', severity: 'warning', line: 1, column: 1, endColumn: 46 }],
    },
    {
      name: 'through bash',
      code: 'bash invoke-waiting-mode.sh wait',
      errors: [{ messageId: 'waitingMode', line: 1, column: 6, endColumn: 33 }],
    },
    { name: 'wake', code: 'invoke-waiting-mode.sh wake "$AGENT_ID" || true', errors: [{ line: 1, column: 1, endColumn: 28 }] },
    {
      name: 'cfn-fork resume',
      code: 'npx cfn-fork resume "$AGENT_ID"',
      errors: [{ messageId: 'forkResume', line: 1, column: 5, endColumn: 20 }],
    },
    {
      name: 'a ```bash block of the body (file positions)',
      profile: body('## Resume\n\n```bash\n# resume the agent\ncfn-fork resume "$AGENT_ID"\n```\n'),
      errors: [{ messageId: 'forkResume', line: 13, column: 1, endColumn: 16 }],
    },
    {
      name: 'an indented ```sh block in a list, with CRLF',
      profile: body('1. Park:\r\n   ```sh\r\n   invoke-waiting-mode.sh enter\r\n   ```\r\n').replace(/\n/g, '\r\n').replace(/\r\r/g, '\r'),
      errors: [{ messageId: 'waitingMode', line: 11, column: 4, endColumn: 32 }],
    },
  ],
});

it('does not let other rules judge body code blocks', async () => {
  const other = (await import('../../rules/hook-timeout-risk/index.js')).default;
  const found = await lintCase(other, { profile: body('```bash\nsleep 60\n```\n') });
  expect(found).toEqual([]);
});

it('names the body block as the hook of its findings', async () => {
  const [finding] = await lintCase(rule, { profile: body('```bash\ncfn-fork resume x\n```\n') });
  expect(finding!.hook).toBe('body:9');
});

it('reads ~~~ fences, longer fences and an unclosed fence at the end of the body', async () => {
  const found = await lintCase(rule, {
    profile: body('~~~sh\ncfn-fork resume a\n~~~\n\n````bash\n```\ncfn-fork resume b\n````\n\n```bash\ncfn-fork resume c\n'),
  });
  expect(found.map((d) => `${d.line}:${d.column} ${d.hook ?? ''}`)).toEqual(['10:1 body:9', '15:1 body:13', '19:1 body:18']);
});
