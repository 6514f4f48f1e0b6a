import { EVENT_PRIORITY_MAX, EVENT_PRIORITY_MIN, EVENT_TYPE_PATTERN } from '../runtime/contract.js';
import {
  NO_IMPLEMENTATION,
  outcome,
  parseFlags,
  sizeProblem,
  UsageError,
  type CommandOutcome,
  type ParsedArgs,
  type SlashCommandContext,
} from './slash-commands.js';
import { traceString } from './trace-bounds.js';

/**
 * `/eventbus` as the sandbox offers it (see slash-commands.ts for the others):
 *
 *   /eventbus publish --type a.b.c --data JSON --priority N
 *
 * A published event is validated as the runtime documents it and kept in the
 * session's bounded event log; the other documented subcommands succeed
 * without doing anything and are recorded with a note.
 */

const EVENTBUS_NOOP_SUBCOMMANDS = new Set(['subscribe', 'unsubscribe', 'init', 'metrics', 'status', 'stats', 'health']);

export function validateEvent(fields: { type?: string; priority?: string; data?: string }): {
  problems: string[];
  priority: number;
  data: unknown;
} {
  const problems: string[] = [];
  if (!fields.type) problems.push('missing --type');
  else if (!EVENT_TYPE_PATTERN.test(fields.type))
    problems.push(`invalid type '${fields.type}' (expected dot-separated words such as agent.blocking.start)`);
  else if (fields.type.includes('*'))
    problems.push(`invalid type '${fields.type}' (wildcards belong in subscribe patterns, not in a published type)`);
  let priority = 5;
  if (fields.priority !== undefined) {
    priority = Number(fields.priority);
    if (!/^-?\d+$/.test(fields.priority) || priority < EVENT_PRIORITY_MIN || priority > EVENT_PRIORITY_MAX) {
      problems.push(`invalid priority '${fields.priority}' (expected an integer from ${EVENT_PRIORITY_MIN} to ${EVENT_PRIORITY_MAX})`);
    }
  }
  let data: unknown = {};
  if (fields.data !== undefined) {
    try {
      data = JSON.parse(fields.data);
    } catch (error) {
      data = fields.data;
      problems.push(`--data is not valid JSON (${(error as Error).message})`);
    }
  }
  return { problems, priority, data };
}

// eslint-disable-next-line @typescript-eslint/require-await -- one asynchronous signature for every slash command; a throw stays a rejection
export async function runEventbusCommand(args: readonly string[], context: SlashCommandContext): Promise<CommandOutcome> {
  const [subcommand = '', ...rest] = args;
  const base = { kind: 'event' as const, agentId: context.identity.agentId, runId: context.runId, action: subcommand, args: [...args] };
  if (subcommand === 'publish') {
    const tooBig = sizeProblem(args);
    if (tooBig) {
      context.record({
        ...base,
        args: base.args.slice(0, 8).map((arg) => traceString(arg)),
        valid: false,
        problems: [tooBig],
        exitCode: 2,
      });
      return outcome(2, '', `eventbus: ${tooBig}\n`);
    }
    let parsed: ParsedArgs;
    try {
      parsed = parseFlags(rest, ['type', 'data', 'priority']);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      context.record({ ...base, valid: false, problems: [error.message], exitCode: 2 });
      return outcome(2, '', `eventbus: ${error.message}\n`);
    }
    const type = parsed.flags.get('type');
    const priorityText = parsed.flags.get('priority');
    const { problems, priority, data } = validateEvent({ type, priority: priorityText, data: parsed.flags.get('data') });
    const notes = [
      ...(priorityText === undefined ? [`no --priority given; the fake uses ${priority}`] : []),
      ...(parsed.positional.length > 0 ? [`ignored arguments: ${parsed.positional.join(' ')}`] : []),
    ];
    const valid = problems.length === 0;
    const refused = valid
      ? context.publish(
          { agentId: context.identity.agentId, runId: context.runId, type: type!, priority, data },
          type!.length + (parsed.flags.get('data')?.length ?? 0),
        )
      : undefined;
    if (refused) {
      context.record({
        ...base,
        type,
        priority,
        data: traceString(parsed.flags.get('data') ?? ''),
        valid: true,
        exitCode: 1,
        note: refused,
      });
      return outcome(1, '', `eventbus: ${refused}\n`);
    }
    context.record({
      ...base,
      ...(type ? { type } : {}),
      priority,
      data,
      valid,
      exitCode: valid ? 0 : 1,
      ...(valid ? {} : { problems }),
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    });
    if (!valid) return outcome(1, '', `eventbus: invalid event: ${problems.join('; ')}\n`);
    return outcome(0);
  }
  if (EVENTBUS_NOOP_SUBCOMMANDS.has(subcommand)) {
    context.record({ ...base, valid: true, exitCode: 0, note: `/eventbus ${subcommand}: ${NO_IMPLEMENTATION}; events are not delivered` });
    return outcome(0);
  }
  const message = subcommand ? `unknown subcommand '${subcommand}'` : 'missing subcommand';
  context.record({ ...base, valid: false, problems: [message], exitCode: 2 });
  return outcome(2, '', `eventbus: ${message}\nusage: /eventbus publish --type a.b.c --data JSON --priority N\n`);
}
