import { withDeadline, type Logger } from '@utility-api/infra';
import { ApiError } from '../http/api-error.ts';
import type { Clock } from '../runtime/clock.ts';
import { monthOf, type QuotaKind, type UsageCount } from './account-model.ts';
import type { AccountStore } from './account-store.ts';
import { planOf, unlimited, type Plan, type Plans } from './plans.ts';
import type { UsageMeter } from './usage-meter.ts';

/** A first look at an account must not hold a light request long when the store is slow: past this the request is let through. */
const LOAD_TIMEOUT_MS = 200;
/**
 * A card's unit of quota is taken in the store before it is queued, and the card waits for it up to
 * this (a card takes longer than that to draw anyway); a store that does not answer by then is a
 * `503 store_unavailable`, never a card let through uncounted.
 */
const CARD_QUOTA_TIMEOUT_MS = 2000;
/** A store that failed a lease is asked again after this; meanwhile the account's requests go through uncounted by the lease. */
const LEASE_RETRY_MS = 1000;
/** Accounts with no request here for this long leave the cache (and are read afresh when they come back). */
const IDLE_EVICT_MS = 10 * 60_000;
/** Accounts remembered at once; beyond, the least recently loaded are dropped first. */
const MAX_ACCOUNTS = 50_000;
/** A gateway leases this share of an account's monthly requests quota at a time... */
const REQUEST_LEASE_SHARE = 0.01;
/** ...and at most this many: the most requests one gateway can hold unspent for one account. */
export const MAX_REQUEST_LEASE = 100;

/** The requests a gateway leases at once for an account on `plan`: 1 % of its quota, 1 to MAX_REQUEST_LEASE. */
export function requestLeaseSize(plan: Plan): number {
  return Math.max(1, Math.min(MAX_REQUEST_LEASE, Math.ceil(plan.requests * REQUEST_LEASE_SHARE)));
}

/** What the quota knows of an account: its plan, the month's totals the store had at the last read, and this gateway's lease. */
interface AccountQuotaState {
  plan: Plan;
  month: string;
  stored: { requests: number; cards: number };
  activeAt: number;
  /** Whether the store answered the last read; when it did not, a light request is not refused on a guess. */
  known: boolean;
  /** Requests of `month` leased from the store and not yet spent here. */
  lease: number;
  /** The store had nothing left to lease: requests are refused from memory until the next refresh asks again. */
  exhausted: boolean;
  /** A lease being asked for: requests arriving meanwhile wait for it instead of asking too. */
  leasing: Promise<void> | undefined;
  /** performance.now() before which a failed store is not asked for a lease again. */
  leaseRetryAt: number;
}

/** One card's unit of the account's cards quota, taken in the store; given back unless the card was drawn. */
export interface CardUnit {
  /** The card was not drawn (it failed before drawing, or never started): its unit goes back to the account. */
  giveBack(): void;
}

/** The first millisecond of the UTC month after the one `now` is in. */
export function nextMonthStart(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** `429 quota_exceeded`: which quota, on which plan, and when it resets (in the message and as Retry-After). */
function quotaExceededError(kind: QuotaKind, plan: Plan, now: number): ApiError {
  const resetsAt = nextMonthStart(now);
  const seconds = Math.max(1, Math.ceil((resetsAt - now) / 1000));
  const what = kind === 'cards' ? 'cards' : 'requests';
  return new ApiError(
    'quota_exceeded',
    `This account's monthly ${what} quota (${plan[kind]} on the ${plan.name} plan) is used up; it resets at ${new Date(resetsAt).toISOString()} (in ${seconds} s). GET /v1/account shows the quotas.`,
    { retryAfterSeconds: seconds },
  );
}

/**
 * Monthly quotas (UTC calendar months) from each account's plan, held in the store so that any
 * number of gateways together stay within them:
 * - cards: each card takes one unit from the store (`takeQuota`, a Lua script or a SQLite
 *   transaction) before it is queued, and gives it back when it fails before being drawn, so the
 *   cards drawn never exceed the quota (overshoot 0, whatever the number of gateways or keys);
 * - requests: each gateway leases blocks of the month's remaining requests (`requestLeaseSize`:
 *   1 % of the quota, at most MAX_REQUEST_LEASE) and spends them from memory, so a request costs a
 *   Map lookup and a store round trip only once per block. Requests answered never exceed the
 *   quota; leases not spent are given back when the gateway shuts down gracefully, and when their
 *   account was idle for a flush interval, so at most (gateways x MAX_REQUEST_LEASE) requests of an
 *   account can be held unspent elsewhere when one gateway refuses its last one (and that many are
 *   lost for the month if gateways crash holding them).
 * Plans, and the month's flushed totals (a floor for the counters), are read again after every
 * flush for the accounts that were active, so a plan changed with the CLI arrives within one flush
 * interval. While the store does not answer, light requests go through (counted by the meter) and
 * cards are refused with `503 store_unavailable`.
 */
export class Quotas {
  readonly #store: AccountStore;
  readonly #plans: Plans;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #accounts = new Map<string, AccountQuotaState>();
  /** Accounts with requests since the last refresh: only their totals are read again. */
  #active = new Set<string>();
  #failing = false;
  #month = '';
  #monthStartsAt = 0;
  #monthEndsAt = 0;

  constructor(options: { store: AccountStore; meter: UsageMeter; plans: Plans; clock: Clock; logger: Logger }) {
    this.#store = options.store;
    this.#plans = options.plans;
    this.#clock = options.clock;
    this.#logger = options.logger;
    options.meter.onFlushed((written) => this.refresh(written));
  }

  /**
   * The refusal of one request by the account's requests quota, or undefined when it may go on
   * (it is then spent from this gateway's lease). Synchronous while the lease lasts; a promise
   * while the account is first read or a new lease is asked for.
   */
  requestRefusal(accountId: string): ApiError | undefined | Promise<ApiError | undefined> {
    const state = this.#accounts.get(accountId);
    if (state === undefined) return this.#load(accountId, LOAD_TIMEOUT_MS).then((loaded) => this.#spendRequest(accountId, loaded));
    return this.#spendRequest(accountId, state);
  }

  /**
   * Takes one unit of the account's cards quota in the store: the unit (to give back if the card
   * is not drawn), or the refusal (`429 quota_exceeded`, or `503 store_unavailable` when the store
   * does not answer within CARD_QUOTA_TIMEOUT_MS).
   */
  async takeCard(accountId: string): Promise<CardUnit | ApiError> {
    let state = this.#accounts.get(accountId);
    if (state === undefined || !state.known) state = await this.#load(accountId, CARD_QUOTA_TIMEOUT_MS, true);
    const now = this.#clock.now();
    const month = this.#current(accountId, state, now);
    if (!state.known) return storeUnavailable();
    // An unlimited plan (the operator's own `owner` plan) has nothing to take: no store round trip.
    if (unlimited(state.plan.cards)) return { giveBack: () => {} };
    let granted: number;
    try {
      granted = await withDeadline(this.#store.takeQuota(accountId, month, 'cards', 1, state.plan.cards, state.stored.cards), CARD_QUOTA_TIMEOUT_MS, 'card quota');
    } catch (error) {
      this.#logger.warn({ err: error, accountId }, 'quota: the store did not take a card; refusing it');
      return storeUnavailable(error);
    }
    if (granted === 0) return quotaExceededError('cards', state.plan, now);
    let given = false;
    return {
      giveBack: () => {
        if (given) return;
        given = true;
        this.#store.giveBackQuota(accountId, month, 'cards', 1).catch((error: unknown) => this.#logger.warn({ err: error, accountId }, 'quota: could not give back a card that was not drawn'));
      },
    };
  }

  /** Gives every unspent lease back to the store (graceful shutdown), so other gateways can spend it. */
  async close(): Promise<void> {
    await Promise.all([...this.#accounts].map(([accountId, state]) => this.#returnLease(accountId, state)));
  }

  #spendRequest(accountId: string, state: AccountQuotaState): ApiError | undefined | Promise<ApiError | undefined> {
    const now = this.#clock.now();
    this.#current(accountId, state, now);
    if (!state.known || unlimited(state.plan.requests)) return undefined;
    if (state.lease > 0) {
      state.lease -= 1;
      return undefined;
    }
    if (state.exhausted) return quotaExceededError('requests', state.plan, now);
    // The store failed a lease a moment ago: requests go through (the meter still counts them) until it is asked again.
    if (performance.now() < state.leaseRetryAt) return undefined;
    state.leasing ??= this.#lease(accountId, state).finally(() => (state.leasing = undefined));
    return state.leasing.then(() => this.#spendRequest(accountId, state));
  }

  async #lease(accountId: string, state: AccountQuotaState): Promise<void> {
    const month = state.month;
    try {
      const granted = await withDeadline(this.#store.takeQuota(accountId, month, 'requests', requestLeaseSize(state.plan), state.plan.requests, state.stored.requests), LOAD_TIMEOUT_MS, 'request lease');
      this.#failing = false;
      // The month turned while the store answered: the lease was of the old month, and spent nowhere.
      if (state.month !== month) return;
      state.lease += granted;
      if (granted === 0) state.exhausted = true;
    } catch (error) {
      if (!this.#failing) this.#logger.warn({ err: error, accountId }, 'quota: could not lease requests; they go through until the store answers');
      this.#failing = true;
      state.leaseRetryAt = performance.now() + LEASE_RETRY_MS;
    }
  }

  /** Gives the account's unspent lease back to the store. */
  async #returnLease(accountId: string, state: AccountQuotaState): Promise<void> {
    const unspent = state.lease;
    if (unspent <= 0) return;
    state.lease = 0;
    try {
      await this.#store.giveBackQuota(accountId, state.month, 'requests', unspent);
    } catch (error) {
      this.#logger.warn({ err: error, accountId, unspent }, 'quota: could not give back unspent requests');
    }
  }

  /** Marks the account active and moves it to the current month: the month `now` is in. */
  #current(accountId: string, state: AccountQuotaState, now: number): string {
    const month = this.#monthAt(now);
    state.activeAt = now;
    this.#active.add(accountId);
    if (state.month !== month) {
      // A new month: nothing of it was stored when the state was read, and the lease was the old month's.
      Object.assign(state, { month, stored: { requests: 0, cards: 0 }, lease: 0, exhausted: false, leaseRetryAt: 0 });
    }
    return month;
  }

  /** `YYYY-MM` of `now`, made once per month rather than per request. */
  #monthAt(now: number): string {
    if (now < this.#monthStartsAt || now >= this.#monthEndsAt) {
      this.#month = monthOf(new Date(now));
      this.#monthStartsAt = Date.parse(`${this.#month}-01T00:00:00Z`);
      this.#monthEndsAt = nextMonthStart(now);
    }
    return this.#month;
  }

  /**
   * Reads plans and totals again for the accounts active since the last refresh and those whose
   * counts were just written; asks the store again for accounts it had refused (a plan changed, a
   * lease given back elsewhere); gives back the leases of accounts idle since the last refresh and
   * forgets accounts idle for IDLE_EVICT_MS.
   */
  async refresh(written: readonly UsageCount[]): Promise<() => void> {
    const active = this.#active;
    this.#active = new Set();
    for (const count of written) if (this.#accounts.has(count.accountId)) active.add(count.accountId);
    const now = this.#clock.now();
    const idle: Promise<void>[] = [];
    for (const [accountId, state] of this.#accounts) {
      if (active.has(accountId)) continue;
      idle.push(this.#returnLease(accountId, state));
      if (now - state.activeAt > IDLE_EVICT_MS) this.#accounts.delete(accountId);
    }
    const [read] = await Promise.all([Promise.all([...active].map(async (accountId) => [accountId, await this.#read(accountId, now, LOAD_TIMEOUT_MS)] as const)), ...idle]);
    return () => {
      for (const [accountId, fresh] of read) {
        const state = this.#accounts.get(accountId);
        // Kept when the read failed: the last known totals are better than none.
        if (state && fresh.known && state.month === fresh.month) Object.assign(state, { plan: fresh.plan, stored: fresh.stored, known: true, exhausted: false });
      }
    };
  }

  /** The account's state, read from the store unless known here; `again` reads once more an account whose last read failed. */
  async #load(accountId: string, timeoutMs: number, again = false): Promise<AccountQuotaState> {
    const fresh = await this.#read(accountId, this.#clock.now(), timeoutMs);
    // Two first requests racing both read; the first to finish is kept (with its lease).
    const existing = this.#accounts.get(accountId);
    if (existing) {
      if (again && !existing.known && fresh.known) Object.assign(existing, { plan: fresh.plan, month: fresh.month, stored: fresh.stored, known: true });
      return existing;
    }
    if (this.#accounts.size >= MAX_ACCOUNTS) {
      const [oldestId, oldest] = this.#accounts.entries().next().value!;
      this.#accounts.delete(oldestId);
      void this.#returnLease(oldestId, oldest);
    }
    this.#accounts.set(accountId, fresh);
    return fresh;
  }

  async #read(accountId: string, now: number, timeoutMs: number): Promise<AccountQuotaState> {
    const month = monthOf(new Date(now));
    const blank = { activeAt: now, lease: 0, exhausted: false, leasing: undefined, leaseRetryAt: 0 };
    try {
      const [account, stored] = await withDeadline(
        Promise.all([this.#store.getAccount(accountId), this.#store.monthTotals(accountId, month)]),
        timeoutMs,
        'account quota',
      );
      this.#failing = false;
      return { ...blank, plan: planOf(this.#plans, account?.plan ?? this.#plans.defaultPlan.name), month, stored, known: true };
    } catch (error) {
      // Once per outage, not once per account and flush.
      if (!this.#failing) this.#logger.warn({ err: error, accountId }, 'quota: could not read the account; its light requests go through until the store answers');
      this.#failing = true;
      return { ...blank, plan: this.#plans.defaultPlan, month, stored: { requests: 0, cards: 0 }, known: false };
    }
  }
}

/** `503 store_unavailable`: a card is not drawn uncounted. */
function storeUnavailable(cause?: unknown): ApiError {
  return new ApiError('store_unavailable', 'The account store did not answer in time, so this card could not be counted. Please retry shortly.', { cause });
}
