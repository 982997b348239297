/**
 * The operator is not a tenant: the local owner's keys (API_KEYS, the key `./run start` prints,
 * CLI keys) are on the `owner` plan, without monthly quotas, unless the operator puts the owner on
 * another; the start-up summary and GET /v1/account say which plan applies. Every other account
 * keeps its plan's quotas as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { OWNER_PLAN, toPlans } from '../../../services/gateway/src/accounts/plans.ts';
import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import { ensureOwnerAccount } from '../../../services/gateway/src/accounts/open-account-store.ts';
import { startupSummary } from '../../../services/gateway/src/startup-summary.ts';
import { startGatewayProcess } from '../../helpers/gateway-process.ts';
import { postJson, TEST_API_KEY } from '../../helpers/test-gateway.ts';
import { makeAccount, makeKey } from '../../support/accounts/usage-helpers.ts';

/** A free plan so small that the owner's first few calls pass it: 1 card, 4 requests. */
const PLANS = 'free:cards=1,requests=4';
const USER_ID = '302050872383242240';

test('an owner key past the free quotas still gets 200s; a tenant on free gets 429 quota_exceeded; the summary and GET /v1/account name the plan', async (t) => {
  const gateway = await startGatewayProcess({ env: { PLANS, USAGE_FLUSH_MS: '100' } });
  t.teardown(() => gateway.stop());
  // The summary is printed once a render worker can draw, after the "gateway listening" line.
  await gateway.process.waitFor(/^ {2}Plan {8}/);
  t.regex(gateway.process.output(), /^ {2}Plan {8}owner \(no monthly quotas on your own keys; \.\/run keys accounts plan acct_owner <plan> sets another\)$/m);

  const as = (key: string) => ({ headers: { authorization: key } });
  const card = (key: string, tag: string) => fetch(`${gateway.url}/v1/profile-image?userId=${USER_ID}`, postJson({ customTag: tag }, as(key)));
  // Three cards on a plan of one, six requests more on a plan of four: all answered.
  for (let index = 0; index < 3; index += 1) t.is((await card(TEST_API_KEY, `owner ${index}`)).status, 200, `owner card ${index + 1}`);
  for (let index = 0; index < 6; index += 1) t.is((await fetch(`${gateway.url}/v1/coin-flip`, as(TEST_API_KEY))).status, 200, `owner request ${index + 1}`);
  const owner = (await (await fetch(`${gateway.url}/v1/account`, as(TEST_API_KEY))).json()) as any;
  t.deepEqual(owner.account, { id: OWNER_ACCOUNT_ID, name: 'Local owner' });
  t.deepEqual(owner.plan, { name: 'owner', cards: null, requests: null });
  t.like(owner.cards, { limit: null, used: 3, remaining: null });
  t.like(owner.requests, { limit: null, used: 10, remaining: null });

  // A tenant on free: its quotas hold as before.
  const store = openSqliteAccountStore({ path: join(gateway.mediaDir, 'accounts.sqlite') });
  t.teardown(() => store.close());
  await makeAccount(store, 'acct_tenant', 'free');
  const { key } = await makeKey(store, { accountId: 'acct_tenant' });
  t.is((await card(key, 'tenant 1')).status, 200);
  const refused = await card(key, 'tenant 2');
  t.is(refused.status, 429);
  t.like(await refused.json(), { error: { code: 'quota_exceeded' } });
  // Two requests so far (the card and the refused card, which passed the requests quota): two more fit in 4.
  for (let index = 0; index < 2; index += 1) t.is((await fetch(`${gateway.url}/v1/coin-flip`, as(key))).status, 200);
  const over = await fetch(`${gateway.url}/v1/coin-flip`, as(key));
  t.is(over.status, 429);
  t.regex(((await over.json()) as any).error.message, /monthly requests quota \(4 on the free plan\)/);
  const tenant = (await (await fetch(`${gateway.url}/v1/account`, as(key))).json()) as any;
  t.deepEqual(tenant.plan, { name: 'free', cards: 1, requests: 4 });
});

test('an owner account made before the owner plan (on the default plan) moves to it once, audited; a plan the operator chose stays', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'owner-plan-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const now = new Date('2026-03-01T00:00:00.000Z');

  const older = openSqliteAccountStore({ path: join(folder, 'older.sqlite') });
  t.teardown(() => older.close());
  // As the earlier version made it: on the deployment's default plan.
  await older.createAccount({ id: OWNER_ACCOUNT_ID, name: 'Local owner', discordUserId: null, plan: 'free', createdAt: now.toISOString() });
  t.is((await ensureOwnerAccount(older, { now })).plan, 'owner');
  t.is((await older.getAccount(OWNER_ACCOUNT_ID))?.plan, 'owner');
  t.like((await older.auditLog(OWNER_ACCOUNT_ID, 10))[0], { type: 'plan_changed', actor: 'system', detail: { from: 'free', to: 'owner' } });
  // The operator then puts the owner on free (the CLI audits it): later starts leave it there.
  await older.setPlan(OWNER_ACCOUNT_ID, 'free');
  await older.audit({ at: now.toISOString(), accountId: OWNER_ACCOUNT_ID, type: 'plan_changed', actor: 'cli', detail: { from: 'owner', to: 'free' } });
  t.is((await ensureOwnerAccount(older, { now })).plan, 'free');
  t.is((await older.auditLog(OWNER_ACCOUNT_ID, 10)).length, 2, 'nothing more was audited');

  const fresh = openSqliteAccountStore({ path: join(folder, 'fresh.sqlite') });
  t.teardown(() => fresh.close());
  t.is((await ensureOwnerAccount(fresh, { now })).plan, 'owner', 'a new owner account starts on the owner plan');
  t.deepEqual(await fresh.auditLog(OWNER_ACCOUNT_ID, 10), []);
});

test('plans: owner is always offered, without quotas, unless PLANS defines its own; the summary line says the owner\'s quotas', (t) => {
  const plans = toPlans([{ name: 'free', cards: 1, requests: 4 }], undefined);
  t.deepEqual([...plans.byName.keys()], ['free', 'owner']);
  t.is(plans.defaultPlan.name, 'free', 'new accounts still start on the default plan');
  t.is(plans.byName.get('owner'), OWNER_PLAN);
  const own = toPlans([{ name: 'free', cards: 1, requests: 4 }, { name: 'owner', cards: 10, requests: 20 }], undefined);
  t.deepEqual(own.byName.get('owner'), { name: 'owner', cards: 10, requests: 20 });

  const facts = { publicBaseUrl: 'http://127.0.0.1:3000', generatedKey: undefined, bootstrapKeys: 1, managedKeys: 0, signInLink: undefined, quotasEnforced: true };
  t.regex(startupSummary({ ...facts, ownerPlan: own.byName.get('owner')! }), /^ {2}Plan {8}owner \(10 cards and 20 requests a month on your own keys\)$/m);
  t.regex(startupSummary({ ...facts, ownerPlan: plans.byName.get('free')! }), /^ {2}Plan {8}free \(1 cards and 4 requests a month on your own keys\)$/m);
  t.regex(startupSummary({ ...facts, ownerPlan: OWNER_PLAN, quotasEnforced: false }), /^ {2}Plan {8}owner \(RATE_LIMITS=off: no quota is enforced\)$/m);
});
