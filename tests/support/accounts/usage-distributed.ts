/**
 * Usage and quotas of gateway processes sharing one Redis (one server, or a Cluster): counts of
 * several gateways add up in the store, the quota holds across them once counts are flushed, and
 * a gateway stopped with SIGTERM writes its last counts. Registered by tests/accounts (one
 * redis-server) and tests/cluster (a Redis Cluster). Gateways run on the real clock.
 */
import test from 'ava';
import { Cluster, Redis } from 'ioredis';
import { dayOf } from '../../../services/gateway/src/accounts/account-model.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { redisAccountStore } from '../../../services/gateway/src/accounts/redis-account-store.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { makeAccount, makeKey, untilStored } from './usage-helpers.ts';

const PLANS = 'free:cards=1000,requests=100000;tiny:cards=1,requests=5';

/** Yesterday to tomorrow (UTC): a run that crosses midnight still finds its counts. */
function aroundToday(): [string, string] {
  const now = Date.now();
  return [dayOf(new Date(now - 86_400_000)), dayOf(new Date(now + 86_400_000))];
}

/** A Redis for the scenarios: the gateways' environment naming it, and how to stop it. */
export interface TestRedis {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export function registerDistributedUsageTests(startRedis: () => Promise<TestRedis>) {
  let redis: TestRedis | undefined;
  let client: Redis | Cluster;
  let store: AccountStore;
  let gateways: GatewayProcess[] = [];
  const redisEnv = () => redis!.env;

  test.before(async () => {
    redis = await startRedis();
    const { env } = redis;
    client = env.REDIS_CLUSTER_NODES
      ? new Cluster(env.REDIS_CLUSTER_NODES.split(',').map((node) => ({ host: node.split(':')[0]!, port: Number(node.split(':')[1]) })))
      : new Redis(env.REDIS_URL!);
    store = redisAccountStore(client, 'usage test');
    gateways = await Promise.all([0, 1].map(() => startGatewayProcess({ env: { ...env, USAGE_FLUSH_MS: '200', PLANS } })));
  });
  test.after.always(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    client?.disconnect();
    await redis?.stop();
  });

  const call = async (gateway: GatewayProcess, key: string, path = '/v1/coin-flip') => {
    const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: key } });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), response };
  };

  test.serial('two gateways on one Redis add up: each flushes its own counts into the same totals', async (t) => {
    await makeAccount(store, 'acct_two_gateways', 'free');
    const { key, id } = await makeKey(store, { accountId: 'acct_two_gateways' });
    for (let index = 0; index < 4; index += 1) t.is((await call(gateways[0]!, key)).status, 200);
    for (let index = 0; index < 3; index += 1) t.is((await call(gateways[1]!, key)).status, 200);
    t.is((await call(gateways[1]!, key, '/v1/hex-to-rgb?hex=zz')).status, 400);
    const expected = { 'requests coinFlip': 7, 'requests hexToRgb': 1, 'errors hexToRgb': 1 };
    t.deepEqual(await untilStored(store, 'acct_two_gateways', aroundToday(), expected, id), expected);
    const { body } = await call(gateways[0]!, key, '/v1/account');
    t.is(body.requests.used, 9);
    t.is(body.key.month.requests, 9);
    t.is(body.key.month.errors, 1);
  });

  test.serial("the quota holds across gateways: once one gateway's counts are flushed, the other refuses too", async (t) => {
    await makeAccount(store, 'acct_shared_quota', 'tiny');
    const { key, id } = await makeKey(store, { accountId: 'acct_shared_quota' });
    for (let index = 0; index < 5; index += 1) t.is((await call(gateways[0]!, key)).status, 200);
    t.is((await call(gateways[0]!, key)).status, 429);
    const flushed = { 'requests coinFlip': 5, 'rate_limited coinFlip': 1 };
    t.deepEqual(await untilStored(store, 'acct_shared_quota', aroundToday(), flushed, id), flushed);
    // The second gateway has never seen this account: its first request reads the month's totals.
    const refused = await call(gateways[1]!, key);
    t.is(refused.status, 429);
    t.is(refused.body.error.code, 'quota_exceeded');
    const retryAfter = Number(refused.response.headers.get('retry-after'));
    const now = new Date();
    const untilMonthEnd = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
    t.true(Math.abs(retryAfter - untilMonthEnd) <= 5, `Retry-After ${retryAfter}, ${untilMonthEnd} s to the month's end`);
  });

  test.serial('a gateway stopped with SIGTERM writes its last counts before it exits', async (t) => {
    await makeAccount(store, 'acct_sigterm', 'free');
    const { key, id } = await makeKey(store, { accountId: 'acct_sigterm' });
    // No timer flush within the test: what reaches the store comes from the shutdown.
    const gateway = await startGatewayProcess({ env: { ...redisEnv(), USAGE_FLUSH_MS: '60000', PLANS } });
    try {
      for (let index = 0; index < 3; index += 1) t.is((await call(gateway, key, '/v1/random-emoji')).status, 200);
    } finally {
      await gateway.stop();
    }
    t.deepEqual(await untilStored(store, 'acct_sigterm', aroundToday(), { 'requests randomEmoji': 3 }, id), { 'requests randomEmoji': 3 });
    t.is(Object.keys(await store.keysLastUsed([id])).length, 1);
  });
}
