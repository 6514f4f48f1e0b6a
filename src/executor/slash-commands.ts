import { own } from '../records.js';
import { globMatcher, isMemoryLevel, type MemoryEntry, type MemoryIdentity, type MemoryLevel, type MemoryStore } from './memory-store.js';
import { filterInSlices, MAX_MEMORY_KEY_LENGTH } from './memory-glob.js';
import { HOST_LIMITS, mebibytes } from './host-limits.js';
import { traceString } from './trace-bounds.js';
import type { OperationInput, PublishedEvent } from './trace.js';

/**
 * The runtime's slash commands as the sandbox offers them. `/sqlite-memory`
 * and `/eventbus` have no public implementation; their behaviour here follows
 * the runtime's documentation (see the README) and is the fake's definition:
 *
 *   /sqlite-memory store    --key K --level L --data JSON [--ttl SECONDS]
 *   /sqlite-memory retrieve --key K --level L     prints the value; a key with
 *                                                 `*` prints a JSON array of values
 *   /sqlite-memory list     [--level L] [--pattern GLOB | --prefix P]   keys, one per line
 *   /sqlite-memory search   [--level L] (--pattern GLOB | --query TEXT | TEXT)
 *                           prints a JSON array of {key, level, owner, value}
 *   /sqlite-memory delete   --key K --level L
 *   /eventbus publish --type a.b.c --data JSON --priority N   (eventbus-command.ts)
 *
 * Exit codes: 0 success, 1 not found / denied / invalid event, 2 usage error.
 * Other slash commands real profiles use (`/performance`, `/fleet`, ...) and
 * the other documented subcommands (`/eventbus subscribe`, `/sqlite-memory
 * init`, ...) succeed without doing anything and are recorded with a note.
 */

export interface CommandOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface SlashCommandContext {
  identity: MemoryIdentity;
  runId?: number;
  memory: () => Promise<MemoryStore>;
  record: (operation: OperationInput) => void;
  /** Records an event; returns why it was refused (the session's event log is full), or undefined. */
  publish: (event: Omit<PublishedEvent, 't'>, bytes: number) => string | undefined;
}

const MEMORY_NOOP_SUBCOMMANDS = new Set([
  'init',
  'recover',
  'backup',
  'restore',
  'audit',
  'stats',
  'metrics',
  'status',
  'optimize',
  'vacuum',
]);
export const NO_IMPLEMENTATION = 'no public implementation exists; the executor records the call and reports success';

export const LEVEL_ALIASES: Readonly<Record<string, MemoryLevel>> = { private: 'agent' };

export type Flags = Map<string, string>;

export interface ParsedArgs {
  flags: Flags;
  positional: string[];
}

export class UsageError extends Error {}

export function parseFlags(args: readonly string[], allowed: readonly string[]): ParsedArgs {
  const flags: Flags = new Map();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!allowed.includes(name))
      throw new UsageError(`unknown option --${name} (expected ${allowed.map((flag) => `--${flag}`).join(', ')})`);
    if (eq >= 0) flags.set(name, arg.slice(eq + 1));
    else if (i + 1 < args.length) flags.set(name, args[++i]!);
    else throw new UsageError(`option --${name} needs a value`);
  }
  return { flags, positional };
}

export function outcome(exitCode: number, stdout = '', stderr = ''): CommandOutcome {
  return { exitCode, stdout, stderr };
}

function parseLevel(text: string | undefined, notes: string[], { required }: { required: boolean }): MemoryLevel | undefined {
  if (text === undefined) {
    if (!required) return undefined;
    notes.push('no --level given; the runtime documents no default, the fake uses agent');
    return 'agent';
  }
  const alias = own(LEVEL_ALIASES, text);
  if (alias) {
    notes.push(`--level ${text} is read as ${alias}`);
    return alias;
  }
  if (!isMemoryLevel(text)) throw new UsageError(`invalid level '${text}' (expected agent, swarm or project)`);
  return text;
}

function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Arguments a memory command may have, and the size of each: the host does the work, so the hook's input is bounded. */
const MAX_MEMORY_ARGS = 64;
const MAX_MEMORY_ARG_BYTES = HOST_LIMITS.slashArgumentBytes;

/** A reply that would print more than a slash command may: the problem, or undefined. Counted before the JSON is built. */
function replyTooLarge(values: Iterable<string>): string | undefined {
  let characters = 0;
  for (const value of values) characters += value.length + 2;
  return characters > HOST_LIMITS.slashReplyBytes
    ? `the reply is too large (about ${characters} characters of values; a command's output is at most ${mebibytes(HOST_LIMITS.slashReplyBytes)}); narrow the pattern`
    : undefined;
}

export function sizeProblem(args: readonly string[]): string | undefined {
  if (args.length > MAX_MEMORY_ARGS) return `too many arguments (${args.length}; at most ${MAX_MEMORY_ARGS})`;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.length > MAX_MEMORY_ARG_BYTES)
      return `argument ${i + 1} is too long (${arg.length} characters; at most ${MAX_MEMORY_ARG_BYTES})`;
    const flag = /^--(key|pattern|prefix)(?:=(.*))?$/s.exec(arg);
    const value = flag ? (flag[2] ?? args[i + 1]) : undefined;
    if (flag && value !== undefined && value.length > MAX_MEMORY_KEY_LENGTH)
      return `--${flag[1] ?? ''} is too long (${value.length} characters; keys and patterns take at most ${MAX_MEMORY_KEY_LENGTH})`;
  }
  return undefined;
}

export async function runMemoryCommand(args: readonly string[], context: SlashCommandContext): Promise<CommandOutcome> {
  const [subcommand = '', ...rest] = args;
  const base = { kind: 'memory' as const, agentId: context.identity.agentId, runId: context.runId, action: subcommand, args: [...args] };
  const notes: string[] = [];
  const note = (): { note?: string } => (notes.length > 0 ? { note: notes.join('; ') } : {});
  const tooBig = sizeProblem(args);
  if (tooBig) {
    context.record({ ...base, args: base.args.slice(0, 8).map((arg) => traceString(arg)), outcome: 'invalid', exitCode: 2, note: tooBig });
    return outcome(2, '', `sqlite-memory: ${tooBig}\n`);
  }
  try {
    switch (subcommand) {
      case 'store': {
        const { flags } = parseFlags(rest, ['key', 'level', 'data', 'value', 'ttl']);
        const key = requireFlag(flags, 'key');
        const level = parseLevel(flags.get('level'), notes, { required: true })!;
        const value = flags.get('data') ?? flags.get('value');
        if (value === undefined) throw new UsageError('store needs --data');
        const ttl = flags.get('ttl');
        if (ttl !== undefined && !/^\d+$/.test(ttl)) throw new UsageError(`invalid --ttl '${ttl}' (expected seconds)`);
        if (!isJson(value)) notes.push('--data is not valid JSON; stored as text');
        const result = (await context.memory()).store(context.identity, { level, key, value, ...(ttl ? { ttlSeconds: Number(ttl) } : {}) });
        if (!result.ok) {
          context.record({ ...base, level, key, value, outcome: result.reason, exitCode: 1, ...note() });
          return outcome(1, '', `sqlite-memory: ${result.message}\n`);
        }
        context.record({ ...base, level, key, value, outcome: 'ok', exitCode: 0, ...note() });
        return outcome(0);
      }
      case 'retrieve':
      case 'get': {
        const { flags } = parseFlags(rest, ['key', 'level']);
        const key = requireFlag(flags, 'key');
        const level = parseLevel(flags.get('level'), notes, { required: true })!;
        const memory = await context.memory();
        if (/[*?]/.test(key)) {
          const matches = globMatcher(key);
          const entries = await filterInSlices(memory.visible(context.identity, { level }), (entry) => matches(entry.key));
          memory.noteQuery(context.identity, 'retrieve', level, key, entries.length);
          const tooLarge = replyTooLarge(entries.map((entry) => entry.value));
          if (tooLarge) {
            context.record({ ...base, level, pattern: key, count: entries.length, outcome: 'too-large', exitCode: 1, note: tooLarge });
            return outcome(1, '', `sqlite-memory: ${tooLarge}\n`);
          }
          context.record({ ...base, level, pattern: key, count: entries.length, outcome: 'ok', exitCode: 0, ...note() });
          return outcome(0, `${JSON.stringify(entries.map((entry) => jsonValue(entry.value)))}\n`);
        }
        const result = memory.retrieve(context.identity, { level, key });
        if (!result.ok) {
          context.record({ ...base, level, key, outcome: result.reason, exitCode: 1, ...note() });
          return outcome(1, '', `sqlite-memory: ${result.message}\n`);
        }
        context.record({ ...base, level, key, outcome: 'ok', exitCode: 0, ...note() });
        return outcome(0, `${result.entry.value}\n`);
      }
      case 'delete': {
        const { flags } = parseFlags(rest, ['key', 'level']);
        const key = requireFlag(flags, 'key');
        const level = parseLevel(flags.get('level'), notes, { required: true })!;
        const result = (await context.memory()).delete(context.identity, { level, key });
        if (!result.ok) {
          context.record({ ...base, level, key, outcome: result.reason, exitCode: 1, ...note() });
          return outcome(1, '', `sqlite-memory: ${result.message}\n`);
        }
        if (!result.deleted) notes.push('nothing to delete');
        context.record({ ...base, level, key, outcome: 'ok', exitCode: 0, ...note() });
        return outcome(0);
      }
      case 'list': {
        const { flags } = parseFlags(rest, ['level', 'pattern', 'prefix']);
        const level = parseLevel(flags.get('level'), notes, { required: false });
        const pattern = flags.get('pattern') ?? (flags.has('prefix') ? `${flags.get('prefix')!}*` : undefined);
        const entries = await query(context, level, pattern);
        context.record({
          ...base,
          ...(level ? { level } : {}),
          ...(pattern ? { pattern } : {}),
          count: entries.length,
          outcome: 'ok',
          exitCode: 0,
          ...note(),
        });
        return outcome(0, entries.map((entry) => `${entry.key}\n`).join(''));
      }
      case 'search':
      case 'query': {
        const { flags, positional } = parseFlags(rest, ['level', 'pattern', 'query', 'limit']);
        const level = parseLevel(flags.get('level'), notes, { required: false });
        const text = flags.get('pattern') ?? flags.get('query') ?? positional.join(' ');
        if (!text) throw new UsageError(`${subcommand} needs --pattern GLOB or --query TEXT`);
        const limit = flags.has('limit') ? Number(flags.get('limit')) : Infinity;
        const isGlob = flags.has('pattern') || /[*?]/.test(text);
        const memory = await context.memory();
        const keyMatches = isGlob ? globMatcher(text) : undefined;
        const entries = (
          await filterInSlices(memory.visible(context.identity, level ? { level } : {}), (entry) =>
            keyMatches ? keyMatches(entry.key) : entry.key.includes(text) || entry.value.includes(text),
          )
        ).slice(0, Number.isFinite(limit) ? limit : undefined);
        memory.noteQuery(context.identity, subcommand, level, text, entries.length);
        const tooLarge = replyTooLarge(entries.flatMap((entry) => [entry.value, entry.key]));
        if (tooLarge) {
          context.record({
            ...base,
            ...(level ? { level } : {}),
            pattern: text,
            count: entries.length,
            outcome: 'too-large',
            exitCode: 1,
            note: tooLarge,
          });
          return outcome(1, '', `sqlite-memory: ${tooLarge}\n`);
        }
        context.record({
          ...base,
          ...(level ? { level } : {}),
          pattern: text,
          count: entries.length,
          outcome: 'ok',
          exitCode: 0,
          ...note(),
        });
        return outcome(0, `${JSON.stringify(entries.map(publicEntry))}\n`);
      }
      default: {
        if (MEMORY_NOOP_SUBCOMMANDS.has(subcommand)) {
          context.record({ ...base, outcome: 'recorded', exitCode: 0, note: `/sqlite-memory ${subcommand}: ${NO_IMPLEMENTATION}` });
          return outcome(0);
        }
        throw new UsageError(subcommand ? `unknown subcommand '${subcommand}'` : 'missing subcommand');
      }
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const key = rawFlag(rest, 'key');
    const level = rawFlag(rest, 'level');
    context.record({
      ...base,
      ...(key !== undefined ? { key } : {}),
      ...(level !== undefined ? { level } : {}),
      outcome: 'invalid',
      exitCode: 2,
      note: error.message,
    });
    return outcome(
      2,
      '',
      `sqlite-memory: ${error.message}\nusage: /sqlite-memory store|retrieve|list|search|delete --key KEY --level agent|swarm|project [--data JSON]\n`,
    );
  }
}

async function query(context: SlashCommandContext, level: MemoryLevel | undefined, pattern: string | undefined): Promise<MemoryEntry[]> {
  const memory = await context.memory();
  const matches = pattern === undefined ? undefined : globMatcher(pattern);
  const entries = await filterInSlices(memory.visible(context.identity, level ? { level } : {}), (entry) => !matches || matches(entry.key));
  memory.noteQuery(context.identity, 'list', level, pattern, entries.length);
  return entries;
}

function publicEntry(entry: MemoryEntry): { key: string; level: MemoryLevel; owner: string; value: unknown } {
  return { key: entry.key, level: entry.level, owner: entry.owner, value: jsonValue(entry.value) };
}

/** A flag's value read without validating anything else, so a rejected call still shows its key in the trace. */
function rawFlag(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i]!.startsWith(`--${name}=`)) return args[i]!.slice(name.length + 3);
  }
  return undefined;
}

function requireFlag(flags: Flags, name: string): string {
  const value = flags.get(name);
  if (value === undefined || value === '') throw new UsageError(`missing --${name}`);
  return value;
}

export function runOtherCommand(name: string, args: readonly string[], context: SlashCommandContext): CommandOutcome {
  context.record({
    kind: 'command',
    agentId: context.identity.agentId,
    runId: context.runId,
    command: `/${name}`,
    args: [...args],
    exitCode: 0,
    note: `/${name}: ${NO_IMPLEMENTATION}`,
  });
  return outcome(0);
}
