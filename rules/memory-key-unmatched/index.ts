import type { RelatedInformation } from '../../src/diagnostics.js';
import { defineRule, type AnalysedHook } from '../../src/engine/rule.js';
import { keysMatch, memoryCalls, normalisedKey, type MemoryCall } from '../../src/runtime/memory-calls.js';

/** Hooks that run after `on_blocking_start` in the same blocking episode and read what it saved. */
const READERS = ['on_signal_received', 'on_blocking_timeout'];

interface Entry {
  hook: AnalysedHook;
  call: MemoryCall;
  key: string;
  level: string | undefined;
}

/**
 * `on_blocking_start` saves the agent's context and `on_signal_received`
 * restores it. A retrieve whose key (or level) differs from every store finds
 * nothing, and the agent resumes with an empty context; nothing fails, since
 * hooks' errors are only logged. Keys are compared after normalising
 * `$AGENT_ID` / `${AGENT_ID}`; computed parts match anything.
 */
export default defineRule({
  id: 'memory-key-unmatched',
  meta: {
    description: 'A key `on_signal_received` retrieves is never stored by `on_blocking_start`, or is stored at another level.',
    severity: 'warning',
    category: 'runtime',
  },
  messages: {
    otherLevel:
      'Unexpected level `{{level}}` for `{{key}}`: `on_blocking_start` stores it at level `{{storedLevel}}`, so this retrieve finds nothing.',
    neverStored:
      'Expected `on_blocking_start` to store the agent-level key `{{key}}` that `{{hook}}` retrieves: agent-level memory is private to this agent, and no hook of this profile stores that key.',
  },
  checkHooks(context) {
    const entries = (hook: AnalysedHook): Entry[] =>
      memoryCalls(hook.commands).flatMap((call) => {
        const key = call.key ? normalisedKey(call.key) : undefined;
        return key === undefined ? [] : [{ hook, call, key, level: call.level?.value }];
      });
    const all = context.hooks.flatMap(entries);
    const stores = all.filter((e) => e.call.subcommand?.value === 'store');
    const startStores = stores.filter((e) => e.hook.hook.name === 'on_blocking_start');
    // Without an `on_blocking_start` hook the agent may save its context some other way (its own tools).
    const hasStartHook = context.hooks.some((h) => h.hook.name === 'on_blocking_start');
    const related = (entry: Entry): RelatedInformation => ({
      message: `Stored here, at level \`${entry.level ?? '(none)'}\`, in \`${entry.hook.hook.name}\``,
      file: entry.hook.hook.file,
      range: entry.hook.mapRange(entry.hook.range(entry.call.command.start, entry.call.command.end)),
    });
    for (const retrieve of all.filter((e) => READERS.includes(e.hook.hook.name) && e.call.subcommand?.value === 'retrieve')) {
      if (retrieve.level === undefined) continue;
      const sameKey = stores.filter((s) => keysMatch(s.key, retrieve.key));
      const report = (messageId: string, data: Record<string, string>, rel: Entry[]): void => {
        context.report({
          hook: retrieve.hook.hook,
          messageId,
          data: { key: retrieve.key, hook: retrieve.hook.hook.name, ...data },
          range: retrieve.hook.range(retrieve.call.key!.start, retrieve.call.key!.word.end),
          related: rel.map(related),
        });
      };
      if (sameKey.some((s) => s.level === retrieve.level || s.level === undefined)) continue;
      const startSameKey = sameKey.filter((s) => s.hook.hook.name === 'on_blocking_start');
      if (startSameKey.length > 0) {
        report('otherLevel', { level: retrieve.level, storedLevel: startSameKey[0]!.level! }, startSameKey);
      } else if (retrieve.level === 'agent' && sameKey.length === 0 && hasStartHook) {
        report(
          'neverStored',
          {},
          startStores.filter((s) => s.level === 'agent'),
        );
      }
    }
  },
});
