import type { Logger } from '@utility-api/infra';
import type { Clock } from '../runtime/clock.ts';
import { monthOf, type UsageCount, type UsageMetric } from './account-model.ts';
import type { AccountStore } from './account-store.ts';

/** How often counts go to the store unless USAGE_FLUSH_MS says otherwise. */
export const DEFAULT_USAGE_FLUSH_MS = 5000;
/**
 * Distinct (account, key, day, metric, label) entries held between flushes. A deployment has a
 * dozen labels per key and day, so this is thousands of busy keys; past it (the store down for a
 * long time) new entries are dropped and counted, so a store outage cannot grow the heap without
 * bound.
 */
const MAX_ENTRIES = 100_000;
const DAY_MS = 86_400_000;

/** One key's counts of one UTC day, by metric and label, and its last use. */
interface KeySlot {
  accountId: string;
  keyId: string;
  day: string;
  lastUsedAt: number;
  byMetric: Map<UsageMetric, Map<string, UsageCount>>;
}

/** The quota's view of an account's month that this gateway has not flushed yet. */
interface UnflushedMonth {
  month: string;
  requests: number;
  cards: number;
}

/** One write to the store: an account's counts, or the keys' last use. */
interface StoreWrite {
  counts: UsageCount[];
  lastUsed: Map<string, string>;
}

/**
 * Counts usage in memory and writes it to the store every few seconds, never per request. A count
 * is two or three Map lookups on strings the router made once (the key id, the metric, the
 * operation id) and an increment: no string is built per request. Counts are per account, key,
 * UTC day, metric and label (`requests`, `rate_limited` and `errors` by operation id, `cards` by
 * format), plus when each key was last used.
 *
 * A flush takes everything counted and hands it to `store.addUsage`, one call (a transaction, or
 * a pipeline on the account's Redis slot) per account; when one fails, its counts are kept for the
 * next flush, so a store outage delays counts but loses none (until MAX_ENTRIES). A crash loses
 * what was counted since the last flush.
 *
 * For the quota it also keeps each account's unflushed requests and cards of the current month,
 * which the quota adds to the totals read from the store.
 */
export class UsageMeter {
  readonly #store: AccountStore;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #maxEntries: number;
  /** Today's slots by key id; a key's slot of an earlier day waits in #retired. */
  #slots = new Map<string, KeySlot>();
  #retired: KeySlot[] = [];
  /** Counts of failed writes, waiting for the next flush (only after a failure: keyed by a built string). */
  #carried = new Map<string, UsageCount>();
  #carriedLastUsed = new Map<string, number>();
  #entries = 0;
  readonly #unflushed = new Map<string, UnflushedMonth>();
  /** The UTC day of the last count, and the epoch ms at which it ends: one string per day, not per request. */
  #day = '';
  #dayStartsAt = 0;
  #dayEndsAt = 0;
  #dropped = 0;
  #droppedLogged = 0;
  #failing = false;
  /** Flushes, and reads that must not see one half done, run one after another on this chain. */
  #serial: Promise<unknown> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;
  readonly #afterFlush: ((written: readonly UsageCount[]) => Promise<() => void>)[] = [];

  constructor(options: { store: AccountStore; clock: Clock; logger: Logger; flushMs: number; maxEntries?: number }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#maxEntries = options.maxEntries ?? MAX_ENTRIES;
    this.#timer = setInterval(() => void this.flush(), options.flushMs);
    // The last counts are written by close() at shutdown; the timer alone must not keep a process alive.
    this.#timer.unref();
  }

  /** Counts one `metric` of `label` for the key now (the UTC day of the gateway's clock); the key was used now. */
  count(accountId: string, keyId: string, metric: UsageMetric, label: string): void {
    const now = this.#clock.now();
    const day = this.#dayAt(now);
    let slot = this.#slots.get(keyId);
    if (slot === undefined || slot.day !== day || slot.accountId !== accountId) {
      if (slot !== undefined) this.#retired.push(slot);
      slot = { accountId, keyId, day, lastUsedAt: now, byMetric: new Map() };
      this.#slots.set(keyId, slot);
    }
    slot.lastUsedAt = now;
    let labels = slot.byMetric.get(metric);
    if (labels === undefined) slot.byMetric.set(metric, (labels = new Map<string, UsageCount>()));
    const entry = labels.get(label);
    if (entry !== undefined) entry.count += 1;
    else if (this.#entries < this.#maxEntries) {
      labels.set(label, { accountId, keyId, day, metric, label, count: 1 });
      this.#entries += 1;
    } else {
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

  /** The account's requests and cards of `month` counted here and not yet in the store. */
  unflushed(accountId: string, month: string): { requests: number; cards: number } {
    const unflushed = this.#unflushed.get(accountId);
    return unflushed?.month === month ? { requests: unflushed.requests, cards: unflushed.cards } : { requests: 0, cards: 0 };
  }

  /** The key's counts of the days `fromDay` to `toDay` not yet in the store (for GET /v1/account). */
  unflushedOfKey(accountId: string, keyId: string, fromDay: string, toDay: string): UsageCount[] {
    const inRange = (count: UsageCount) => count.keyId === keyId && count.accountId === accountId && count.day >= fromDay && count.day <= toDay;
    const slots = [...this.#retired, ...(this.#slots.has(keyId) ? [this.#slots.get(keyId)!] : [])];
    return [...slots.flatMap((slot) => slotCounts(slot)), ...this.#carried.values()].filter(inRange).map((count) => ({ ...count }));
  }

  /** When the key was last used as far as this gateway knows (epoch ms), flushed or not. */
  lastUsedHere(keyId: string): number | undefined {
    return this.#slots.get(keyId)?.lastUsedAt ?? this.#carriedLastUsed.get(keyId);
  }

  /**
   * Runs after every flush, successful or not, with the counts it wrote: the quota re-reads the
   * store's totals then. The listener reads, and returns what to apply: that runs in the same turn
   * as the written counts leave the unflushed ones, so no request sees them counted twice or not
   * at all.
   */
  onFlushed(listener: (written: readonly UsageCount[]) => Promise<() => void>): void {
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
    return this.exclusive(() => this.#flushOnce());
  }

  /**
   * Runs `read` between flushes: what it reads from the store and from this meter then adds up,
   * with no count on its way from one to the other (GET /v1/account).
   */
  exclusive<T>(read: () => Promise<T>): Promise<T> {
    const result = this.#serial.then(read);
    this.#serial = result.catch(() => undefined);
    return result;
  }

  /** Stops the timer and writes the last counts (the lifecycle calls this at shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  async #flushOnce(): Promise<void> {
    const writes = this.#take();
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
      if (!this.#failing) this.#logger.warn({ err: failure, entries: this.#carried.size }, 'usage: could not write counts, keeping them for the next flush');
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
    const apply = await Promise.all(this.#afterFlush.map((listener) => listener(written).catch((error: unknown) => {
      this.#logger.warn({ err: error }, 'usage: after-flush step failed');
      return noop;
    })));
    this.#settle(written);
    for (const step of apply) step();
  }

  /**
   * Everything counted, as the store writes it: one write per account, then one for the keys'
   * last use. In a Redis Cluster an account's counts share a slot, so one pipeline carries them,
   * while accounts (and the last-used hash) live on different nodes; and a failed write puts back
   * only its own counts, so a retry never adds twice what another account's write stored.
   */
  #take(): StoreWrite[] {
    const slots = [...this.#retired, ...this.#slots.values()];
    this.#slots = new Map();
    this.#retired = [];
    const counts = [...slots.flatMap((slot) => slotCounts(slot)), ...this.#carried.values()];
    this.#carried = new Map();
    this.#entries = 0;
    const lastUsedAt = this.#carriedLastUsed;
    this.#carriedLastUsed = new Map();
    for (const slot of slots) if ((lastUsedAt.get(slot.keyId) ?? 0) < slot.lastUsedAt) lastUsedAt.set(slot.keyId, slot.lastUsedAt);
    const writes: StoreWrite[] = [...Map.groupBy(counts, (count) => count.accountId).values()].map((accountCounts) => ({ counts: accountCounts, lastUsed: new Map() }));
    if (lastUsedAt.size > 0) writes.push({ counts: [], lastUsed: new Map([...lastUsedAt].map(([keyId, at]) => [keyId, new Date(at).toISOString()])) });
    return writes;
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

  /** A failed write's counts wait for the next flush; entries beyond the cap are dropped and counted. */
  #putBack(write: StoreWrite): void {
    for (const count of write.counts) {
      const id = `${count.accountId}\n${count.keyId}\n${count.day}\n${count.metric}\n${count.label}`;
      const entry = this.#carried.get(id);
      if (entry !== undefined) entry.count += count.count;
      else if (this.#entries < this.#maxEntries) {
        this.#carried.set(id, count);
        this.#entries += 1;
      } else {
        this.#dropped += count.count;
        this.#settle([count]);
      }
    }
    for (const [keyId, at] of write.lastUsed) {
      const atMs = Date.parse(at);
      if ((this.#carriedLastUsed.get(keyId) ?? 0) < atMs) this.#carriedLastUsed.set(keyId, atMs);
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

function slotCounts(slot: KeySlot): UsageCount[] {
  return [...slot.byMetric.values()].flatMap((labels) => [...labels.values()]);
}
