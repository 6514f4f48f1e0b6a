/** The sorted set value: members ordered by score, then bytewise (t_zset.c's ordering). */

export interface ScoredMember {
  readonly member: string;
  readonly score: number;
}

function compareScored(a: ScoredMember, b: ScoredMember): number {
  if (a.score < b.score) return -1;
  if (a.score > b.score) return 1;
  return a.member < b.member ? -1 : a.member > b.member ? 1 : 0;
}

/**
 * A sorted set: members ordered by score, then bytewise, as Redis orders them.
 *
 * Changes are not spliced into the order one at a time (a ZADD or ZREM of
 * 32,000 members on a set of 400,000 moved the whole array for each, which
 * held the executor's event loop for seconds a command): they are noted, and
 * the order is brought up to date the next time it is read, in one pass
 * (stale entries dropped, the sorted additions merged in).
 */
export class SortedSet {
  /** Each member's current entry: the truth, which `ordered` catches up with. */
  private readonly current = new Map<string, ScoredMember>();
  /** Entries in order as of the last read; some may since have been replaced or removed. */
  private ordered: ScoredMember[] = [];
  /** Entries set since the last read, in no order. */
  private added: ScoredMember[] = [];
  /** Set when an entry of `ordered` was replaced or removed since the last read. */
  private stale = false;

  get size(): number {
    return this.current.size;
  }

  score(member: string): number | undefined {
    return this.current.get(member)?.score;
  }

  /** Sets a member's score, moving it to its new place. */
  set(member: string, rawScore: number): void {
    // Small sorted sets live in a listpack, which stores -0 as the integer 0;
    // Redis hands -0 back only for sets of over 128 members, which hooks never build.
    const score = rawScore === 0 ? 0 : rawScore;
    const entry = { member, score };
    if (this.current.has(member)) this.stale = true;
    this.current.set(member, entry);
    this.added.push(entry);
    // The same members set over and over without a read must not pile up entries.
    if (this.added.length > 2 * this.current.size + 1024) this.inOrder();
  }

  remove(member: string): boolean {
    if (!this.current.delete(member)) return false;
    this.stale = true;
    return true;
  }

  rank(member: string): number | undefined {
    const entry = this.current.get(member);
    return entry === undefined ? undefined : this.insertionIndex(entry);
  }

  /** Members in order; the array is live, callers must not modify it. */
  entries(): readonly ScoredMember[] {
    return this.inOrder();
  }

  popLowest(count: number): ScoredMember[] {
    const ordered = this.inOrder();
    const taken = ordered.slice(0, count);
    for (const entry of taken) this.current.delete(entry.member);
    this.ordered = ordered.slice(taken.length);
    return taken;
  }

  popHighest(count: number): ScoredMember[] {
    const ordered = this.inOrder();
    const kept = Math.max(0, ordered.length - count);
    const taken = ordered.slice(kept).reverse();
    for (const entry of taken) this.current.delete(entry.member);
    this.ordered = ordered.slice(0, kept);
    return taken;
  }

  /** The order brought up to date: O(n + k log k) for k changes, however many there were. */
  private inOrder(): ScoredMember[] {
    if (this.added.length === 0 && !this.stale) return this.ordered;
    const isCurrent = (entry: ScoredMember): boolean => this.current.get(entry.member) === entry;
    const kept = this.stale ? this.ordered.filter(isCurrent) : this.ordered;
    const added = this.added.filter(isCurrent).sort(compareScored);
    const merged: ScoredMember[] = [];
    let i = 0;
    let j = 0;
    while (i < kept.length && j < added.length) merged.push(compareScored(kept[i]!, added[j]!) <= 0 ? kept[i++]! : added[j++]!);
    while (i < kept.length) merged.push(kept[i++]!);
    while (j < added.length) merged.push(added[j++]!);
    this.ordered = merged;
    this.added = [];
    this.stale = false;
    return merged;
  }

  /** First index whose entry is not below `entry` (the entry's own index when present). */
  private insertionIndex(entry: ScoredMember): number {
    const ordered = this.inOrder();
    let low = 0;
    let high = ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareScored(ordered[middle]!, entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
