/**
 * A connection's pub/sub subscriptions, and their share of the bound on the
 * names all connections of a server hold (HOST_LIMITS.redisSubscriptionBytes):
 * names a hook subscribes to live in the host, so they are counted like the
 * keyspace's keys, each with a fixed overhead.
 */
import { HOST_LIMITS } from '../host-limits.js';
import { fail, tooManySubscriptions } from './errors.js';
import type { RespReply } from './resp.js';

/** Bytes a subscription counts besides its name (the set entry), so a million one-byte names are not free. */
export const SUBSCRIPTION_OVERHEAD = 64;

function subscriptionCost(name: string): number {
  return name.length + SUBSCRIPTION_OVERHEAD;
}

/** Where the bytes of every connection's subscriptions are summed: the server. */
export interface SubscriptionCounter {
  subscriptionBytes: number;
}

export class Subscriptions {
  readonly channels = new Set<string>();
  readonly patterns = new Set<string>();

  constructor(private readonly counter: SubscriptionCounter) {}

  get count(): number {
    return this.channels.size + this.patterns.size;
  }

  /**
   * Adds `names` to `set` (these channels or patterns), all or none: if the
   * names all connections hold would pass the session's bound, it throws the
   * error reply and nothing is subscribed. `replyFor` answers each name once
   * it is added, so each reply has the count after it.
   */
  add(set: Set<string>, names: readonly string[], replyFor: (name: string) => RespReply): RespReply[] {
    const added = new Set<string>();
    let bytes = 0;
    for (const name of names) {
      if (set.has(name) || added.has(name)) continue;
      added.add(name);
      bytes += subscriptionCost(name);
    }
    const total = this.counter.subscriptionBytes + bytes;
    if (bytes > 0 && total > HOST_LIMITS.redisSubscriptionBytes) fail(tooManySubscriptions(total));
    return names.map((name) => {
      if (!set.has(name)) {
        set.add(name);
        this.counter.subscriptionBytes += subscriptionCost(name);
      }
      return replyFor(name);
    });
  }

  remove(set: Set<string>, name: string): void {
    if (set.delete(name)) this.counter.subscriptionBytes -= subscriptionCost(name);
  }

  /** RESET and the end of the connection: every subscription's bytes go back to the server. */
  clear(): void {
    for (const set of [this.channels, this.patterns]) {
      for (const name of set) this.counter.subscriptionBytes -= subscriptionCost(name);
      set.clear();
    }
  }
}
