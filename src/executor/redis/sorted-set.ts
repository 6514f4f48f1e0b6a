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

/** A sorted set: members ordered by score, then bytewise, as Redis orders them. */
export class SortedSet {
  private readonly scores = new Map<string, number>();
  private readonly ordered: ScoredMember[] = [];

  get size(): number {
    return this.ordered.length;
  }

  score(member: string): number | undefined {
    return this.scores.get(member);
  }

  /** Sets a member's score, moving it to its new place. */
  set(member: string, rawScore: number): void {
    // Small sorted sets live in a listpack, which stores -0 as the integer 0;
    // Redis hands -0 back only for sets of over 128 members, which hooks never build.
    const score = rawScore === 0 ? 0 : rawScore;
    this.remove(member);
    const entry = { member, score };
    this.ordered.splice(this.insertionIndex(entry), 0, entry);
    this.scores.set(member, score);
  }

  remove(member: string): boolean {
    const score = this.scores.get(member);
    if (score === undefined) return false;
    const index = this.insertionIndex({ member, score });
    this.ordered.splice(index, 1);
    this.scores.delete(member);
    return true;
  }

  rank(member: string): number | undefined {
    const score = this.scores.get(member);
    return score === undefined ? undefined : this.insertionIndex({ member, score });
  }

  /** Members in order; the array is live, callers must not modify it. */
  entries(): readonly ScoredMember[] {
    return this.ordered;
  }

  popLowest(count: number): ScoredMember[] {
    const taken = this.ordered.slice(0, count);
    for (const entry of taken) this.remove(entry.member);
    return taken;
  }

  popHighest(count: number): ScoredMember[] {
    const taken = this.ordered.slice(Math.max(0, this.ordered.length - count)).reverse();
    for (const entry of taken) this.remove(entry.member);
    return taken;
  }

  /** First index whose entry is not below `entry` (the entry's own index when present). */
  private insertionIndex(entry: ScoredMember): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareScored(this.ordered[middle]!, entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
