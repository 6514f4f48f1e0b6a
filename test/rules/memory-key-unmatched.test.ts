import { expect, it } from 'vitest';
import rule from '../../rules/memory-key-unmatched/index.js';
import { lintCase, ruleTester } from '../helpers/rule-tester.js';

const profile = (start: string, signal: string): string =>
  [
    '---',
    'name: memory-case',
    'description: Blocking hooks that save and restore a context.',
    'hooks:',
    '  on_blocking_start: |',
    ...start.split('\n').map((l) => `    ${l}`),
    '  on_signal_received: |',
    ...signal.split('\n').map((l) => `    ${l}`),
    '---',
    '',
  ].join('\n');

const STORE = '/sqlite-memory store --key "agent:${AGENT_ID}:ctx" --level agent --data \'{}\'';

ruleTester(rule, {
  accept: [
    { name: 'same key, other spelling', profile: profile(STORE, '/sqlite-memory retrieve --key agent:$AGENT_ID:ctx --level agent') },
    {
      name: 'a computed part matches anything',
      profile: profile(
        '/sqlite-memory store --key "agent:${AGENT_ID}:$(date +%s)" --level agent --data \'{}\'',
        '/sqlite-memory retrieve --key "agent:${AGENT_ID}:latest" --level agent',
      ),
    },
    {
      name: 'a script variable is an unknown part',
      profile: profile(
        'K="agent:${AGENT_ID}:ctx"\n/sqlite-memory store --key "$K" --level agent --data \'{}\'',
        '/sqlite-memory retrieve --key "agent:${AGENT_ID}:other" --level agent',
      ),
    },
    {
      name: 'swarm-level keys may be stored by other agents',
      profile: profile(STORE, '/sqlite-memory retrieve --key "swarm:${SWARM_ID}:plan" --level swarm'),
    },
    {
      name: 'no on_blocking_start: the agent may save its context otherwise',
      code: '/sqlite-memory retrieve --key "agent:${AGENT_ID}:ctx" --level agent',
      hook: 'on_signal_received',
    },
  ],
  reject: [
    {
      name: 'stored at another level',
      profile: profile(
        '/sqlite-memory store --key "agent:${AGENT_ID}:ctx" --level swarm --data \'{}\'',
        'CTX=$(/sqlite-memory retrieve --key "agent:${AGENT_ID}:ctx" --level agent)',
      ),
      errors: [{ messageId: 'otherLevel', severity: 'warning', line: 8, column: 41, endColumn: 64, message: /level `swarm`/ }],
    },
    {
      name: 'never stored',
      profile: profile(STORE, '/sqlite-memory retrieve --key "agent:${AGENT_ID}:context" --level agent'),
      errors: [{ messageId: 'neverStored', line: 8, column: 35, endColumn: 62 }],
    },
  ],
});

it('points at the store with related information in file positions', async () => {
  const [finding] = await lintCase(rule, {
    profile: profile(`echo saving\n${STORE}`, '/sqlite-memory retrieve --key "agent:${AGENT_ID}:context" --level agent'),
  });
  expect(finding!.related).toEqual([
    {
      message: 'Stored here, at level `agent`, in `on_blocking_start`',
      file: '/virtual/case.md',
      range: { line: 7, column: 5, endLine: 7, endColumn: 5 + STORE.length },
    },
  ]);
});
