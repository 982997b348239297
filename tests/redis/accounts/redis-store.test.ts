import test from 'ava';
import { startRedisServer } from '../../../scripts/local-stack/redis-server.ts';
import { daysBetween } from '../../../services/gateway/src/accounts/redis-account-store.ts';
import { redisBackend, registerAccountStoreContract } from '../../support/accounts/account-store-contract.ts';

/** The AccountStore contract on one redis-server, each store on a connection of its own (as two gateways). */
registerAccountStoreContract(test, 'redis', async () => {
  const redis = await startRedisServer({});
  return redisBackend({ kind: 'single', url: redis.url }, () => redis.stop());
});

test('daysBetween: every UTC day inclusive, across months and leap days; none when reversed; at most a year', (t) => {
  t.deepEqual(daysBetween('2024-02-27', '2024-03-01'), ['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
  t.deepEqual(daysBetween('2026-05-05', '2026-05-05'), ['2026-05-05']);
  t.deepEqual(daysBetween('2026-05-06', '2026-05-05'), []);
  t.deepEqual(daysBetween('not-a-day', '2026-05-05'), []);
  const long = daysBetween('2020-01-01', '2029-12-31');
  t.is(long.length, 366);
  t.is(long.at(-1), '2020-12-31');
});
