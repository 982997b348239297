import { withDeadline } from '@utility-api/infra';
import type { ApiKeyIdentity } from '../auth/api-keys.ts';
import type { Clock } from '../runtime/clock.ts';
import { dayOf, monthOf, type Account, type UsageCount } from './account-model.ts';
import type { AccountStore } from './account-store.ts';
import { planOf, type Plan, type Plans } from './plans.ts';
import type { UsageMeter } from './usage-meter.ts';

/** How long GET /v1/account waits for the store. */
const READ_TIMEOUT_MS = 2000;

/** What GET /v1/account answers from: read from the store when asked, plus this gateway's unflushed counts. */
export interface AccountUsageFacts {
  /** When the facts were read (epoch ms, the gateway's clock). */
  now: number;
  account: Account | undefined;
  plan: Plan;
  /** The account's requests and cards this UTC month, every key and gateway. */
  monthTotals: { requests: number; cards: number };
  /** The asking key's counts of this month's days (flushed or not). */
  keyCounts: readonly UsageCount[];
  /** When the key was last used (epoch ms), as the store or this gateway knows it. */
  keyLastUsedAt: number | undefined;
  /** Whether the quotas refuse requests here (RATE_LIMITS on). */
  quotasEnforced: boolean;
}

export type AccountUsageSource = (key: ApiKeyIdentity) => Promise<AccountUsageFacts>;

/**
 * Where an account stands, for GET /v1/account: a few store reads (the account, the month's
 * totals, the month's daily counts and the key's last use) on each call, which is not a hot path,
 * plus what this gateway counted since its last flush. Other gateways' unflushed counts show up
 * within one flush interval.
 */
export function accountUsageSource(parts: { store: AccountStore; meter: UsageMeter; plans: Plans; clock: Clock; quotasEnforced: boolean }): AccountUsageSource {
  const { store, meter } = parts;
  // Between flushes: a flush finishing between the store reads and the meter's would leave its
  // counts out of both. Bounded: a store that hangs must not hold the flushes queued behind.
  return (key) => meter.exclusive(() => withDeadline(read(key), READ_TIMEOUT_MS, 'account usage'));
  async function read(key: ApiKeyIdentity): Promise<AccountUsageFacts> {
    const now = parts.clock.now();
    const month = monthOf(new Date(now));
    const today = dayOf(new Date(now));
    const firstDay = `${month}-01`;
    const [account, stored, days, lastUsed] = await Promise.all([
      store.getAccount(key.accountId),
      store.monthTotals(key.accountId, month),
      store.usage(key.accountId, firstDay, today),
      store.keysLastUsed([key.id]),
    ]);
    const unflushed = meter.unflushed(key.accountId, month);
    const lastUses = [lastUsed[key.id] === undefined ? Number.NaN : Date.parse(lastUsed[key.id]!), meter.lastUsedHere(key.id) ?? Number.NaN].filter((at) => !Number.isNaN(at));
    return {
      now,
      account,
      plan: planOf(parts.plans, account?.plan ?? parts.plans.defaultPlan.name),
      monthTotals: { requests: stored.requests + unflushed.requests, cards: stored.cards + unflushed.cards },
      keyCounts: [...days.filter((count) => count.keyId === key.id), ...meter.unflushedOfKey(key.accountId, key.id, firstDay, today)],
      keyLastUsedAt: lastUses.length > 0 ? Math.max(...lastUses) : undefined,
      quotasEnforced: parts.quotasEnforced,
    };
  }
}
