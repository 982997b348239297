import { withDeadline, type Logger } from '@utility-api/infra';
import { ApiError } from '../errors/api-error.ts';
import type { Clock } from '../runtime/clock.ts';
import { monthOf, type UsageCount } from './account-model.ts';
import type { AccountStore } from './account-store.ts';
import { planOf, type Plan, type Plans } from './plans.ts';
import type { UsageMeter } from './usage-meter.ts';

/** A first look at an account must not hold its request long when the store is slow: past this the request is let through. */
const LOAD_TIMEOUT_MS = 200;
/** Accounts with no request here for this long leave the cache (and are read afresh when they come back). */
const IDLE_EVICT_MS = 10 * 60_000;
/** Accounts remembered at once; beyond, the least recently loaded are dropped first. */
const MAX_ACCOUNTS = 50_000;

/** What the quota knows of an account: its plan and the month's totals the store had at the last read. */
interface AccountQuotaState {
  plan: Plan;
  month: string;
  stored: { requests: number; cards: number };
  activeAt: number;
  /** Whether the store answered the last read; when it did not, the account is not refused on a guess. */
  known: boolean;
}

type QuotaKind = 'cards' | 'requests';

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
 * Monthly quotas (UTC calendar months) from each account's plan, enforced from memory: the
 * month's totals read from the store plus what this gateway counted and has not flushed. The
 * totals and plans are read again after every flush for the accounts that were active, so other
 * gateways' counts and a plan changed with the CLI arrive within one flush interval. Only the
 * first request of an account this process has not seen waits for the store (at most
 * LOAD_TIMEOUT_MS; a store that does not answer lets it through).
 */
export class Quotas {
  readonly #store: AccountStore;
  readonly #meter: UsageMeter;
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
    this.#meter = options.meter;
    this.#plans = options.plans;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#meter.onFlushed((written) => this.refresh(written));
  }

  /**
   * The refusal of a request by the account's quotas, or undefined when it may go on: over its
   * requests quota, or (a card request) over its cards quota. Synchronous for an account already
   * known here, so the caller counts the request in the same turn as the check and two requests
   * cannot both take the last one; a promise only while the account is first read.
   */
  refusal(accountId: string, card: boolean): ApiError | undefined | Promise<ApiError | undefined> {
    const state = this.#accounts.get(accountId);
    if (state === undefined) return this.#load(accountId).then((loaded) => this.#judge(accountId, loaded, card));
    return this.#judge(accountId, state, card);
  }

  #judge(accountId: string, state: AccountQuotaState, card: boolean): ApiError | undefined {
    const now = this.#clock.now();
    const month = this.#monthAt(now);
    state.activeAt = now;
    this.#active.add(accountId);
    if (!state.known) return undefined;
    if (state.month !== month) {
      // A new month: nothing of it was stored when the state was read; the next refresh reads it.
      state.month = month;
      state.stored = { requests: 0, cards: 0 };
    }
    const unflushed = this.#meter.unflushed(accountId, month);
    if (state.stored.requests + unflushed.requests >= state.plan.requests) return quotaExceededError('requests', state.plan, now);
    if (card && state.stored.cards + unflushed.cards >= state.plan.cards) return quotaExceededError('cards', state.plan, now);
    return undefined;
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
   * counts were just written (a card answered after its account's last check: its count leaves
   * the unflushed ones, so the stored total must be read to take it in); forgets idle ones.
   */
  async refresh(written: readonly UsageCount[]): Promise<() => void> {
    const active = this.#active;
    this.#active = new Set();
    for (const count of written) if (this.#accounts.has(count.accountId)) active.add(count.accountId);
    const now = this.#clock.now();
    for (const [accountId, state] of this.#accounts) if (now - state.activeAt > IDLE_EVICT_MS && !active.has(accountId)) this.#accounts.delete(accountId);
    const read = await Promise.all([...active].map(async (accountId) => [accountId, await this.#read(accountId, now)] as const));
    return () => {
      for (const [accountId, fresh] of read) {
        const state = this.#accounts.get(accountId);
        // Kept when the read failed: the last known totals are better than none.
        if (state && fresh.known) Object.assign(state, { plan: fresh.plan, month: fresh.month, stored: fresh.stored, known: true });
      }
    };
  }

  async #load(accountId: string): Promise<AccountQuotaState> {
    const state = await this.#read(accountId, this.#clock.now());
    if (this.#accounts.size >= MAX_ACCOUNTS) this.#accounts.delete(this.#accounts.keys().next().value!);
    // Two first requests racing both read; the first to finish is kept.
    const existing = this.#accounts.get(accountId);
    if (existing) return existing;
    this.#accounts.set(accountId, state);
    return state;
  }

  async #read(accountId: string, now: number): Promise<AccountQuotaState> {
    const month = monthOf(new Date(now));
    try {
      const [account, stored] = await withDeadline(
        Promise.all([this.#store.getAccount(accountId), this.#store.monthTotals(accountId, month)]),
        LOAD_TIMEOUT_MS,
        'account quota',
      );
      this.#failing = false;
      return { plan: planOf(this.#plans, account?.plan ?? this.#plans.defaultPlan.name), month, stored, activeAt: now, known: true };
    } catch (error) {
      // Once per outage, not once per account and flush.
      if (!this.#failing) this.#logger.warn({ err: error, accountId }, 'quota: could not read the account; its requests go through until the store answers');
      this.#failing = true;
      return { plan: this.#plans.defaultPlan, month, stored: { requests: 0, cards: 0 }, activeAt: now, known: false };
    }
  }
}
