/**
 * Sorted set commands (t_zset.c), BZPOPMIN and BZPOPMAX included; the value
 * itself is in sorted-set.ts, the blocking machinery in blocking.ts.
 */
import { blockingPop } from './blocking.js';
import { asciiLower } from './bytes.js';
import { command, type CommandSpec } from './commands.js';
import { fail, NOT_A_FLOAT, SYNTAX_ERROR } from './errors.js';
import { formatDouble, parseRedisDouble, parseScoreBound, rankWindow, requireLong, requirePositiveLong } from './numbers.js';
import { EMPTY_ARRAY, NULL_BULK, array, bulkBytes, integer, type RespReply } from './resp.js';
import { SortedSet, type ScoredMember } from './sorted-set.js';

const lower = asciiLower;

interface ZaddOptions {
  readonly nx: boolean;
  readonly xx: boolean;
  readonly gt: boolean;
  readonly lt: boolean;
  readonly ch: boolean;
  readonly incr: boolean;
  /** Where the score-member pairs start. */
  readonly scoreIndex: number;
  readonly scores: readonly number[];
}

/** ZADD's flags and scores, checked in the order `zaddGenericCommand` checks them (so the same error wins). */
function parseZaddArguments(args: readonly string[], forcedIncrement: boolean): ZaddOptions {
  let scoreIndex = 2;
  const flags = new Set<string>(forcedIncrement ? ['incr'] : []);
  if (!forcedIncrement) {
    while (scoreIndex < args.length && ['nx', 'xx', 'ch', 'incr', 'gt', 'lt'].includes(lower(args[scoreIndex]!))) {
      flags.add(lower(args[scoreIndex]!));
      scoreIndex++;
    }
  }
  const remaining = args.length - scoreIndex;
  if (remaining % 2 !== 0 || remaining === 0) fail(SYNTAX_ERROR);
  const pairs = remaining / 2;
  const [nx, xx, gt, lt, incr, ch] = ['nx', 'xx', 'gt', 'lt', 'incr', 'ch'].map((flag) => flags.has(flag)) as [
    boolean,
    boolean,
    boolean,
    boolean,
    boolean,
    boolean,
  ];
  if (nx && xx) fail('XX and NX options at the same time are not compatible');
  if ((gt && nx) || (lt && nx) || (gt && lt)) fail('GT, LT, and/or NX options at the same time are not compatible');
  if (incr && pairs > 1) fail('INCR option supports a single increment-element pair');
  const scores: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const score = parseRedisDouble(args[scoreIndex + i * 2]!);
    if (score === null) fail(NOT_A_FLOAT);
    scores.push(score);
  }
  return { nx, xx, gt, lt, ch, incr, scoreIndex, scores };
}

function zaddCommand(name: string, forcedIncrement: boolean): CommandSpec {
  return command(name, forcedIncrement ? 4 : -4, (args, ctx, db) => {
    const { nx, xx, gt, lt, ch, incr, scoreIndex, scores } = parseZaddArguments(args, forcedIncrement);
    const pairs = scores.length;
    const key = args[1]!;
    let zset = db.lookupTyped(key, 'zset');
    let added = 0;
    let updated = 0;
    let processed = 0;
    let lastScore = 0;
    if (!zset) {
      if (xx) return incr ? NULL_BULK : integer(0);
      zset = { type: 'zset', zset: new SortedSet() };
      db.set(key, zset);
    }
    for (let i = 0; i < pairs; i++) {
      const member = args[scoreIndex + i * 2 + 1]!;
      let score = scores[i]!;
      const current = zset.zset.score(member);
      if (current !== undefined) {
        if (nx) continue;
        if (incr) {
          score += current;
          if (Number.isNaN(score)) {
            db.deleteIfEmpty(key, zset);
            fail('resulting score is not a number (NaN)');
          }
        }
        if ((gt && score <= current) || (lt && score >= current)) continue;
        processed++;
        lastScore = score;
        if (score !== current) {
          zset.zset.set(member, score);
          updated++;
        }
      } else {
        if (xx) continue;
        zset.zset.set(member, score);
        added++;
        processed++;
        lastScore = score;
      }
    }
    db.deleteIfEmpty(key, zset);
    if (added > 0) ctx.store.signalKeyAsReady(db, key);
    if (incr) return processed > 0 ? bulkBytes(formatDouble(lastScore)) : NULL_BULK;
    return integer(ch ? added + updated : added);
  });
}

type RangeKind = 'rank' | 'score' | 'lex';

interface LexBound {
  readonly value: string;
  readonly kind: 'inclusive' | 'exclusive' | 'min' | 'max';
}

function parseLexBound(text: string): LexBound | null {
  if (text === '+') return { value: '', kind: 'max' };
  if (text === '-') return { value: '', kind: 'min' };
  if (text.startsWith('(')) return { value: text.slice(1), kind: 'exclusive' };
  if (text.startsWith('[')) return { value: text.slice(1), kind: 'inclusive' };
  return null;
}

function lexAtLeast(member: string, bound: LexBound): boolean {
  switch (bound.kind) {
    case 'min':
      return true;
    case 'max':
      return false;
    case 'inclusive':
      return member >= bound.value;
    case 'exclusive':
      return member > bound.value;
  }
}

function lexAtMost(member: string, bound: LexBound): boolean {
  switch (bound.kind) {
    case 'min':
      return false;
    case 'max':
      return true;
    case 'inclusive':
      return member <= bound.value;
    case 'exclusive':
      return member < bound.value;
  }
}

/**
 * Redis's `zrangeGenericCommand`: ZRANGE with its BYSCORE/BYLEX/REV/LIMIT/
 * WITHSCORES options, and the fixed-form ZREVRANGE, ZRANGEBYSCORE, ZREVRANGEBYSCORE.
 */
function zrangeCommand(name: string, fixedKind: RangeKind | null, fixedReverse: boolean | null): CommandSpec {
  return command(name, -4, (args, _ctx, db) => {
    let kind = fixedKind;
    let reverse = fixedReverse;
    let withScores = false;
    let offset = 0;
    let limit = -1;
    for (let j = 4; j < args.length; j++) {
      const option = lower(args[j]!);
      if (option === 'withscores') withScores = true;
      else if (option === 'limit' && args.length - j - 1 >= 2) {
        offset = requireLong(args[j + 1]!);
        limit = requireLong(args[j + 2]!);
        j += 2;
      } else if (reverse === null && option === 'rev') reverse = true;
      else if (kind === null && option === 'bylex') kind = 'lex';
      else if (kind === null && option === 'byscore') kind = 'score';
      else fail(SYNTAX_ERROR);
    }
    const rangeKind = kind ?? 'rank';
    const descending = reverse ?? false;
    // Redis tests the count, not the keyword: `LIMIT 0 -1` passes with a rank range.
    if (limit !== -1 && rangeKind === 'rank') {
      fail('syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
    }
    if (withScores && rangeKind === 'lex') fail('syntax error, WITHSCORES not supported in combination with BYLEX');
    // Reversed score and lex ranges are written max first.
    const [minText, maxText] = descending && rangeKind !== 'rank' ? [args[3]!, args[2]!] : [args[2]!, args[3]!];

    let select: (entries: readonly ScoredMember[]) => ScoredMember[];
    if (rangeKind === 'rank') {
      const startText = minText;
      const stopText = maxText;
      requireLong(startText);
      requireLong(stopText);
      select = (entries) => {
        const window = rankWindow(startText, stopText, entries.length);
        if (!window) return [];
        const ordered = descending ? [...entries].reverse() : entries;
        return ordered.slice(window[0], window[1] + 1);
      };
    } else if (rangeKind === 'score') {
      const min = parseScoreBound(minText);
      const max = parseScoreBound(maxText);
      if (!min || !max || Number.isNaN(min.value) || Number.isNaN(max.value)) fail('min or max is not a float');
      const inRange = (score: number): boolean =>
        (min.exclusive ? score > min.value : score >= min.value) && (max.exclusive ? score < max.value : score <= max.value);
      select = (entries) => {
        const ordered = descending ? [...entries].reverse() : entries;
        return applyLimit(
          ordered.filter((entry) => inRange(entry.score)),
          offset,
          limit,
          entries.length,
        );
      };
    } else {
      const min = parseLexBound(minText);
      const max = parseLexBound(maxText);
      if (!min || !max) fail('min or max not valid string range item');
      select = (entries) => {
        // Like Redis's listpack walk: start at the first member past the lower end
        // (upper end when reversed) and stop at the first one outside the range.
        const ordered = descending ? [...entries].reverse() : entries;
        const pastStart = (member: string): boolean => (descending ? lexAtMost(member, max) : lexAtLeast(member, min));
        const beforeEnd = (member: string): boolean => (descending ? lexAtLeast(member, min) : lexAtMost(member, max));
        const first = ordered.findIndex((entry) => pastStart(entry.member));
        const selected: ScoredMember[] = [];
        if (first >= 0) {
          for (let i = first; i < ordered.length && beforeEnd(ordered[i]!.member); i++) selected.push(ordered[i]!);
        }
        return applyLimit(selected, offset, limit, entries.length);
      };
    }

    const zset = db.lookupTyped(args[1]!, 'zset');
    if (!zset) return EMPTY_ARRAY;
    return scoredReply(select(zset.zset.entries()), withScores);
  });
}

/** LIMIT as Redis applies it: a negative offset selects nothing, a negative count means all. */
function applyLimit(entries: ScoredMember[], offset: number, limit: number, setSize: number): ScoredMember[] {
  if (offset < 0 || (offset > 0 && offset >= setSize)) return [];
  return entries.slice(offset, limit < 0 ? undefined : offset + limit);
}

function scoredReply(entries: readonly ScoredMember[], withScores: boolean): RespReply {
  const items: RespReply[] = [];
  for (const entry of entries) {
    items.push(bulkBytes(entry.member));
    if (withScores) items.push(bulkBytes(formatDouble(entry.score)));
  }
  return array(items);
}

function zpopCommand(name: string, lowest: boolean): CommandSpec {
  return command(name, -2, (args, _ctx, db) => {
    if (args.length > 3) fail(SYNTAX_ERROR);
    const count = args.length === 3 ? requirePositiveLong(args[2]!) : 1;
    const key = args[1]!;
    const zset = db.lookupTyped(key, 'zset');
    if (!zset || count === 0) return EMPTY_ARRAY;
    const popped = lowest ? zset.zset.popLowest(count) : zset.zset.popHighest(count);
    db.deleteIfEmpty(key, zset);
    return scoredReply(popped, true);
  });
}

function blockingZpop(name: string, lowest: boolean): CommandSpec {
  return blockingPop(name, 'zset', (value) => {
    const [entry] = lowest ? value.zset.popLowest(1) : value.zset.popHighest(1);
    return entry ? [bulkBytes(entry.member), bulkBytes(formatDouble(entry.score))] : null;
  });
}

export function sortedSetCommands(): CommandSpec[] {
  return [
    zaddCommand('zadd', false),
    zaddCommand('zincrby', true),
    zrangeCommand('zrange', null, null),
    zrangeCommand('zrevrange', 'rank', true),
    zrangeCommand('zrangebyscore', 'score', false),
    zrangeCommand('zrevrangebyscore', 'score', true),
    command('zscore', 3, (args, _ctx, db) => {
      const score = db.lookupTyped(args[1]!, 'zset')?.zset.score(args[2]!);
      return score === undefined ? NULL_BULK : bulkBytes(formatDouble(score));
    }),
    command('zcard', 2, (args, _ctx, db) => integer(db.lookupTyped(args[1]!, 'zset')?.zset.size ?? 0)),
    command('zrank', 3, (args, _ctx, db) => {
      const rank = db.lookupTyped(args[1]!, 'zset')?.zset.rank(args[2]!);
      return rank === undefined ? NULL_BULK : integer(rank);
    }),
    command('zcount', 4, (args, _ctx, db) => {
      const min = parseScoreBound(args[2]!);
      const max = parseScoreBound(args[3]!);
      if (!min || !max || Number.isNaN(min.value) || Number.isNaN(max.value)) fail('min or max is not a float');
      const zset = db.lookupTyped(args[1]!, 'zset');
      if (!zset) return integer(0);
      const count = zset.zset
        .entries()
        .filter(
          ({ score }) =>
            (min.exclusive ? score > min.value : score >= min.value) && (max.exclusive ? score < max.value : score <= max.value),
        ).length;
      return integer(count);
    }),
    command('zrem', -3, (args, _ctx, db) => {
      const zset = db.lookupTyped(args[1]!, 'zset');
      if (!zset) return integer(0);
      let removed = 0;
      for (const member of args.slice(2)) if (zset.zset.remove(member)) removed++;
      db.deleteIfEmpty(args[1]!, zset);
      return integer(removed);
    }),
    zpopCommand('zpopmin', true),
    zpopCommand('zpopmax', false),
    blockingZpop('bzpopmin', true),
    blockingZpop('bzpopmax', false),
  ];
}
