import { defineRule } from '../../src/engine/rule.js';
import { hookBudgetMs } from '../../src/runtimes/index.js';
import { commandBase, nodesOfType } from '../../src/shell/analysis.js';
import { everyCommand } from '../../src/engine/command-rule.js';
import type { PlainCommand } from '../../src/shell/commands.js';
import type { SyntaxNode } from '../../src/shell/parser.js';
import { inlineSleepSeconds, sleepSeconds, UNIT_SECONDS } from './loop-terms.js';
import { backgroundJobs, inBackgroundJob } from '../../src/shell/background.js';
import { LOOP_EXITS, pollingLoops } from './loops.js';

/** Redis commands that block until data arrives; their timeout (seconds, 0 = forever) is the last argument. */
const BLOCKING_POPS = new Set(['blpop', 'brpop', 'bzpopmin', 'bzpopmax', 'brpoplpush', 'blmove']);
/** …or the first one after the command. */
const BLOCKING_MULTI_POPS = new Set(['blmpop', 'bzmpop']);
/** Commands that never return on their own. */
const ENDLESS = new Set(['subscribe', 'psubscribe', 'ssubscribe', 'monitor']);
const ALWAYS_TRUE = new Set(['true', ':']);

/**
 * The runtime kills a hook when its time runs out (claude-flow: 5 s for every
 * hook; Claude Code: the handler's `timeout`, else the documented default for
 * its event) and only logs it: everything the script meant to do after that
 * point (the store, the event, the decision) silently never happens. A sleep
 * as long as the budget, a loop with no way out and a bounded loop that
 * always sleeps past the budget always hit the limit (errors); a Redis call
 * that blocks until data arrives and a polling loop that ends only when what
 * it waits for comes (or only after the budget) hit it whenever the data is
 * late (warnings).
 */
export default defineRule({
  id: 'hook-timeout-risk',
  meta: {
    description: 'A sleep, endless or polling loop, or blocking wait that runs into the hook timeout (5 s on claude-flow).',
    severity: 'error',
    category: 'runtime',
    runtimes: ['claude-flow', 'claude-code'],
  },
  messages: {
    sleep:
      'Unexpected `{{text}}`: the runtime kills the hook after {{budget}} s, so the rest of the script never runs. Do not wait in a hook.',
    endlessLoop: 'Unexpected endless `{{text}}` loop with no `break`, `exit` or `return`: the runtime kills the hook after {{budget}} s.',
    endlessBackground:
      'Unexpected endless `{{text}}` loop in a background job: the hook does not wait for it, so it keeps running after the hook ends, until something kills it.',
    pollingLoop:
      'Unexpected polling `{{keyword}}` loop with no bound (no counter, elapsed-time check or `timeout` ends it; it sleeps with `{{sleep}}`): if what it waits for never comes, it runs until the runtime kills the hook after {{budget}} s, and the rest of the script never runs. Give up after tries that fit in {{budget}} s.',
    longPollingLoop:
      'Unexpected polling `{{keyword}}` loop that can wait {{seconds}} s ({{how}}): the runtime kills the hook after {{budget}} s, so the rest of the script never runs. Keep its waiting below {{budget}} s.',
    endlessCommand:
      'Unexpected `{{text}}`: it runs until something stops it, so the runtime kills the hook after {{budget}} s and the rest of the script never runs. Bound it (`ping -c 1`, `timeout 2 …`).',
    follow:
      'Unexpected `{{text}}`: it follows the file forever, so the runtime kills the hook after {{budget}} s and the rest of the script never runs. Read what is there (`tail -n 50`), or bound it with `timeout`.',
    blockingWait:
      'Unexpected `redis-cli {{operation}}` that can block {{how}}: the runtime kills the hook after {{budget}} s. Use a timeout below {{budget}} s, or read without blocking.',
  },
  checkScript(context) {
    const budget = hookBudgetMs(context.hook) / 1000;
    // A zero or negative timeout is another rule's finding; nothing here can be measured against it.
    if (!(budget > 0)) return;
    /** Sleeps reported on their own: a loop around one is not reported again. */
    const longSleeps = new Set<PlainCommand>();
    // Also what the hook hands to a shell as text (`bash -c 'sleep 30'`) and runs through a variable (`D=10; sleep $D`).
    const commands = everyCommand(context, 'all');
    let forever: string | undefined;
    for (const command of commands) {
      const base = commandBase(command);
      if (boundedByTimeout(commands, command, budget)) continue;
      // `sleep 30`, and the sleeps of inline programs (`python3 -c 'import time; time.sleep(30)'`).
      const seconds = base === 'sleep' ? sleepSeconds(command) : inlineSleepSeconds(command, base);
      if (base === 'sleep' || seconds !== undefined) {
        if (seconds === undefined || seconds < budget) continue;
        longSleeps.add(command);
        context.report({
          messageId: 'sleep',
          data: { text: commandText(context.hook.text, command), budget },
          range: context.range(command.start, command.end),
        });
      } else if ((forever = runsForever(command, backgroundJobs(context.tree.rootNode, context.hook.text)))) {
        context.report({
          messageId: forever,
          data: { text: commandText(context.hook.text, command), budget },
          range: context.range(command.start, command.end),
        });
      } else if (base === 'redis-cli') {
        const wait = blockingWait(command, budget);
        if (wait)
          context.report({
            messageId: 'blockingWait',
            data: { ...wait, budget },
            range: context.range(command.start, command.end),
            severity: 'warning',
          });
      }
    }
    const endless = new Set<number>();
    for (const loop of nodesOfType(context.tree.rootNode, ['while_statement', 'c_style_for_statement'])) {
      const head = endlessHead(loop);
      const body = loop.childForFieldName('body');
      if (!head || !body || hasExit(body)) continue;
      endless.add(loop.id);
      // A background job is not waited for: it does not hold the hook, it outlives it.
      const background = inBackgroundJob(backgroundJobs(context.tree.rootNode, context.hook.text), loop.startIndex, loop.endIndex);
      context.report({
        messageId: background ? 'endlessBackground' : 'endlessLoop',
        data: { text: head.text, budget },
        range: context.range(loop.startIndex, head.end),
        ...(background ? { severity: 'warning' as const } : {}),
      });
    }
    for (const polling of pollingLoops(context.tree.rootNode, context.commands, context.hook.text)) {
      if (endless.has(polling.loop.id) || polling.sleeps.some((s) => longSleeps.has(s))) continue;
      const { bound, keyword, sleeps } = polling;
      const range = context.range(keyword.startIndex, keyword.endIndex);
      if (bound.kind === 'none')
        context.report({
          messageId: 'pollingLoop',
          data: { keyword: keyword.type, sleep: commandText(context.hook.text, sleeps[0]!), budget },
          range,
          severity: 'warning',
        });
      else if (bound.kind === 'known' && bound.seconds >= budget)
        context.report({
          messageId: 'longPollingLoop',
          data: { keyword: keyword.type, seconds: bound.seconds, how: bound.how, budget },
          range,
          ...(polling.always ? {} : { severity: 'warning' as const }),
        });
    }
  },
});

/** `timeout 3 redis-cli blpop q 0`: the `timeout` wrapper ends it before the hook's limit. */
function boundedByTimeout(commands: readonly PlainCommand[], command: PlainCommand, budget: number): boolean {
  if (command.wrappedBy !== 'timeout') return false;
  const outer = commands.find((c) => commandBase(c) === 'timeout' && c.end === command.end && c.start < command.start);
  const duration = outer?.args.find((a) => a.value !== undefined && !a.value.startsWith('-'))?.value;
  const match = duration === undefined ? null : /^(\d+(?:\.\d*)?)([smhd]?)$/.exec(duration);
  return match !== null && Number(match[1]) * UNIT_SECONDS[match[2]!]! < budget;
}

function commandText(text: string, command: PlainCommand): string {
  return text.slice(command.start, command.end);
}

/** A blocking Redis read whose timeout is 0 (forever) or at least the hook's, unless `timeout` bounds it below that. */
function blockingWait(command: PlainCommand, budget: number): { operation: string; how: string } | undefined {
  const words = command.args.map((a) => a.value);
  const index = words.findIndex(
    (w) =>
      w !== undefined &&
      (BLOCKING_POPS.has(w.toLowerCase()) ||
        BLOCKING_MULTI_POPS.has(w.toLowerCase()) ||
        ENDLESS.has(w.toLowerCase()) ||
        /^xread(group)?$/i.test(w)),
  );
  if (index === -1) return undefined;
  const operation = words[index]!.toLowerCase();
  let seconds: number | undefined;
  if (ENDLESS.has(operation)) seconds = Infinity;
  else if (BLOCKING_POPS.has(operation)) seconds = timeoutSeconds(words[words.length - 1]);
  else if (BLOCKING_MULTI_POPS.has(operation)) seconds = timeoutSeconds(words[index + 1]);
  else {
    const block = words.findIndex((w, i) => i > index && w?.toLowerCase() === 'block');
    if (block === -1) return undefined;
    const ms = words[block + 1] !== undefined && /^\d+$/.test(words[block + 1]!) ? Number(words[block + 1]) : undefined;
    seconds = ms === undefined ? undefined : ms === 0 ? Infinity : ms / 1000;
  }
  if (seconds === undefined || seconds < budget) return undefined;
  return { operation, how: seconds === Infinity ? 'forever' : `for ${seconds} s` };
}

function timeoutSeconds(word: string | undefined): number | undefined {
  if (word === undefined || !/^\d+(\.\d+)?$/.test(word)) return undefined;
  const n = Number(word);
  return n === 0 ? Infinity : n;
}

/** The head of a loop that never ends by its condition (`while true`, `until false`, `for ((;;))`), with where it ends. */
function endlessHead(loop: SyntaxNode): { text: string; end: number } | undefined {
  if (loop.type === 'c_style_for_statement') {
    const close = loop.children.find((c) => c?.type === '))');
    return close && !loop.childForFieldName('condition') ? { text: 'for ((;;))', end: close.endIndex } : undefined;
  }
  const keyword = loop.child(0)?.type ?? 'while';
  const condition = loop.childForFieldName('condition');
  if (!condition || !isConstant(condition, keyword === 'until' ? 'false' : 'true')) return undefined;
  return { text: `${keyword} ${condition.text}`, end: condition.endIndex };
}

/** `while true`, `while :`, `while /bin/true`, `until false` (the condition is that one command); `while [ 1 ]` (a test of a non-empty word). */
function isConstant(condition: SyntaxNode, value: 'true' | 'false'): boolean {
  if (condition.type === 'test_command') {
    const operands = condition.namedChildren;
    return value === 'true' && operands.length === 1 && (operands[0]?.type === 'number' || operands[0]?.type === 'word');
  }
  if (condition.type !== 'command') return false;
  const name = condition.childForFieldName('name')?.text.replace(/^.*\//, '');
  if (condition.childrenForFieldName('argument').length > 0) return false;
  return value === 'true' ? ALWAYS_TRUE.has(name ?? '') : name === 'false';
}

/**
 * The finding for a command that does not end on its own in the foreground: `tail -f`, `ping`, `watch`, `yes`.
 * `jobs`: the hook's background jobs (a command in text handed to a shell is at its place in the hook's script too).
 */
function runsForever(command: PlainCommand, jobs: readonly (readonly [number, number])[]): 'follow' | 'endlessCommand' | undefined {
  if (inBackgroundJob(jobs, command.start, command.end)) return undefined;
  if (commandBase(command) === 'tail') return follows(command) ? 'follow' : undefined;
  return endlessCommand(command) ? 'endlessCommand' : undefined;
}

/**
 * `ping host` (Linux pings until stopped without `-c`/`-w`), `watch cmd` (without `-g`), watchers and log
 * followers, `yes` not piped into a command that stops reading.
 */
function endlessCommand(command: PlainCommand): boolean {
  const base = commandBase(command);
  const has = (pattern: RegExp): boolean => command.args.some((a) => a.value !== undefined && pattern.test(a.value));
  if (base === 'ping' || base === 'ping6') return !has(/^(-[A-Za-z]*[cw]|--count|--deadline)/);
  if (base === 'watch') return !has(/^(-[A-Za-z]*g|--chgexit)/);
  // Watchers and log followers: `inotifywait -m` (without `-t`), `journalctl -f`, `dmesg -w`.
  if (base === 'inotifywait' || base === 'fswatch')
    return base === 'fswatch'
      ? !has(/^(-1|--one-event)$/)
      : has(/^(-[A-Za-z]*m[A-Za-z]*|--monitor)$/) && !has(/^(-[A-Za-z]*t[A-Za-z]*|--timeout(=.*)?)$/);
  if (base === 'journalctl') return has(/^(-[A-Za-z]*f|--follow)$/);
  if (base === 'dmesg') return has(/^(-[A-Za-z]*[wW]|--follow|--follow-new)$/);
  if (base !== 'yes') return false;
  const name: PlainCommand['name'] & { node?: SyntaxNode } = command.name;
  for (let node = name.node?.parent; node; node = node.parent)
    if (node.type === 'pipeline' || node.type === 'command_substitution') return false;
  return name.node !== undefined;
}

/** `tail -f`, `-F`, `--follow` (not ended by `--pid`, which stops when that process does). */
function follows(command: PlainCommand): boolean {
  let follow = false;
  for (const arg of command.args) {
    const value = arg.value;
    if (value === undefined) continue;
    if (value.startsWith('--pid')) return false;
    if (value === '--follow' || value.startsWith('--follow=') || (!value.startsWith('--') && /^-[A-Za-z0-9]*[fF]/.test(value)))
      follow = true;
  }
  return follow;
}

function hasExit(body: SyntaxNode): boolean {
  return nodesOfType(body, ['command']).some((c) => LOOP_EXITS.has(c.childForFieldName('name')?.text ?? ''));
}
