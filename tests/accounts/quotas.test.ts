/**
 * The quota's bookkeeping between the meter and the store, over an in-memory store: counts move
 * from "unflushed" to the store's totals without being lost or counted twice on the way.
 */
import test from 'ava';
import { createLogger } from '@utility-api/infra';
import { monthOf, type UsageCount } from '../../services/gateway/src/accounts/account-model.ts';
import type { AccountStore } from '../../services/gateway/src/accounts/account-store.ts';
import { toPlans } from '../../services/gateway/src/accounts/plans.ts';
import { Quotas } from '../../services/gateway/src/accounts/quotas.ts';
import { UsageMeter } from '../../services/gateway/src/accounts/usage-meter.ts';
import { FIXED_NOW_MS } from '../helpers/test-gateway.ts';

/** What the meter and the quota call: month totals that grow with addUsage, and one account. */
function memoryStore() {
  const totals = new Map<string, { requests: number; cards: number }>();
  return {
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
    async getAccount(id: string) {
      return { id, name: id, discordUserId: null, plan: 'one-card', createdAt: '2024-01-01T00:00:00.000Z' };
    },
  } as unknown as AccountStore;
}

const logger = createLogger({ service: 'quotas-test', level: 'silent' });
const clock = { now: () => FIXED_NOW_MS };

test('a card answered after its account was last checked still counts once flushed: the next card is refused', async (t) => {
  const store = memoryStore();
  const meter = new UsageMeter({ store, clock, logger, flushMs: 60_000 });
  const quotas = new Quotas({ store, meter, plans: toPlans([{ name: 'one-card', cards: 1, requests: 100 }], undefined), clock, logger });
  // The card request is admitted and counted; it is still being drawn at the next flush.
  t.is(await quotas.refusal('acct_a', true), undefined);
  meter.count('acct_a', 'key_1', 'requests', 'createProfileImage');
  await meter.flush();
  // Drawn: its card counts, and the flush after moves it to the store's totals.
  meter.count('acct_a', 'key_1', 'cards', 'png');
  await meter.flush();
  t.deepEqual(meter.unflushed('acct_a', '2024-06'), { requests: 0, cards: 0 });
  const refusal = await quotas.refusal('acct_a', true);
  t.is(refusal?.code, 'quota_exceeded');
  t.regex(refusal?.message ?? '', /monthly cards quota/);
  // A light request is not a card: it goes on.
  t.is(await quotas.refusal('acct_a', false), undefined);
  await meter.close();
});

test('the requests quota counts what is unflushed here and what the store has, exactly once across a flush', async (t) => {
  const store = memoryStore();
  const meter = new UsageMeter({ store, clock, logger, flushMs: 60_000 });
  const quotas = new Quotas({ store, meter, plans: toPlans([{ name: 'one-card', cards: 1, requests: 3 }], undefined), clock, logger });
  const admitted: boolean[] = [];
  for (let index = 0; index < 5; index += 1) {
    const refusal = await quotas.refusal('acct_b', false);
    admitted.push(refusal === undefined);
    if (refusal === undefined) meter.count('acct_b', 'key_2', 'requests', 'time');
    // A flush between every request: the counts cross to the store one by one.
    await meter.flush();
  }
  t.deepEqual(admitted, [true, true, true, false, false]);
  t.deepEqual(await store.monthTotals('acct_b', '2024-06'), { requests: 3, cards: 0 });
  await meter.close();
});
