import type { Range } from '../diagnostics.js';
import { ScriptSourceMap } from '../hooks/source-map.js';
import type { HookScript } from '../hooks/types.js';
import { editDistance } from '../text/suggest.js';
import type { CommandMatcher } from './command-site.js';
import type { HookRunRecord } from './trace.js';
import type { LoadedProfile } from './world.js';

/**
 * Which Redis commands write, read or block, and where in a hook an
 * operation came from: the simulator's findings point at script lines.
 */

export const REDIS_WRITES = new Set([
  'set',
  'setex',
  'psetex',
  'setnx',
  'mset',
  'msetnx',
  'getset',
  'append',
  'incr',
  'incrby',
  'incrbyfloat',
  'decr',
  'decrby',
  'lpush',
  'rpush',
  'lpushx',
  'rpushx',
  'lset',
  'linsert',
  'rpoplpush',
  'lmove',
  'hset',
  'hmset',
  'hsetnx',
  'hincrby',
  'hincrbyfloat',
  'sadd',
  'smove',
  'zadd',
  'zincrby',
  'xadd',
  'pfadd',
  'setrange',
  'copy',
  'rename',
  'renamenx',
  'restore',
  'publish',
]);
export const REDIS_READS = new Set([
  'get',
  'getdel',
  'getex',
  'hget',
  'hgetall',
  'hmget',
  'hkeys',
  'hvals',
  'lrange',
  'lindex',
  'llen',
  'lpop',
  'rpop',
  'smembers',
  'scard',
  'sismember',
  'zrange',
  'zscore',
  'zcard',
  'strlen',
  'exists',
  'blpop',
  'brpop',
  'xrange',
  'xread',
]);
export const REDIS_BLOCKING = new Set(['blpop', 'brpop', 'brpoplpush', 'blmove', 'bzpopmin', 'bzpopmax', 'blmpop', 'bzmpop']);

export interface KeyedWrite {
  key: string;
}

export function closestKey<W extends KeyedWrite>(key: string, writes: readonly W[]): W | undefined {
  let best: W | undefined;
  let bestScore = Infinity;
  for (const write of writes) {
    const score = editDistance(key, write.key);
    if (score < bestScore) {
      best = write;
      bestScore = score;
    }
  }
  // A typo, or a segment renamed.
  if (best && bestScore <= Math.max(3, Math.floor(key.length / 3))) return best;
  // A segment added or left out: `agent:a:context` for `agent:a:blocking:context`.
  return writes.find((write) => segmentsWithin(key, write.key) || segmentsWithin(write.key, key));
}

/** Whether `short`'s `:`-segments appear in order in `long`, with the same first and last segment. */
export function segmentsWithin(short: string, long: string): boolean {
  const a = short.split(':');
  const b = long.split(':');
  if (a.length >= b.length || a.length < 2 || a[0] !== b[0] || a.at(-1) !== b.at(-1)) return false;
  let j = 0;
  for (const segment of b) if (segment === a[j]) j++;
  return j === a.length;
}

/**
 * The fallback when the hook's syntax tree has no command for an operation
 * (it ran inside `eval` or `bash -c '…'`; see command-site.ts for the rest):
 * the script line that most likely ran it — a line with the command, then
 * the action word, then a word that matches the key once `${VAR}`, `$VAR`
 * and `$(...)` are read as wildcards — from where the command's name stands
 * on it. Continuation lines (`\`) count as part of the command's line.
 * Falls back to the hook's key.
 */
export function locateInHook(hook: HookScript, profile: LoadedProfile, matcher: CommandMatcher): Range {
  const lines = hook.text.split('\n');
  let best: { line: number; score: number; command: string } | undefined;
  for (let index = 0; index < lines.length; index++) {
    let joined = lines[index]!;
    for (let next = index; /\\\s*$/.test(lines[next] ?? '') && next + 1 < lines.length; next++) joined += ` ${lines[next + 1]!}`;
    const command = matcher.commands.find((candidate) => joined.includes(candidate));
    if (/^\s*#/.test(joined) || command === undefined) continue;
    let score = 1;
    if (matcher.words?.every((word) => new RegExp(`\\b${escapeRegExp(word)}\\b`, 'i').test(joined))) score += 1;
    if (matcher.key !== undefined && wordsOf(joined).some((word) => wordPattern(word).test(matcher.key!))) score += 2;
    if (!best || score > best.score) best = { line: index + 1, score, command };
  }
  if (!best || !profile.lines) return hook.keyRange;
  const text = lines[best.line - 1]!;
  const at = text.indexOf(best.command);
  const start = at === -1 ? text.length - text.trimStart().length + 1 : at + 1;
  const mapped = new ScriptSourceMap(hook, profile.lines).mapRange({
    line: best.line,
    column: start,
    endLine: best.line,
    endColumn: text.trimEnd().length + 1,
  });
  return mapped.range;
}

function wordsOf(line: string): string[] {
  return (line.match(/"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+(?:"(?:[^"\\]|\\.)*"[^\s"']*)*/g) ?? []).map((word) =>
    word.replace(/^["']|["']$/g, '').replace(/^--[a-z-]+=/, ''),
  );
}

function wordPattern(word: string): RegExp {
  const parts = word.split(/(\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*)/);
  const source = parts.map((part, i) => (i % 2 === 1 ? '.*' : escapeRegExp(part.replace(/["']/g, '')))).join('');
  return new RegExp(`^${source}$`);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A message as several agents share it: the agent's own id, and its
 * iteration where it stands as a key segment, written as the variables
 * they came from.
 */
export function generalize(message: string, run: HookRunRecord): string {
  const escaped = escapeRegExp(run.agentId);
  let general = message.replace(new RegExp(`(?<![A-Za-z0-9_.-])${escaped}(?![A-Za-z0-9_-])`, 'g'), '${AGENT_ID}');
  // Timestamps (`$(date +%s)` in a key) differ per run, not per cause.
  general = general.replace(/\b\d{9,}\b/g, '{TIMESTAMP}');
  if (run.iteration !== undefined) general = general.replace(new RegExp(`(?<=:)${run.iteration}(?=[:\`])`, 'g'), '${ITERATION}');
  return general;
}

/** A stream's first non-empty line, clipped: the reason a failure message gives. */
export function firstLine(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
