import test from 'ava';
import { Redis } from 'ioredis';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { redisAccountStore } from '../../../services/gateway/src/accounts/redis-account-store.ts';
import { redeemSignInLink } from '../../../services/gateway/src/accounts/sign-in-links.ts';
import { MISS_WAIT_MS } from '../../../services/gateway/src/auth/key-verifier.ts';
import { STORE_TIMEOUT_MS } from '../../../services/gateway/src/auth/rate-limits.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { createKey, runKeysCli, statusWith, timeUntil } from '../../support/keys/key-processes.ts';

/** Distributed mode: a real redis-server, two gateway processes on it, and the CLI as a process. */
let redis: RunningRedis;
let gateways: GatewayProcess[] = [];
let env: Record<string, string>;

test.before(async () => {
  redis = await startRedisServer({});
  env = { REDIS_URL: redis.url };
  gateways = await Promise.all([startGatewayProcess({ env }), startGatewayProcess({ env })]);
});

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await redis?.stop();
});

test.serial('create: the key works on both gateways at once', async (t) => {
  const created = await createKey(env);
  for (const gateway of gateways) t.is(await statusWith(gateway.url, created.key), 200, gateway.url);
  t.regex(gateways[0]!.process.output(), /"keyStore":"redis"/);
});

test.serial('revoke via the CLI: both gateways refuse the key within a second', async (t) => {
  const doomed = await createKey(env);
  const kept = await createKey(env);
  for (const gateway of gateways) t.is(await statusWith(gateway.url, doomed.key), 200);
  const revoke = await runKeysCli(['revoke', doomed.prefix], env);
  t.is(revoke.code, 0, revoke.stderr);
  // Designed for ≤ 250 ms (each gateway polls a version counter four times a second); 2 s is the bound for a loaded machine.
  const took = await Promise.all(gateways.map((gateway) => timeUntil(async () => (await statusWith(gateway.url, doomed.key)) === 401, 2000)));
  t.log(`refused after ${took.map((ms) => `${ms.toFixed(0)} ms`).join(' and ')}`);
  for (const gateway of gateways) {
    t.is(await statusWith(gateway.url, kept.key), 200);
    t.is(await statusWith(gateway.url, TEST_API_KEY), 200, 'API_KEYS still work alongside');
  }
});

test.serial('Redis holds hashes, never keys; the logs name keys by prefix only', async (t) => {
  const created = await createKey(env);
  t.is(await statusWith(gateways[1]!.url, created.key), 200);
  const client = new Redis(redis.url);
  try {
    const stored = await client.hgetall('utility-api:api-keys');
    t.truthy(stored[created.id]);
    const record = JSON.parse(stored[created.id]!);
    t.is(record.prefix, created.prefix);
    t.regex(record.hash, /^[0-9a-f]{64}$/);
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      const values = type === 'hash' ? Object.values(await client.hgetall(key)) : type === 'string' ? [await client.get(key)] : [];
      for (const value of values) t.false(value?.includes(created.key) ?? false, key);
    }
  } finally {
    client.disconnect();
  }
  const output = gateways.map((gateway) => gateway.process.output()).join('\n');
  t.false(output.includes(created.key));
  t.regex(output, new RegExp(`"keyId":"${created.prefix}"`));
});

test.serial('a gateway started later loads the existing keys, revoked ones stay refused', async (t) => {
  const live = await createKey(env);
  const revoked = await createKey(env);
  t.is((await runKeysCli(['revoke', revoked.id], env)).code, 0);
  const late = await startGatewayProcess({ env: { ...env, API_KEYS: '' } });
  try {
    t.regex(late.process.output(), /"managedKeys":[1-9]/);
    t.notRegex(late.process.output(), /generated a key/, 'managed keys exist, so no throwaway key is generated');
    t.is(await statusWith(late.url, live.key), 200);
    t.is(await statusWith(late.url, revoked.key), 401);
  } finally {
    await late.stop();
  }
});

test.serial('list over Redis shows every key created here', async (t) => {
  const run = await runKeysCli(['list', '--json'], env);
  t.is(run.code, 0, run.stderr);
  const listed = JSON.parse(run.stdout);
  t.is(listed.length, 6);
  t.true(listed.every((record: any) => record.accountId === OWNER_ACCOUNT_ID));
  t.true(listed.some((record: any) => record.revokedAt !== null));
  t.false(run.stdout.includes('"hash"'));
});

test.serial('accounts over Redis: created, given a plan, own a scoped key that works on both gateways; a sign-in link redeems once; all audited', async (t) => {
  const made = await runKeysCli(['accounts', 'create', '--name', 'Redis bots', '--json'], env);
  t.is(made.code, 0, made.stderr);
  const account = JSON.parse(made.stdout);
  t.is(account.plan, 'free');
  const key = await createKey(env, ['--account', account.id, '--scopes', 'utility']);
  for (const gateway of gateways) t.is(await statusWith(gateway.url, key.key), 200);
  t.is((await runKeysCli(['accounts', 'plan', account.id, 'pro'], { ...env, PLANS: 'free:cards=1,requests=1;pro:cards=2,requests=2' })).code, 0);
  const link = await runKeysCli(['sign-in-link', '--account', account.id], { ...env, PUBLIC_BASE_URL: 'https://cards.example' });
  t.is(link.code, 0, link.stderr);
  const token = /https:\/\/cards\.example\/account\/sign-in#token=([A-Za-z0-9_-]{43})/.exec(link.stdout)![1]!;

  const client = new Redis(redis.url);
  try {
    const store = redisAccountStore(client, redis.url);
    t.like(await store.getAccount(account.id), { name: 'Redis bots', plan: 'pro' });
    t.truthy(await store.getAccount(OWNER_ACCOUNT_ID), 'the gateways made the owner at start');
    t.like(JSON.parse((await runKeysCli(['list', '--json'], env)).stdout).find((record: any) => record.id === key.id), { accountId: account.id, scopes: ['utility'] });
    t.is(await redeemSignInLink(store, token, new Date()), account.id);
    t.is(await redeemSignInLink(store, token, new Date()), undefined);
    const audit = await store.auditLog(account.id, 10);
    t.deepEqual(audit.map((event) => `${event.type} by ${event.actor}`), ['sign_in_link_created by cli', 'plan_changed by cli', 'key_created by cli', 'account_created by cli']);
  } finally {
    client.disconnect();
  }
});

test.serial('when Redis goes away, known keys keep working and the gateway does not hang', async (t) => {
  const created = await createKey(env);
  t.is(await statusWith(gateways[0]!.url, created.key), 200);
  await redis.kill();
  const started = performance.now();
  t.is(await statusWith(gateways[0]!.url, created.key), 200);
  t.is(await statusWith(gateways[0]!.url, 'uk_live_zzzzzzzz_' + 'a'.repeat(32)), 401);
  // Each waits on the gone Redis at most one store timeout (the unknown key its miss wait): ten times both, wide.
  t.true(performance.now() - started < 10 * (STORE_TIMEOUT_MS + MISS_WAIT_MS));
});
