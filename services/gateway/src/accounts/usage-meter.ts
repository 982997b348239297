import type { Logger } from '@utility-api/infra';
import type { Clock } from '../runtime/clock.ts';
import { monthOf, type UsageCount, type UsageMetric } from './account-model.ts';
import type { AccountStore } from './account-store.ts';

/** How often counts go to the store unless USAGE_FLUSH_MS says otherwise. */
export const DEFAULT_USAGE_FLUSH_MS = 5000;
/**
 * Distinct (account, key, day, metric, label) entries held between flushes. A deployment has a
 * dozen labels per key and day, so this is tens of thousands of busy keys; past it (the store down
 * for a long time) new entries are dropped and counted, so a store outage cannot grow the heap
 * without bound.
 */
const MAX_ENTRIES = 100_000;
const DAY_MS = 86_400_000;

/** The quota's view of an account's month that this gateway has not flushed yet. */
interface UnflushedMonth {
  month: string;
  requests: number;
  cards: number;
}

/** What a flush hands to the store, and what it took out of the running totals. */
interface FlushBatch {
  counts: UsageCount[];
  lastUsed: Map<string, string>;
}

/**
 * Counts usage in memory and writes it to the store every few seconds, never per request: a
 * request costs a Map lookup and an increment. Counts are per account, key, UTC day, metric and
 * label (`requests`, `rate_limited` and `errors` by operation id, `cards` by format), plus when
 * each key was last used.
 *
 * A flush takes the whole map and hands it to `store.addUsage`, one call (a transaction, or a
 * pipeline on the account's Redis slot) per account; when one fails, its counts go back into the
 * map for the next flush, so a store outage delays counts but loses none (until MAX_ENTRIES). A
 * crash loses what was counted since the last flush.
 *
 * For the quota it also keeps each account's unflushed requests and cards of the current month,
 * which `UsageMeter.unflushed` adds to the totals read from the store.
 */
export class UsageMeter {
  readonly #store: AccountStore;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #maxEntries: number;
  #entries = new Map<string, UsageCount>();
  #lastUsed = new Map<string, number>();
  readonly #unflushed = new Map<string, UnflushedMonth>();
  /** The UTC day of the last count, and the epoch ms at which it ends: one string per day, not per request. */
  #day = '';
  #dayStartsAt = 0;
  #dayEndsAt = 0;
  #dropped = 0;
  #droppedLogged = 0;
  #failing = false;
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #afterFlush: (() => Promise<() => void>)[] = [];

  constructor(options: { store: AccountStore; clock: Clock; logger: Logger; flushMs: number; maxEntries?: number }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#maxEntries = options.maxEntries ?? MAX_ENTRIES;
    this.#timer = setInterval(() => void this.flush(), options.flushMs);
    // The last counts are written by close() at shutdown; the timer alone must not keep a process alive.
    this.#timer.unref();
  }

  /** Counts one `metric` of `label` for the key now (UTC day of the gateway's clock). */
  count(accountId: string, keyId: string, metric: UsageMetric, label: string): void {
    const now = this.#clock.now();
    const day = this.#dayAt(now);
    const id = `${accountId}\n${keyId}\n${day}\n${metric}\n${label}`;
    const entry = this.#entries.get(id);
    if (entry !== undefined) entry.count += 1;
    else if (this.#entries.size < this.#maxEntries) this.#entries.set(id, { accountId, keyId, day, metric, label, count: 1 });
    else {
      this.#dropped += 1;
      return;
    }
    if (metric === 'requests' || metric === 'cards') {
      const month = day.slice(0, 7);
      let unflushed = this.#unflushed.get(accountId);
      if (unflushed === undefined || unflushed.month !== month) this.#unflushed.set(accountId, (unflushed = { month, requests: 0, cards: 0 }));
      unflushed[metric] += 1;
    }
  }

  /** Records that the key was used now. */
  touch(keyId: string): void {
    this.#lastUsed.set(keyId, this.#clock.now());
  }

  /** The account's requests and cards of `month` counted here and not yet in the store. */
  unflushed(accountId: string, month: string): { requests: number; cards: number } {
    const unflushed = this.#unflushed.get(accountId);
    return unflushed?.month === month ? unflushed : { requests: 0, cards: 0 };
  }

  /** The key's counts of the days `fromDay` to `toDay` not yet in the store (for GET /v1/account). */
  unflushedOfKey(accountId: string, keyId: string, fromDay: string, toDay: string): UsageCount[] {
    const found: UsageCount[] = [];
    for (const entry of this.#entries.values()) {
      if (entry.keyId === keyId && entry.accountId === accountId && entry.day >= fromDay && entry.day <= toDay) found.push({ ...entry });
    }
    return found;
  }

  /** When the key was last used as far as this gateway knows (epoch ms), flushed or not. */
  lastUsedHere(keyId: string): number | undefined {
    return this.#lastUsed.get(keyId);
  }

  /**
   * Runs after every flush, successful or not: the quota re-reads the store's totals then. The
   * listener reads, and returns what to apply: that runs in the same turn as the written counts
   * leave the unflushed ones, so no request sees them counted twice or not at all.
   */
  onFlushed(listener: () => Promise<() => void>): void {
    this.#afterFlush.push(listener);
  }

  /** Counts dropped because MAX_ENTRIES was reached, since the start. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Writes what was counted to the store. One flush at a time: a call during a flush waits for it
   * and then flushes what came in since, so close() after a timer flush still writes everything.
   */
  flush(): Promise<void> {
    const previous = this.#flushing ?? Promise.resolve();
    const next: Promise<void> = previous.then(() => this.#flushOnce()).finally(() => {
      if (this.#flushing === next) this.#flushing = undefined;
    });
    this.#flushing = next;
    return next;
  }

  /** Stops the timer and writes the last counts (the lifecycle calls this at shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  async #flushOnce(): Promise<void> {
    const batch = this.#take();
    // One write per account, then one for the keys' last use: in a Redis Cluster an account's
    // counts share a slot and one pipeline can carry them, while accounts (and the last-used hash)
    // live on different nodes. A failed write puts back only its own counts, so a retry never
    // adds twice what another account's write already stored.
    const byAccount = Map.groupBy(batch.counts, (count) => count.accountId);
    const writes = [
      ...[...byAccount.values()].map((counts) => ({ counts, lastUsed: new Map<string, string>() })),
      ...(batch.lastUsed.size > 0 ? [{ counts: [], lastUsed: batch.lastUsed }] : []),
    ];
    const outcomes = await Promise.allSettled(writes.map((write) => this.#store.addUsage(write.counts, write.lastUsed)));
    const written: UsageCount[] = [];
    let failure: unknown;
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') written.push(...writes[index]!.counts);
      else {
        failure ??= outcome.reason;
        this.#putBack(writes[index]!);
      }
    }
    if (failure !== undefined) {
      // Once per outage: the next flush comes in a few seconds.
      if (!this.#failing) this.#logger.warn({ err: failure, entries: batch.counts.length - written.length }, 'usage: could not write counts, keeping them for the next flush');
      this.#failing = true;
    } else if (this.#failing && writes.length > 0) {
      this.#logger.info('usage: store reachable again, counts written');
      this.#failing = false;
    }
    if (this.#dropped > this.#droppedLogged) {
      this.#logger.warn({ dropped: this.#dropped - this.#droppedLogged }, `usage: more than ${this.#maxEntries} distinct counts waiting for the store; counts beyond were dropped`);
      this.#droppedLogged = this.#dropped;
    }
    const noop = () => {};
    const apply = await Promise.all(this.#afterFlush.map((listener) => listener().catch((error: unknown) => {
      this.#logger.warn({ err: error }, 'usage: after-flush step failed');
      return noop;
    })));
    this.#settle(written);
    for (const step of apply) step();
  }

  #take(): FlushBatch {
    const counts = [...this.#entries.values()];
    this.#entries = new Map();
    const lastUsed = new Map([...this.#lastUsed].map(([keyId, at]) => [keyId, new Date(at).toISOString()]));
    this.#lastUsed = new Map();
    return { counts, lastUsed };
  }

  /** The written counts are in the store's month totals now: they leave the unflushed ones. */
  #settle(counts: readonly UsageCount[]): void {
    for (const count of counts) {
      if (count.metric !== 'requests' && count.metric !== 'cards') continue;
      const unflushed = this.#unflushed.get(count.accountId);
      if (unflushed?.month !== monthOf(count.day)) continue;
      unflushed[count.metric] -= count.count;
    }
    for (const [accountId, unflushed] of this.#unflushed) if (unflushed.requests <= 0 && unflushed.cards <= 0) this.#unflushed.delete(accountId);
  }

  /** A failed flush's counts rejoin those counted meanwhile; entries beyond the cap are dropped and counted. */
  #putBack(batch: FlushBatch): void {
    for (const count of batch.counts) {
      const id = `${count.accountId}\n${count.keyId}\n${count.day}\n${count.metric}\n${count.label}`;
      const entry = this.#entries.get(id);
      if (entry !== undefined) entry.count += count.count;
      else if (this.#entries.size < this.#maxEntries) this.#entries.set(id, count);
      else {
        this.#dropped += count.count;
        this.#settle([count]);
      }
    }
    for (const [keyId, at] of batch.lastUsed) {
      const atMs = Date.parse(at);
      if ((this.#lastUsed.get(keyId) ?? 0) < atMs) this.#lastUsed.set(keyId, atMs);
    }
  }

  #dayAt(now: number): string {
    if (now < this.#dayStartsAt || now >= this.#dayEndsAt) {
      this.#dayStartsAt = now - (now % DAY_MS);
      this.#dayEndsAt = this.#dayStartsAt + DAY_MS;
      this.#day = new Date(this.#dayStartsAt).toISOString().slice(0, 10);
    }
    return this.#day;
  }
}
