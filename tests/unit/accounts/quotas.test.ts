/**
 * The quota's bookkeeping against the store, over an in-memory store: cards take a unit each at
 * admission and give it back when not drawn; requests are spent from leases, never past the quota.
 */
import test from 'ava';
import { createLogger } from '@utility-api/infra';
import { monthOf, type UsageCount } from '../../../services/gateway/src/accounts/account-model.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { toPlans } from '../../../services/gateway/src/accounts/plans.ts';
import { MAX_REQUEST_LEASE, Quotas, requestLeaseSize, type CardUnit } from '../../../services/gateway/src/accounts/quotas.ts';
import { ApiError } from '../../../services/gateway/src/http/api-error.ts';
import { UsageMeter } from '../../../services/gateway/src/accounts/usage-meter.ts';
import { FIXED_NOW_MS } from '../../helpers/test-gateway.ts';

/** What the meter and the quota call: month totals that grow with addUsage, the quota counters, and one account. */
function memoryStore() {
  const totals = new Map<string, { requests: number; cards: number }>();
  const taken = new Map<string, number>();
  return {
    taken,
    async addUsage(counts: readonly UsageCount[]) {
      for (const count of counts) {
        if (count.metric !== 'requests' && count.metric !== 'cards') continue;
        const key = `${count.accountId} ${monthOf(count.day)}`;
        const total = totals.get(key) ?? { requests: 0, cards: 0 };
        total[count.metric] += count.count;
        totals.set(key, total);
      }
    },
    async monthTotals(accountId: string, month: string) {
      return { ...(totals.get(`${accountId} ${month}`) ?? { requests: 0, cards: 0 }) };
    },
    async takeQuota(accountId: string, month: string, kind: string, amount: number, limit: number, floor: number) {
      const key = `${accountId} ${month} ${kind}`;
      const used = Math.max(taken.get(key) ?? 0, floor);
      const granted = Math.max(0, Math.min(amount, limit - used));
      taken.set(key, used + granted);
      return granted;
    },
    async giveBackQuota(accountId: string, month: string, kind: string, amount: number) {
      const key = `${accountId} ${month} ${kind}`;
      taken.set(key, Math.max(0, (taken.get(key) ?? 0) - amount));
    },
    async getAccount(id: string) {
      return { id, name: id, discordUserId: null, plan: 'one-card', createdAt: '2024-01-01T00:00:00.000Z' };
    },
  };
}

const logger = createLogger({ service: 'quotas-test', level: 'silent' });
const clock = { now: () => FIXED_NOW_MS };

test('a card takes its unit at admission: the next card is refused at once, and a card given back frees its unit', async (t) => {
  const store = memoryStore();
  const meter = new UsageMeter({ store: store as unknown as AccountStore, clock, logger, flushMs: 60_000 });
  const quotas = new Quotas({ store: store as unknown as AccountStore, meter, plans: toPlans([{ name: 'one-card', cards: 1, requests: 100 }], undefined), clock, logger });
  const first = await quotas.takeCard('acct_a');
  t.false(first instanceof ApiError);
  const refused = await quotas.takeCard('acct_a');
  t.true(refused instanceof ApiError);
  t.is((refused as ApiError).code, 'quota_exceeded');
  t.regex((refused as ApiError).message, /monthly cards quota/);
  // Not drawn: its unit goes back, and the next card gets it.
  (first as CardUnit).giveBack();
  await new Promise((resolve) => setImmediate(resolve));
  t.false((await quotas.takeCard('acct_a')) instanceof ApiError);
  // A light request is not a card: it goes on.
  t.is(await quotas.requestRefusal('acct_a'), undefined);
  await meter.close();
});

test('requests are spent from leases of the store: never more than the quota, and an unspent lease goes back at close', async (t) => {
  const store = memoryStore();
  const meter = new UsageMeter({ store: store as unknown as AccountStore, clock, logger, flushMs: 60_000 });
  const plan = { name: 'one-card', cards: 1, requests: 250 };
  t.is(requestLeaseSize(plan), 3, '1 % of 250, rounded up');
  t.is(requestLeaseSize({ ...plan, requests: 10_000_000 }), MAX_REQUEST_LEASE);
  const quotas = new Quotas({ store: store as unknown as AccountStore, meter, plans: toPlans([plan], undefined), clock, logger });
  let admitted = 0;
  for (let index = 0; index < 300; index += 1) if ((await quotas.requestRefusal('acct_b')) === undefined) admitted += 1;
  t.is(admitted, 250);
  t.is(store.taken.get('acct_b 2024-06 requests'), 250);
  // A second gateway's quotas: it spends 2 of a lease, and gives the third back when it closes.
  const other = new Quotas({ store: store as unknown as AccountStore, meter, plans: toPlans([{ ...plan, requests: 260 }], undefined), clock, logger });
  t.is(await other.requestRefusal('acct_b'), undefined);
  t.is(await other.requestRefusal('acct_b'), undefined);
  t.is(store.taken.get('acct_b 2024-06 requests'), 253);
  await other.close();
  t.is(store.taken.get('acct_b 2024-06 requests'), 252);
  await meter.close();
});
