import test from 'ava';
import { Redis } from 'ioredis';
import { startRedisServer, type RunningRedis } from '../../../scripts/local-stack/redis-server.ts';
import { dayOf } from '../../../services/gateway/src/accounts/account-model.ts';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { redisAccountStore } from '../../../services/gateway/src/accounts/redis-account-store.ts';
import { createSignInLink } from '../../../services/gateway/src/accounts/sign-in-links.ts';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.ts';
import { statusWith, timeUntil } from '../../support/keys/key-processes.ts';
import { AccountClient, linkToken } from '../../support/account/account-client.ts';

/**
 * Distributed mode: two gateway processes on one redis-server, as production runs them. The owner
 * signs in with the link a gateway printed at boot; sessions, keys, rolls, revocations and usage
 * are shared by both gateways, and survive a gateway's restart.
 */
let redis: RunningRedis;
let gateways: GatewayProcess[] = [];
let env: Record<string, string>;
let client: Redis;

/** The link a gateway printed at boot (its log is JSON lines; the link is in `msg`). */
function printedLink(gateway: GatewayProcess): string {
  const match = /sign in to the account area[^"]*: (http:\/\/[^"\s]+)/.exec(gateway.process.output());
  if (!match) throw new Error(`no sign-in link in the output of ${gateway.url}`);
  return match[1]!;
}

test.before(async () => {
  redis = await startRedisServer({});
  env = { REDIS_URL: redis.url, KEY_ROLL_GRACE_HOURS: '0.002' };
  gateways = await Promise.all([startGatewayProcess({ env }), startGatewayProcess({ env })]);
  client = new Redis(redis.url);
});

test.after.always(async () => {
  client?.disconnect();
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await redis?.stop();
});

test.serial('the printed link signs in once on any gateway; the session, keys, roll and revoke are shared', async (t) => {
  const [a, b] = gateways as [GatewayProcess, GatewayProcess];
  const link = printedLink(a);
  t.regex(link, new RegExp(`^${a.url}/account/sign-in#token=[A-Za-z0-9_-]{43}$`));
  const onA = new AccountClient(a.url);
  t.is((await onA.signInWithToken(linkToken(link))).status, 200);
  t.is((await new AccountClient(b.url).signInWithToken(linkToken(link))).status, 400, 'a second use, on the other gateway, is refused');

  // The same browser session on gateway B (one site behind a balancer would send the same cookie).
  const onB = new AccountClient(b.url);
  for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
  await onB.refreshCsrf();
  t.is(onB.csrfToken, onA.csrfToken);
  const created = await onB.post('/account/api/keys', { name: 'shared bot' });
  t.is(created.status, 201);
  for (const gateway of gateways) t.is(await statusWith(gateway.url, created.body.key, '/v1/coin-flip'), 200, gateway.url);

  const rolled = await onA.post(`/account/api/keys/${created.body.id}/roll`);
  t.is(rolled.status, 200);
  for (const gateway of gateways) {
    t.is(await statusWith(gateway.url, rolled.body.key, '/v1/coin-flip'), 200, `new secret on ${gateway.url}`);
    t.is(await statusWith(gateway.url, created.body.key, '/v1/coin-flip'), 200, `old secret in its grace on ${gateway.url}`);
  }
  // 7.2 s of grace; 20 s is the bound for a loaded machine.
  await Promise.all(gateways.map((gateway) => timeUntil(async () => (await statusWith(gateway.url, created.body.key, '/v1/coin-flip')) === 401, 20_000, 200)));

  t.is((await onB.post(`/account/api/keys/${created.body.id}/revoke`)).status, 200);
  const took = await Promise.all(gateways.map((gateway) => timeUntil(async () => (await statusWith(gateway.url, rolled.body.key, '/v1/coin-flip')) === 401, 2000)));
  t.log(`revoked key refused after ${took.map((ms) => `${ms.toFixed(0)} ms`).join(' and ')}`);

  const audit = (await onA.json('/account/api/audit')).body.events.map((event: any) => event.type);
  t.deepEqual(audit.slice(0, 4), ['key_revoked', 'key_rolled', 'key_created', 'signed_in']);
});

test.serial('usage in Redis shows on the usage page of either gateway', async (t) => {
  const [a, b] = gateways as [GatewayProcess, GatewayProcess];
  const store = redisAccountStore(client, 'test');
  const today = dayOf(new Date());
  await store.addUsage(
    [
      { accountId: OWNER_ACCOUNT_ID, keyId: 'uk_live_aaaabbbb', day: today, metric: 'requests', label: 'flipCoin', count: 9 },
      { accountId: OWNER_ACCOUNT_ID, keyId: 'uk_live_aaaabbbb', day: today, metric: 'cards', label: 'png', count: 4 },
    ],
    new Map(),
  );
  const browser = new AccountClient(b.url);
  t.is((await browser.signInWithToken(linkToken(printedLink(b)))).status, 200);
  // The owner's keys made real calls in earlier tests (counted by the gateways' meters too): the
  // counts written here are read back through a key of their own.
  const report = (await browser.json('/account/api/usage?key=uk_live_aaaabbbb')).body;
  t.is(report.totals.requests, 9);
  t.is(report.totals.cards, 4);
  t.true(report.quota.cards.used >= 4, JSON.stringify(report.quota));
  const fromA = new AccountClient(a.url);
  for (const [name, value] of browser.cookies) fromA.cookies.set(name, value);
  t.is((await fromA.json('/account/api/usage?key=uk_live_aaaabbbb')).body.series.requests.flipCoin.at(-1), 9);
});

test.serial('a gateway restarted on the same Redis keeps the sessions and keys; the logs hold no session, CSRF token or key', async (t) => {
  const browser = new AccountClient(gateways[0]!.url);
  // Both printed links are used: a new one, as the CLI would make it.
  const link = await createSignInLink(redisAccountStore(client, 'test'), { accountId: OWNER_ACCOUNT_ID, baseUrl: gateways[0]!.url, now: new Date() });
  t.is((await browser.signInWithToken(linkToken(link.url))).status, 200);
  const created = await browser.post('/account/api/keys', { name: 'survivor' });
  const outputs = [gateways[0]!.process.output(), gateways[1]!.process.output()];
  await gateways[0]!.stop();
  gateways[0] = await startGatewayProcess({ env });
  const again = new AccountClient(gateways[0].url);
  for (const [name, value] of browser.cookies) again.cookies.set(name, value);
  const me = await again.json('/account/api/me');
  t.is(me.status, 200);
  t.is(me.body.account.id, OWNER_ACCOUNT_ID);
  t.is(await statusWith(gateways[0].url, created.body.key, '/v1/coin-flip'), 200);

  const logs = [...outputs, gateways[0].process.output()].join('\n');
  t.false(logs.includes(browser.cookies.get('session')!), 'no session id');
  t.false(logs.includes(browser.csrfToken!), 'no CSRF token');
  t.false(logs.includes(created.body.key), 'no key');
  t.regex(logs, /"route":"\/account\/api\/keys"/, 'requests are logged by route template');
  // Redis holds hashes of sessions, never their ids.
  const keys = await client.keys('utility-api:session:*');
  t.true(keys.length > 0);
  t.false(keys.some((key) => key.includes(browser.cookies.get('session')!)));
});
