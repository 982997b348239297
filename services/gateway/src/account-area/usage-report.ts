import { dayOf, monthOf, USAGE_METRICS, type UsageMetric } from '../accounts/account-model.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import { planOf, unlimited, type Plans } from '../accounts/plans.ts';
import { daysBetween } from '../accounts/redis-account-store.ts';

/** The area shows the last 30 UTC days, today included. */
const USAGE_DAYS = 30;

/** `limit` and `remaining` are null on a plan without that quota (the owner plan). */
interface QuotaView {
  limit: number | null;
  used: number;
  remaining: number | null;
}

/** What the usage page draws: per metric, one series of 30 daily numbers per label (endpoint or format). */
export interface UsageReport {
  days: string[];
  /** Only this key's counts (its id as usage names it), or the whole account's. */
  keyId: string | null;
  totals: Record<UsageMetric, number>;
  series: Record<UsageMetric, Record<string, number[]>>;
  /** Every key with counts in the window (the account's keys, and its `API_KEYS` ones), for the picker. */
  keys: { keyId: string; requests: number }[];
  quota: { plan: string; month: string; resetsAt: string; requests: QuotaView; cards: QuotaView };
}

const quota = (limit: number, used: number): QuotaView => (unlimited(limit) ? { limit: null, used, remaining: null } : { limit, used, remaining: Math.max(0, limit - used) });

/** The first instant of the next UTC month, when the monthly quota starts again. */
function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * The account's (or one of its keys') last 30 days from the store's flushed counts, and this
 * month against its plan. Counts still in a gateway's memory (a few seconds' worth) show after
 * the next flush.
 */
export async function usageReport(store: AccountStore, plans: Plans, account: { id: string; plan: string }, keyId: string | undefined, now: Date): Promise<UsageReport> {
  const days = daysBetween(dayOf(new Date(now.getTime() - (USAGE_DAYS - 1) * 86_400_000)), dayOf(now));
  const dayIndex = new Map(days.map((day, index) => [day, index]));
  const [counts, month] = await Promise.all([store.usage(account.id, days[0]!, days.at(-1)!), store.monthTotals(account.id, monthOf(now))]);
  const totals = Object.fromEntries(USAGE_METRICS.map((metric) => [metric, 0])) as Record<UsageMetric, number>;
  const series = Object.fromEntries(USAGE_METRICS.map((metric) => [metric, {}])) as Record<UsageMetric, Record<string, number[]>>;
  const keyRequests = new Map<string, number>();
  for (const count of counts) {
    const index = dayIndex.get(count.day);
    if (index === undefined) continue;
    if (count.metric === 'requests') keyRequests.set(count.keyId, (keyRequests.get(count.keyId) ?? 0) + count.count);
    else if (!keyRequests.has(count.keyId)) keyRequests.set(count.keyId, 0);
    if (keyId !== undefined && count.keyId !== keyId) continue;
    totals[count.metric] += count.count;
    const line = (series[count.metric][count.label] ??= Array<number>(days.length).fill(0));
    line[index] = line[index]! + count.count;
  }
  const plan = planOf(plans, account.plan);
  return {
    days,
    keyId: keyId ?? null,
    totals,
    series,
    keys: [...keyRequests].map(([id, requests]) => ({ keyId: id, requests })).sort((a, b) => b.requests - a.requests || a.keyId.localeCompare(b.keyId)),
    quota: {
      plan: plan.name,
      month: monthOf(now),
      resetsAt: nextMonthStart(now).toISOString(),
      requests: quota(plan.requests, month.requests),
      cards: quota(plan.cards, month.cards),
    },
  };
}
