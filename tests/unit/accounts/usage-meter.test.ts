/**
 * The usage meter on its own, over a store that fails on demand: a failed flush keeps its counts
 * for the next one, the entries waiting are capped (beyond, dropped and counted), the quota's
 * unflushed totals leave only once written, and close() writes what is left.
 */
import test from 'ava';
import { createLogger } from '@utility-api/infra';
import type { UsageCount } from '../../../services/gateway/src/accounts/account-model.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { UsageMeter } from '../../../services/gateway/src/accounts/usage-meter.ts';
import { FIXED_NOW_MS } from '../../helpers/test-gateway.ts';

/** Only what the meter calls: addUsage, failing while `failing` is set (or for one account's counts). */
function fakeStore() {
  const written: UsageCount[] = [];
  const lastUsed = new Map<string, string>();
  const store = {
    failing: false,
    failingAccount: undefined as string | undefined,
    calls: 0,
    written,
    lastUsed,
    async addUsage(counts: readonly UsageCount[], used: ReadonlyMap<string, string>) {
      store.calls += 1;
      if (store.failing || counts.some((count) => count.accountId === store.failingAccount)) throw new Error('store down');
      written.push(...counts.map((count) => ({ ...count })));
      for (const [keyId, at] of used) lastUsed.set(keyId, at);
    },
  };
  return store;
}

const logger = createLogger({ service: 'usage-meter-test', level: 'silent' });
const clock = { now: () => FIXED_NOW_MS };
/** Counts summed by account, key, day, metric and label, as the store would hold them. */
const summed = (counts: readonly UsageCount[]) => {
  const sums: Record<string, number> = {};
  for (const count of counts) {
    const id = [count.accountId, count.keyId, count.day, count.metric, count.label].join(' ');
    sums[id] = (sums[id] ?? 0) + count.count;
  }
  return sums;
};

test('counts are summed per account, key, day, metric and label, and written in one call per account', async (t) => {
  const store = fakeStore();
  const meter = new UsageMeter({ store: store as unknown as AccountStore, clock, logger, flushMs: 60_000 });
  for (let index = 0; index < 3; index += 1) meter.count('acct_a', 'key_1', 'requests', 'coinFlip');
  meter.count('acct_a', 'key_1', 'errors', 'coinFlip');
  meter.count('acct_a', 'key_2', 'cards', 'webp');
  t.deepEqual(meter.unflushed('acct_a', '2024-06'), { requests: 3, cards: 1 });
  await meter.close();
  // The account's counts, then the keys' last use (another Redis slot).
  t.is(store.calls, 2);
  t.deepEqual(summed(store.written), {
    'acct_a key_1 2024-06-15 requests coinFlip': 3,
    'acct_a key_1 2024-06-15 errors coinFlip': 1,
    'acct_a key_2 2024-06-15 cards webp': 1,
  });
  t.is(store.lastUsed.get('key_1'), '2024-06-15T12:00:00.000Z');
  t.deepEqual(meter.unflushed('acct_a', '2024-06'), { requests: 0, cards: 0 });
});

test('a failed flush keeps its counts, and the quota keeps seeing them, until a flush succeeds', async (t) => {
  const store = fakeStore();
  const meter = new UsageMeter({ store: store as unknown as AccountStore, clock, logger, flushMs: 60_000 });
  meter.count('acct_a', 'key_1', 'requests', 'time');
  store.failing = true;
  await meter.flush();
  t.is(store.written.length, 0);
  t.is(meter.unflushed('acct_a', '2024-06').requests, 1);
  meter.count('acct_a', 'key_1', 'requests', 'time');
  await meter.flush();
  t.is(meter.unflushed('acct_a', '2024-06').requests, 2);
  store.failing = false;
  await meter.close();
  t.is(store.calls, 6);
  t.deepEqual(summed(store.written), { 'acct_a key_1 2024-06-15 requests time': 2 });
  t.is(store.lastUsed.get('key_1'), '2024-06-15T12:00:00.000Z');
  t.is(meter.unflushed('acct_a', '2024-06').requests, 0);
});

test('entries beyond the cap are dropped and counted, never grown without bound, also when a failed flush puts counts back', async (t) => {
  const store = fakeStore();
  const meter = new UsageMeter({ store: store as unknown as AccountStore, clock, logger, flushMs: 60_000, maxEntries: 3 });
  for (const label of ['a', 'b', 'c', 'd', 'e']) meter.count('acct_a', 'key_1', 'errors', label);
  // An entry that exists still counts.
  meter.count('acct_a', 'key_1', 'errors', 'a');
  t.is(meter.dropped, 2);
  store.failing = true;
  await meter.flush();
  // The failed flush put its three entries back: new labels find no room.
  meter.count('acct_a', 'key_1', 'errors', 'x');
  t.is(meter.dropped, 3);
  store.failing = false;
  await meter.close();
  t.deepEqual(summed(store.written), { 'acct_a key_1 2024-06-15 errors a': 2, 'acct_a key_1 2024-06-15 errors b': 1, 'acct_a key_1 2024-06-15 errors c': 1 });
});

test('the day follows the clock: counts after midnight UTC go to the next day, and a new month starts the quota from 0', async (t) => {
  const store = fakeStore();
  let now = Date.UTC(2024, 5, 30, 23, 59, 59);
  const meter = new UsageMeter({ store: store as unknown as AccountStore, clock: { now: () => now }, logger, flushMs: 60_000 });
  meter.count('acct_a', 'key_1', 'requests', 'time');
  now += 2000;
  meter.count('acct_a', 'key_1', 'requests', 'time');
  t.deepEqual(meter.unflushed('acct_a', '2024-07'), { requests: 1, cards: 0 });
  t.deepEqual(meter.unflushed('acct_a', '2024-06'), { requests: 0, cards: 0 });
  await meter.close();
  t.deepEqual(summed(store.written), { 'acct_a key_1 2024-06-30 requests time': 1, 'acct_a key_1 2024-07-01 requests time': 1 });
});

test("one account's failed write puts back only its counts: the other account's, already stored, are not written twice", async (t) => {
  const store = fakeStore();
  const meter = new UsageMeter({ store: store as unknown as AccountStore, clock, logger, flushMs: 60_000 });
  meter.count('acct_a', 'key_1', 'requests', 'time');
  meter.count('acct_b', 'key_2', 'requests', 'time');
  store.failingAccount = 'acct_b';
  await meter.flush();
  t.deepEqual(summed(store.written), { 'acct_a key_1 2024-06-15 requests time': 1 });
  t.is(meter.unflushed('acct_a', '2024-06').requests, 0);
  t.is(meter.unflushed('acct_b', '2024-06').requests, 1);
  store.failingAccount = undefined;
  await meter.close();
  t.deepEqual(summed(store.written), { 'acct_a key_1 2024-06-15 requests time': 1, 'acct_b key_2 2024-06-15 requests time': 1 });
});
